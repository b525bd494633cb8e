/**
 * One open session, outside React: it applies the agent's events to the page's state (transcript view
 * and usage), keeps the API transcript of the turn in progress, and saves everything to the sessions
 * store as it happens. React reads it with useSyncExternalStore.
 *
 * Durability is a property of what is shown: the state listeners see (`getState`) is always one that
 * has been committed to IndexedDB. Events update the latest state at once; once per frame the changes
 * since the last commit are written (only the entries that changed: one message, one tool result, one
 * card), and when that transaction completes the state it wrote becomes the one shown. After a tool
 * result the project files are saved before the session is. So a reload at any instant loses
 * nothing that was on screen: not the prompt of a first turn, not a finished call of a message whose
 * other calls still run (each result is added to the saved transcript as soon as it exists).
 *
 * A failed write (storage full) is shown as an error, never dropped: what was not written stays in
 * the next write, which is retried after SAVE_RETRY_MS, and the page keeps working from memory.
 */

import {
  diffRecord,
  listsOf,
  metaOf,
  repairInterruptedTranscript,
  type SavedLists,
  type SessionMeta,
  type SessionRecord,
  type SessionSettings,
  type SessionsStore,
  titleFromPrompt,
  UNTITLED_SESSION,
} from '../agent/sessions-store.ts';
import type { AgentSession, SessionEvent } from '../agent/types.ts';
import type { MessageParam, ToolResultBlockParam } from '../core/messages.ts';
import type { KeptAnswers } from './kept-answers.ts';
import { storageProblem } from './storage-errors.ts';
import { fromStoredView, itemsFromMessages, toStoredView } from './stored-view.ts';
import {
  initialTranscript,
  type LocalEvent,
  reduceTranscript,
  type TranscriptItem,
  type TranscriptState,
} from './transcript-state.ts';
import { initialUsage, reduceUsage, type UsageState } from './usage-state.ts';

/** How long after a failed write (storage full, a transient error) the next attempt is made. */
export const SAVE_RETRY_MS = 3000;

/**
 * 'saved': what is shown is in IndexedDB; 'pending': a write is under way; 'error': the last write
 * failed (the session lives in memory until one succeeds); 'readonly': another tab has the session
 * open, so this one never writes it.
 */
export type SaveStatus = 'saved' | 'pending' | 'error' | 'readonly';

export interface SessionViewState {
  id: string;
  title: string;
  transcript: TranscriptState;
  usage: UsageState;
  save: SaveStatus;
  saveError?: string;
  /** The last request failed to reach the API (cleared when a response starts). */
  networkFailed: boolean;
  /** Why the project files are not saved (storage full...); absent once they are saved again. */
  projectSaveError?: string;
}

export interface SessionModel {
  readonly id: string;
  /** True when another tab holds the session: nothing is written, sending is refused by the page. */
  readonly readOnly: boolean;
  getState(): SessionViewState;
  subscribe(listener: () => void): () => void;
  /** A page-made item (e.g. "add a key" notice). */
  local(event: LocalEvent): void;
  setSettings(settings: SessionSettings): void;
  rename(title: string): void;
  /** The record as it would be saved now. */
  record(): SessionRecord;
  /**
   * Writes the changes made up to now and resolves once they are committed (or failed). Never rejects.
   */
  flush(): Promise<void>;
  /** Stops listening to the agent and writes what is pending. */
  dispose(): Promise<void>;
}

export interface SessionModelOptions {
  record: SessionRecord;
  /** The restored view state (from the record's view). */
  transcript?: TranscriptState;
  agent: AgentSession;
  store: SessionsStore;
  onSaved?: (meta: SessionMeta) => void;
  now?: () => number;
  /** Write the record at once (e.g. a transcript repaired on restore). */
  saveNow?: boolean;
  /**
   * The record as the store holds it (loaded or just saved), when it is there: writes then carry only
   * what differs from it. It may differ from `record` (a turn repaired on restore).
   */
  stored?: SessionRecord;
  /** Another tab has the session: show it, never write it. */
  readOnly?: boolean;
}

/** Runs `fn` at the next frame (a timer where there are no frames: tests in Node). */
/**
 * How soon a hidden page writes: a tab in the background gets no animation frames at all, so a turn it
 * runs would be written only at its end (and lost with the tab if the browser discards or loses it).
 */
export const HIDDEN_SAVE_MS = 200;

const isHidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/** Runs `fn` once, at the next animation frame, or after HIDDEN_SAVE_MS while the page is hidden. */
function nextFrame(fn: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(fn, 16);
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    fn();
  };
  // Hidden now, or hidden before the frame comes (a frame asked for just before the tab went away).
  const onVisibility = () => {
    if (isHidden() && timer === undefined) timer = setTimeout(once, HIDDEN_SAVE_MS);
  };
  requestAnimationFrame(once);
  if (typeof document !== 'undefined') {
    document.addEventListener('visibilitychange', onVisibility);
    onVisibility();
  }
}

export function createSessionModel(options: SessionModelOptions): SessionModel {
  const { agent, store } = options;
  const now = options.now ?? Date.now;
  const readOnly = options.readOnly === true;
  const rec: SessionRecord = { ...options.record, messages: [...options.record.messages] };
  /** The newest state (events apply here at once). */
  let latest: SessionViewState = {
    id: rec.id,
    title: rec.title,
    transcript: options.transcript ?? initialTranscript,
    usage: { ...initialUsage, requests: rec.usage },
    save: readOnly ? 'readonly' : 'saved',
    networkFailed: false,
  };
  /** The state listeners see: the newest one that was committed. */
  let visible = latest;
  const listeners = new Set<() => void>();
  /** What the store holds for this session (the base of the next patch); undefined: nothing yet. */
  let saved: SavedLists | undefined = options.stored ? listsOf(options.stored) : undefined;
  let changed = false;
  /** A tool result or a turn end since the last commit: the project files are saved with it. */
  let projectDirty = false;
  let writing: Promise<void> | undefined;
  let frameQueued = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let saveState: SaveStatus = visible.save;
  let saveError: string | undefined;
  let disposed = false;

  const notify = () => {
    for (const l of listeners) l();
  };

  const show = (state: SessionViewState) => {
    visible = { ...state, save: saveState, saveError };
    notify();
  };

  const snapshot = (): SessionRecord => ({
    ...rec,
    // A copy: `rec.messages` changes in place, and what was written is the base of the next patch.
    messages: rec.messages.slice(),
    title: latest.title,
    usage: latest.usage.requests,
    view: toStoredView(latest.transcript.items),
    messageCount: rec.messages.length,
  });

  /**
   * Nothing worth a stored session yet (a new session with only a page notice in it). A `!` line the
   * user ran is: what it printed is shown, and the model gets it with the next prompt.
   */
  const empty = () =>
    !saved &&
    rec.messages.length === 0 &&
    latest.title === UNTITLED_SESSION &&
    !latest.transcript.items.some((i) => i.kind === 'shell');

  const commit = async (): Promise<void> => {
    changed = false;
    const target = latest;
    if (readOnly || empty()) {
      projectDirty = false;
      // Nothing of this session is kept in the store yet (a page notice): nothing is waiting to be written.
      if (!readOnly && saveState === 'pending') saveState = 'saved';
      show(target);
      return;
    }
    const record = snapshot();
    const project = projectDirty;
    projectDirty = false;
    try {
      // The files a tool result changed are saved first, then the session: whatever the store holds as
      // done has its files saved too (a reload between the two leaves the card unfinished, never the
      // file lost).
      if (project) await agent.flushProject?.();
      await (saved && store.write ? store.write(diffRecord(saved, record)) : store.save(record));
      saved = listsOf(record);
      saveState = changed ? 'pending' : 'saved';
      saveError = undefined;
      options.onSaved?.(metaOf(record));
    } catch (err) {
      saveState = 'error';
      saveError = storageProblem(err);
      // Kept for the next attempt: `saved` did not move, so the next patch carries these changes too.
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        if (disposed) return;
        changed = true;
        request();
      }, SAVE_RETRY_MS);
    }
    show(target);
  };

  /** Starts the next commit unless one runs (it starts the next itself). */
  const pump = (): Promise<void> => {
    if (writing) return writing;
    if (!changed) return Promise.resolve();
    writing = commit().finally(() => {
      writing = undefined;
      if (changed) request();
    });
    return writing;
  };

  const request = () => {
    if (frameQueued) return;
    frameQueued = true;
    nextFrame(() => {
      frameQueued = false;
      void pump();
    });
  };

  const change = () => {
    rec.updatedAt = now();
    changed = true;
    if (saveState === 'saved') saveState = 'pending';
    request();
  };

  // What changed up to the call: a write under way took an older state, so at most one more is needed
  // (changes that keep coming while it writes, a background command's output, do not hold the caller).
  const flush = async (): Promise<void> => {
    for (let pass = 0; pass < 2 && (writing || changed); pass++) await (writing ?? pump());
  };

  const onEvent = (event: SessionEvent) => {
    if (disposed) return;
    const stamped = { ...event, at: now() };
    const next: SessionViewState = {
      ...latest,
      transcript: reduceTranscript(latest.transcript, stamped),
      usage: reduceUsage(latest.usage, stamped),
    };
    // A stream cut after the reply began is no sign the API cannot be reached.
    if (event.type === 'error' && event.error.kind === 'network' && !event.error.midStream)
      next.networkFailed = true;
    if (event.type === 'message-start' && latest.networkFailed) next.networkFailed = false;
    if (event.type === 'project-save') next.projectSaveError = event.ok ? undefined : event.message;
    switch (event.type) {
      case 'run-start':
        rec.turnOpen = true;
        rec.messages.push(event.message ?? { role: 'user', content: [{ type: 'text', text: event.prompt }] });
        if (latest.title === UNTITLED_SESSION) next.title = titleFromPrompt(event.prompt);
        break;
      case 'message-end':
        rec.messages.push(event.message);
        break;
      case 'tool-result':
        rec.messages = withToolResult(rec.messages, event.block);
        projectDirty = true;
        break;
      case 'user-message': {
        const last = rec.messages[rec.messages.length - 1];
        if (last?.role === 'user') rec.messages[rec.messages.length - 1] = event.message;
        else rec.messages.push(event.message);
        break;
      }
      case 'run-end':
        rec.turnOpen = false;
        rec.messages = [...agent.transcript()];
        projectDirty = true;
        break;
      case 'compaction-end':
      case 'context-cleared':
        // The transcript was replaced (summarized, or its old results cleared): saved as it now is.
        rec.messages = [...event.messages];
        break;
    }
    latest = next;
    change();
  };

  const unsubscribe = agent.subscribe(onEvent);
  if (options.saveNow && !readOnly) change();

  return {
    id: rec.id,
    readOnly,
    getState: () => visible,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    local(event) {
      latest = { ...latest, transcript: reduceTranscript(latest.transcript, event) };
      change();
    },
    setSettings(settings) {
      rec.settings = settings;
      change();
    },
    rename(title) {
      const t = title.trim() || UNTITLED_SESSION;
      if (t === latest.title) return;
      latest = { ...latest, title: t };
      change();
    },
    record: snapshot,
    flush,
    async dispose() {
      disposed = true;
      clearTimeout(retryTimer);
      unsubscribe();
      await flush();
      listeners.clear();
    },
  };
}

/**
 * The transcript with a tool result added as soon as it exists: into the user message after the
 * assistant message that made the call (created when this is the message's first result). A message's
 * results may so be partial on disk; ensureToolResultPairing on restore answers only the calls that never
 * finished. A result for a call not in the last assistant message is left to the loop's own message.
 */
export function withToolResult(messages: MessageParam[], block: ToolResultBlockParam): MessageParam[] {
  const last = messages[messages.length - 1];
  const assistantAt = last?.role === 'assistant' ? messages.length - 1 : messages.length - 2;
  const assistant = messages[assistantAt];
  if (assistant?.role !== 'assistant' || typeof assistant.content === 'string') return messages;
  if (!assistant.content.some((b) => b.type === 'tool_use' && b.id === block.tool_use_id)) return messages;
  if (assistantAt === messages.length - 1) return [...messages, { role: 'user', content: [block] }];
  const results = messages[messages.length - 1];
  const content = typeof results.content === 'string' ? [] : results.content;
  if (content.some((b) => b.type === 'tool_result' && b.tool_use_id === block.tool_use_id)) return messages;
  const out = messages.slice();
  out[out.length - 1] = { role: 'user', content: [...content, block] };
  return out;
}

/** Whether a card follows a background command that still ran when the view was saved. */
const followsBackground = (items: readonly TranscriptItem[]): boolean =>
  items.some(
    (i) =>
      i.kind === 'tool' &&
      ((i.card.result?.view as { running?: boolean } | undefined)?.running ||
        followsBackground(i.card.subagent?.transcript.items ?? [])),
  );

/**
 * A saved session as the page opens it: a turn cut off by a reload is repaired (every tool_use answered,
 * the interrupt marker added) and its view ends with the turn interrupted; background commands its cards
 * followed and the sandbox no longer has (`running`: the IDs it has) read as stopped by the reload;
 * `running` null: not known here (another tab holds the session), they are left as saved.
 * `seenToReload`: the page showed this session until it reloaded (the tab's session, opened first);
 * false for one opened later, whose cards stopped following their commands when it was left.
 */
export async function restoreRecord(
  record: SessionRecord,
  answers: KeptAnswers = {},
  running?: readonly string[] | null,
  seenToReload = true,
): Promise<{
  rec: SessionRecord;
  transcript: TranscriptState;
  repaired: boolean;
}> {
  const stored = fromStoredView(record.view)?.items;
  let rec = record;
  let items = stored ?? itemsFromMessages(record.messages);
  const repaired = record.turnOpen || followsBackground(items);
  if (repaired) {
    // Only such a session needs the repair (loaded then: it is not part of the first load).
    const { repairRecord } = await import('./session-repair.ts');
    ({ rec, items } = repairRecord(
      record,
      stored,
      answers,
      { withToolResult, itemsFromMessages, repairInterruptedTranscript },
      running,
      seenToReload,
    ));
  }
  const transcript = reduceTranscript(initialTranscript, {
    type: 'local-restore',
    items,
    interrupted: record.turnOpen,
  });
  return { rec, transcript, repaired };
}
