/**
 * The card of a background command (Bash run_in_background) follows the command: what it prints and how
 * it ends reach the card as `tool-view` events (the call's result view with the command's output, its
 * end, and its state), a few times a second at most. The page saves the view with the session like any
 * card, so after a reload the card shows what it had shown (and src/ui/session-repair.ts says the reload
 * stopped it). A sub-agent's background command reaches its card inside the sub-agent's card.
 */
import type { QueryEvent } from '../core/events.ts';
import type { MessageParam } from '../core/messages.ts';
import type { ToolResultView } from '../core/tool.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { SessionEvent } from './types.ts';

/** Most characters of a background command's output its card shows (its end), and the page saves. */
export const BACKGROUND_SHOWN_CHARS = 30_000;
/** How long output waits before it reaches the card (one update for all of it). */
export const BACKGROUND_VIEW_MS = 250;
/** How often a running command's output is looked for besides (a backend that does not announce it). */
export const BACKGROUND_POLL_MS = 1000;

type TerminalView = Extract<ToolResultView, { kind: 'terminal' }>;
/** The sub-agent cards an event came through, outermost first. */
type Path = { toolUseId: string; agentId: string }[];

interface Followed {
  id: string;
  toolUseId: string;
  path: Path;
  /** What the card shows of the output: its end, at most BACKGROUND_SHOWN_CHARS. */
  shown: string;
  cut: boolean;
  /** The sandbox's offset of what `shown` holds up to. */
  offset: number;
  /**
   * Output is read from the start of the line it ends in (the sandbox turns each line's carriage
   * returns, backspaces and escapes into text on its own: a line read in pieces reads wrong, `a\r` then
   * `b` as `ab`). `lineOffset`: the sandbox's offset of that line's start; `done`: what the card shows of
   * the lines before it (whole lines); `skip`: how much of a read from `lineOffset` is in `done` already;
   * `partial`: that line as last read.
   */
  lineOffset: number;
  done: string;
  skip: number;
  partial: string;
  /** The command's status when last read (undefined: not read yet). */
  status?: 'running' | 'exited' | 'killed';
  /** The card belongs to the conversation the session holds now (another one was loaded since). */
  owned: boolean;
  /** The card has the view as it was last read. */
  sent: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

export interface BackgroundViews {
  /** Every event the session emits: a background call's result starts a following. */
  see(event: SessionEvent): void;
  /**
   * Another conversation was loaded: only the cards in it are followed from now on, and they are sent
   * their view as it now is (a session switched back to shows what ran meanwhile).
   */
  adopt(messages: readonly MessageParam[]): void;
  dispose(): void;
}

/** The result event inside any sub-agent wrappers, with the path to it. */
function unwrap(event: SessionEvent): { event: SessionEvent | QueryEvent; path: Path } {
  const path: Path = [];
  let inner: SessionEvent | QueryEvent = event;
  while (inner.type === 'subagent-event') {
    path.push({ toolUseId: inner.toolUseId, agentId: inner.agentId });
    inner = inner.event;
  }
  return { event: inner, path };
}

/** `event` as it reaches the card at `path` (inside the sub-agent cards it came through). */
function wrap(event: QueryEvent, path: Path): SessionEvent {
  let out: QueryEvent = event;
  for (let i = path.length - 1; i >= 0; i--)
    out = { type: 'subagent-event', toolUseId: path[i].toolUseId, agentId: path[i].agentId, event: out };
  return out;
}

/** The tool_use ids of a conversation's assistant messages. */
function callIds(messages: readonly MessageParam[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_use') ids.add(b.id);
  }
  return ids;
}

/** What a background command's state reads on its card. */
function stateOf(status: 'running' | 'exited' | 'killed', id: string): string | undefined {
  if (status === 'running') return `running in the background (${id})`;
  return status === 'killed' ? `stopped (${id})` : undefined;
}

export function followBackgroundViews(
  sandbox: Sandbox,
  emit: (event: SessionEvent) => void,
): BackgroundViews {
  const followed = new Map<string, Followed>();
  let disposed = false;
  let poll: ReturnType<typeof setInterval> | undefined;

  /** Reads what is new and, when there is (or the card lacks it), sends the card its view. Never throws. */
  const update = (f: Followed) => {
    clearTimeout(f.timer);
    f.timer = undefined;
    if (disposed || (f.status !== undefined && f.status !== 'running' && f.sent)) return;
    let out: ReturnType<Sandbox['readBackground']>;
    try {
      out = sandbox.readBackground(f.id, { since: f.lineOffset });
      // The buffer no longer has the line's start (one line longer than the sandbox keeps): what is new
      // is read alone, as the line's rest.
      if (out.dropped > f.lineOffset) {
        out = sandbox.readBackground(f.id, { since: f.offset });
        f.done += f.partial;
        f.partial = '';
        f.skip = 0;
        f.lineOffset = f.offset;
      }
    } catch {
      // The sandbox no longer has it: nothing more to read (the card keeps what it showed).
      f.status = 'killed';
      return;
    }
    // The sandbox's buffer dropped output not read yet: the card says its start is cut.
    if (out.dropped > f.offset) f.cut = true;
    const changed = out.nextOffset !== f.offset || out.status !== f.status;
    f.offset = out.nextOffset;
    const fresh = out.output.slice(f.skip);
    const whole = fresh.lastIndexOf('\n') + 1;
    f.done += fresh.slice(0, whole);
    f.partial = fresh.slice(whole);
    if (f.partial === '') {
      f.lineOffset = out.nextOffset;
      f.skip = 0;
    } else f.skip += whole;
    if (f.done.length > BACKGROUND_SHOWN_CHARS) {
      f.cut = true;
      f.done = f.done.slice(-BACKGROUND_SHOWN_CHARS);
    }
    const all = f.done + f.partial;
    if (all.length > BACKGROUND_SHOWN_CHARS) f.cut = true;
    f.shown = all.slice(-BACKGROUND_SHOWN_CHARS);
    f.status = out.status;
    if (!f.owned || (f.sent && !changed)) return;
    const running = out.status === 'running';
    const state = stateOf(out.status, f.id);
    const view: TerminalView = {
      kind: 'terminal',
      stdout: f.cut ? `…${f.shown}` : f.shown,
      stderr: '',
      exitCode: out.exitCode ?? 0,
      backgroundId: f.id,
      ...(running ? { running: true } : {}),
      ...(state ? { state } : {}),
    };
    f.sent = true;
    emit(wrap({ type: 'tool-view', toolUseId: f.toolUseId, view }, f.path));
  };

  const schedule = (f: Followed, ms = BACKGROUND_VIEW_MS) => {
    if (f.timer === undefined && !disposed) f.timer = setTimeout(() => update(f), ms);
  };

  // Output is also looked for now and then: a backend may not announce a background command's output
  // (WebContainer announces only its start and end).
  const polling = () => {
    const running = [...followed.values()].filter((f) => f.status !== 'exited' && f.status !== 'killed');
    if (running.length === 0 || disposed) {
      clearInterval(poll);
      poll = undefined;
      return;
    }
    for (const f of running) if (f.timer === undefined) update(f);
  };

  const unsubscribe = sandbox.onEvent((e) => {
    if (e.type !== 'exec-output' && e.type !== 'exec-end') return;
    const f = followed.get(e.id);
    if (f) schedule(f, e.type === 'exec-end' ? 0 : BACKGROUND_VIEW_MS);
  });

  return {
    see(sessionEvent) {
      if (disposed) return;
      const { event, path } = unwrap(sessionEvent);
      if (event.type !== 'tool-result' || event.view?.kind !== 'terminal') return;
      const id = event.view.backgroundId;
      if (!id || followed.has(id)) return;
      const f: Followed = {
        id,
        toolUseId: event.toolUseId,
        path,
        shown: '',
        cut: false,
        offset: 0,
        lineOffset: 0,
        done: '',
        skip: 0,
        partial: '',
        owned: true,
        sent: false,
      };
      followed.set(id, f);
      // What it printed before its result was out (and a command that ended at once).
      schedule(f);
      poll ??= setInterval(polling, BACKGROUND_POLL_MS);
    },
    adopt(messages) {
      const ids = callIds(messages);
      for (const f of followed.values()) {
        f.owned = ids.has(f.path[0]?.toolUseId ?? f.toolUseId);
        if (!f.owned) continue;
        // Sent again, as it is now (also the end, when it came while another conversation was open).
        f.sent = false;
        schedule(f);
      }
    },
    dispose() {
      disposed = true;
      unsubscribe();
      clearInterval(poll);
      for (const f of followed.values()) clearTimeout(f.timer);
    },
  };
}
