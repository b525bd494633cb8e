/**
 * Prompts the user typed that the saved session does not hold yet, kept across a reload of the tab.
 *
 * A prompt leaves the prompt box at Enter, but it is in the saved session only once its turn has
 * started and that state was committed to IndexedDB (see session-model.ts): until then a reload would
 * lose it (the box is empty, the transcript never had it). Prompts waiting in the queue and the text in
 * the box are in the same case. So all three are written to sessionStorage (synchronously, in the
 * commit of the render that changed them: a reload queued behind the keypress finds them) and the
 * reloaded page puts them back into the prompt box, for the user to send again (never sent by itself).
 * A sent prompt comes back only when the restored session does not show it: the page's last save
 * (on pagehide) may have got it in after all. It is let go only once the committed state accounts for
 * it: the end of the agent's turn alone is not enough (a quick reply can end a turn before any of it
 * was written, and a reload then lost the prompt), nor a state shown although its write failed.
 *
 * sessionStorage is the tab's own, as the prompt box is: a second tab does not get this one's text.
 * When it refuses the write (full), localStorage keeps the text instead, until the next page reads it.
 */
import { useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { storageName } from '../core/storage-namespace.ts';

/** How texts put back into the prompt box are joined (as an interrupt puts the queue back). */
export const UNSENT_SEPARATOR = '\n\n';

/** A prompt handed to the agent whose turn is not shown yet. */
interface SentPrompt {
  text: string;
  /** The session it was sent in. */
  session: string;
  /** Prompts the session showed when it was sent: one more shown means it is saved. */
  shownPrompts: number;
}

interface Unsent {
  /** The queue, then the prompt box's text. */
  texts: string[];
  sent?: SentPrompt;
}

const key = () => storageName('unsent-prompts', '.');
/** Where the text goes when this tab's sessionStorage is full (the page's; read once, then dropped). */
const fallbackKey = () => storageName('unsent-prompts-overflow', '.');

function parseUnsent(raw: string | null | undefined): Unsent {
  const parsed = (raw ? JSON.parse(raw) : {}) as Partial<Unsent>;
  const texts = Array.isArray(parsed.texts)
    ? parsed.texts.filter((t): t is string => typeof t === 'string' && !!t.trim())
    : [];
  return isSent(parsed.sent) ? { texts, sent: parsed.sent } : { texts };
}

const isSent = (v: unknown): v is SentPrompt => {
  const s = v as SentPrompt;
  return (
    !!s && typeof s.text === 'string' && typeof s.session === 'string' && typeof s.shownPrompts === 'number'
  );
};

/** What the page saved before the reload ({ texts: [] } without storage or with bad data). Never throws. */
export function readUnsent(): Unsent {
  let own: Unsent = { texts: [] };
  try {
    own = parseUnsent(globalThis.sessionStorage?.getItem(key()));
  } catch {}
  if (own.texts.length > 0 || own.sent) return own;
  try {
    return parseUnsent(globalThis.localStorage?.getItem(fallbackKey()));
  } catch {
    return own;
  }
}

/** The overflow copy is for one reload: the page that put it back into its box lets it go. */
function dropUnsentOverflow(): void {
  try {
    globalThis.localStorage?.removeItem(fallbackKey());
  } catch {}
}

/** Saves `unsent` (blank texts left out); nothing left removes the entry. Never throws. */
export function writeUnsent(unsent: Unsent): void {
  const texts = unsent.texts.filter((t) => t.trim());
  const empty = texts.length === 0 && !unsent.sent;
  const value = JSON.stringify({ texts, sent: unsent.sent });
  try {
    if (empty) globalThis.sessionStorage?.removeItem(key());
    else globalThis.sessionStorage?.setItem(key(), value);
    dropUnsentOverflow();
    return;
  } catch {
    // Full (or refused): the page's localStorage keeps it for the next load of this page.
  }
  try {
    if (empty) globalThis.localStorage?.removeItem(fallbackKey());
    else globalThis.localStorage?.setItem(fallbackKey(), value);
  } catch {
    // Both refused (disabled, a sandboxed frame): the page works on, as before this existed.
  }
}

const join = (texts: readonly string[]) => texts.filter((t) => t.trim()).join(UNSENT_SEPARATOR);

/** The prompt box's first text: the queue and box text unsent before the reload, then `initial`. */
export function initialPromptText(initial: string): string {
  return join([...readUnsent().texts, initial]);
}

export interface UnsentPromptsInput {
  /** False: nothing is read or written (an embed, whose sessions are not kept either). */
  enabled: boolean;
  /** The prompt box's text. */
  prompt: string;
  setPrompt: (update: (prompt: string) => string) => void;
  /** Prompts queued while the agent works or starts. */
  queue: readonly string[];
  /** The id of the session shown (undefined while none is). */
  sessionId: string | undefined;
  /** Prompts the shown (committed) session has. */
  shownPrompts: number;
  /** The shown state has a turn running: once committed, a prompt sent before it is in the saved session. */
  shownRunning: boolean;
  /**
   * The shown state is in IndexedDB (not one shown although its write failed, nor another tab's session).
   */
  shownCommitted: boolean;
  /** A send is under way: from Enter until the state its turn left is committed (or failed to be). */
  sending: boolean;
}

/**
 * Keeps the unsent texts saved as they change, and puts a sent prompt the reload cut off back into the
 * box. Returns `sent(text)`, to call when a prompt leaves the box for the agent: it stays saved until the
 * committed state has its turn running (the prompt is then in IndexedDB) or the send is over.
 */
export function useUnsentPrompts(input: UnsentPromptsInput): { sent: (text: string) => void } {
  const {
    enabled,
    prompt,
    setPrompt,
    queue,
    sessionId,
    shownPrompts,
    shownRunning,
    shownCommitted,
    sending,
  } = input;
  const [inFlight, setInFlight] = useState<SentPrompt | null>(() =>
    enabled ? (readUnsent().sent ?? null) : null,
  );
  /** The in-flight prompt came from before the reload: settled once the restored session is shown. */
  const [restoring, setRestoring] = useState(() => inFlight !== null);
  // Its turn is committed running (so its prompt is saved), or the send ended and what it left is
  // committed (its turn, or a refusal: nothing to keep). `sent` and setSending(true) land in one render,
  // so `sending` is true on the first one.
  if (!restoring && inFlight !== null && shownCommitted && (shownRunning || !sending)) setInFlight(null);
  useEffect(() => {
    if (!restoring || sessionId === undefined) return;
    setRestoring(false);
    setInFlight(null);
    const saved = inFlight && inFlight.session === sessionId && shownPrompts > inFlight.shownPrompts;
    if (inFlight && !saved) setPrompt((p) => join([inFlight.text, p]));
  }, [restoring, sessionId, shownPrompts, inFlight, setPrompt]);
  // A layout effect runs in the render's commit: before a reload queued behind the keypress.
  useLayoutEffect(() => {
    if (enabled) writeUnsent({ texts: [...queue, prompt], ...(inFlight ? { sent: inFlight } : {}) });
  }, [enabled, inFlight, queue, prompt]);
  const sent = useCallback(
    (text: string) => {
      if (enabled && sessionId !== undefined) setInFlight({ text, session: sessionId, shownPrompts });
    },
    [enabled, sessionId, shownPrompts],
  );
  return { sent };
}
