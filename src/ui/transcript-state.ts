/**
 * What the page shows, derived from the session's events: a pure reducer, so the whole transcript view
 * is one immutable value. Text blocks are keyed by message id + block index, tool cards by tool_use id.
 */
import type { SessionEvent } from '../agent/types.ts';
import type { PermissionAnswer, QueryError } from '../core/events.ts';
import type { ToolResultBlockParam, ToolResultView, ToolUseMessage } from '../core/tool.ts';
import {
  type HabitItem,
  type HabitLocalEvent,
  reduceHabitEvent,
  settleRestoredItem,
} from './habits-state.ts';

export type ToolStatus = 'pending' | 'running' | 'done' | 'error' | 'interrupted';

export interface PermissionPrompt {
  message: string;
  suggestedRule?: string;
  /** The tool says the call may delete or overwrite something. */
  destructive?: boolean;
  /** A sub-agent's call: which agent asks. */
  agentLabel?: string;
  respond: (answer: PermissionAnswer) => void;
}

export interface ToolCardState {
  toolUseId: string;
  name: string;
  status: ToolStatus;
  /** The input as it streamed in (partial JSON). */
  inputJson: string;
  input?: unknown;
  view?: ToolUseMessage;
  /** Output streamed while running. */
  progress: string;
  /** The latest status line a running tool reported. */
  statusText?: string;
  /** When the call started running (ms since the epoch), for the elapsed-time counter. */
  startedAt?: number;
  /** When its result arrived: with `startedAt`, the time it ran (a permission wait is not part of it). */
  endedAt?: number;
  permission?: PermissionPrompt;
  result?: {
    isError: boolean;
    view?: ToolResultView;
    /** The text the model saw. */
    content: string;
    durationMs: number;
  };
  /** Why the call ended without running (e.g. its input was cut off while it streamed). */
  note?: string;
  /** The sub-conversation the call runs (Agent, a forked Skill): its own transcript view and usage. */
  subagent?: SubagentView;
}

/** A sub-agent's transcript as its parent's card shows it. */
export interface SubagentView {
  agentId: string;
  transcript: TranscriptState;
  usage: { requests: number; inputTokens: number; outputTokens: number };
}

export type Notice = 'interrupted' | 'max_turns' | 'max_tokens' | 'refusal' | 'missing-key';

export type TranscriptItem =
  /** `returned`: the API refused it before any reply; it is not in the transcript, it went back to the box. */
  | { kind: 'user'; id: string; text: string; returned?: true }
  | {
      kind: 'assistant-text';
      id: string;
      text: string;
      /** Still streaming: its message has not ended, so it is not in the transcript yet. */
      streaming?: boolean;
      /** The reply was cut off before it ended: this text is not in the transcript (the model never sees it). */
      discarded?: boolean;
    }
  | { kind: 'tool'; id: string; card: ToolCardState }
  | { kind: 'error'; id: string; error: QueryError }
  | { kind: 'notice'; id: string; notice: Notice }
  /** Thinking, compaction dividers, `!` runs, slash command output, notes (habits-state.ts). */
  | HabitItem;

/** A failed request that will be sent again: the page counts down to `until`. */
export interface RetryWait {
  until: number;
  attempt: number;
  maxRetries: number;
  error: QueryError;
}

export interface TranscriptState {
  items: TranscriptItem[];
  running: boolean;
  /** Id of the assistant message streaming now (text blocks are keyed by it). */
  messageId?: string;
  /** Ids of the items of the message streaming now (cleared when it ends). */
  streamingIds?: string[];
  /** A retry being waited out. */
  retry?: RetryWait;
  /** Counter for ids of items that have none of their own. */
  seq: number;
}

export const initialTranscript: TranscriptState = { items: [], running: false, seq: 0 };

/** Things the page itself adds to the transcript (not session events). */
export type LocalEvent =
  | { type: 'local-notice'; notice: Notice }
  | { type: 'local-clear' }
  /** A saved session opened: its items, and whether its last turn was cut off (reload mid-turn). */
  | { type: 'local-restore'; items: TranscriptItem[]; interrupted: boolean }
  | HabitLocalEvent;

/** What the reducer takes: an event, stamped with the time it arrived when the caller knows it. */
export type TranscriptAction = (SessionEvent | LocalEvent) & { at?: number };

export function reduceTranscript(state: TranscriptState, event: TranscriptAction): TranscriptState {
  const habit = reduceHabitEvent(state, event);
  if (habit) return habit;
  switch (event.type) {
    case 'run-start':
      // A turn that starts has a key: a "add a key" notice from before is answered, so it goes.
      return push({ ...withoutKeyNotices(state), running: true, messageId: undefined }, (id) => ({
        kind: 'user',
        id,
        text: event.prompt,
      }));
    case 'run-end':
      // Whatever did not end by now ended with the turn: no card stays pending or running.
      return { ...settleAll(endStream(state)), running: false, messageId: undefined, retry: undefined };
    case 'message-start':
      // A message that never ended before this one (a retried request) is discarded.
      return { ...endStream(state), messageId: event.messageId, streamingIds: [], retry: undefined };
    case 'request-sent':
      return state.retry ? { ...state, retry: undefined } : state;
    case 'retry-wait':
      return {
        ...state,
        retry: {
          until: (event.at ?? Date.now()) + event.delayMs,
          attempt: event.attempt,
          maxRetries: event.maxRetries,
          error: event.error,
        },
      };
    case 'message-end': {
      const ids = new Set(state.streamingIds ?? []);
      const items = state.items.map((item): TranscriptItem => {
        if (!ids.has(item.id)) return item;
        if (item.kind === 'assistant-text' && item.streaming)
          return { kind: item.kind, id: item.id, text: item.text };
        if (item.kind === 'thinking' && item.streaming) return { ...item, streaming: false };
        return item;
      });
      return { ...state, items, streamingIds: undefined };
    }
    case 'text-delta': {
      const id = `text:${state.messageId ?? 'msg'}:${event.index}`;
      const at = indexOfItem(state.items, id);
      if (at < 0) {
        return {
          ...state,
          streamingIds: [...(state.streamingIds ?? []), id],
          items: [...state.items, { kind: 'assistant-text', id, text: event.text, streaming: true }],
        };
      }
      const item = state.items[at];
      if (item.kind !== 'assistant-text') return state;
      return replaceAt(state, at, { ...item, text: item.text + event.text });
    }
    case 'tool-use-start': {
      const next = upsertCard(state, event.toolUseId, event.name, (card) => card);
      return { ...next, streamingIds: [...(state.streamingIds ?? []), cardId(event.toolUseId)] };
    }
    case 'tool-input-delta':
      return updateCard(state, event.toolUseId, (card) => ({
        ...card,
        inputJson: card.inputJson + event.partialJson,
      }));
    case 'tool-run-start':
      return upsertCard(state, event.toolUseId, event.name, (card) => ({
        ...card,
        status: 'running',
        input: event.input,
        view: event.view,
        permission: undefined,
        startedAt: card.startedAt ?? event.at,
      }));
    case 'tool-progress':
      return updateCard(state, event.toolUseId, (card) =>
        event.kind === 'output'
          ? { ...card, progress: card.progress + event.text }
          : { ...card, statusText: event.text },
      );
    case 'tool-result':
      return upsertCard(state, event.toolUseId, event.name, (card) => ({
        ...card,
        ...(card.view === undefined && event.callView ? { view: event.callView } : {}),
        status: event.status,
        permission: undefined,
        ...(event.at !== undefined && card.startedAt !== undefined ? { endedAt: event.at } : {}),
        result: {
          isError: event.isError,
          view: event.view,
          content: blockText(event.block),
          durationMs: event.durationMs,
        },
      }));
    case 'tool-view':
      return updateCard(state, event.toolUseId, (card) =>
        card.result ? { ...card, result: { ...card.result, view: event.view } } : card,
      );
    case 'permission-request':
      return upsertCard(state, event.toolUseId, event.name, (card) => ({
        ...card,
        input: event.input,
        view: card.view ?? event.view,
        permission: {
          message: event.message,
          suggestedRule: event.suggestedRule,
          respond: event.respond,
          ...(event.destructive ? { destructive: true } : {}),
          ...(event.agentLabel ? { agentLabel: event.agentLabel } : {}),
        },
      }));
    case 'subagent-event':
      return updateCard(state, event.toolUseId, (card) => ({
        ...card,
        subagent: reduceSubagent(card.subagent, event.agentId, { ...event.event, at: event.at }),
      }));
    case 'turn-end': {
      const ended = endStream(state);
      const notice = NOTICE_OF_REASON[event.reason];
      return notice ? pushNotice(ended, notice) : ended;
    }
    case 'error': {
      const ended = { ...endStream(state), retry: undefined };
      // An abort is the user's own Esc: the "Interrupted" marker says enough.
      if (event.error.kind === 'aborted') return ended;
      return push(ended, (id) => ({ kind: 'error', id, error: event.error }));
    }
    case 'prompt-returned': {
      let at = state.items.length - 1;
      while (at >= 0 && state.items[at].kind !== 'user') at--;
      const item = state.items[at];
      return item?.kind === 'user' ? replaceAt(state, at, { ...item, returned: true }) : state;
    }
    case 'local-notice':
      return pushNotice(state, event.notice);
    case 'local-clear':
      return { ...initialTranscript, seq: state.seq };
    case 'local-restore':
      return restore(event.items, event.interrupted);
    default:
      return state;
  }
}

/** A sub-agent's view after one of its events (its usage counted from its replies). */
function reduceSubagent(
  view: SubagentView | undefined,
  agentId: string,
  event: TranscriptAction,
): SubagentView {
  const base: SubagentView = view ?? {
    agentId,
    transcript: { ...initialTranscript, running: true },
    usage: { requests: 0, inputTokens: 0, outputTokens: 0 },
  };
  let usage = base.usage;
  if (event.type === 'message-end') {
    const u = event.usage;
    usage = {
      requests: usage.requests + 1,
      inputTokens:
        usage.inputTokens +
        (u.input_tokens ?? 0) +
        (u.cache_read_input_tokens ?? 0) +
        (u.cache_creation_input_tokens ?? 0),
      outputTokens: usage.outputTokens + (u.output_tokens ?? 0),
    };
  }
  let transcript = reduceTranscript(base.transcript, event);
  if (event.type === 'turn-end') transcript = { ...settleAll(transcript), running: false };
  return { ...base, transcript, usage };
}

/**
 * The state of a restored session. A cut-off turn leaves no card pending or running: they become
 * interrupted, and the transcript ends with the "Interrupted" marker.
 */
function restore(items: TranscriptItem[], interrupted: boolean): TranscriptState {
  let changed = false;
  const fixed = items.map((item): TranscriptItem => {
    if (item.kind === 'assistant-text' && item.streaming) {
      changed = true;
      return discard(item);
    }
    const settled = settleRestoredItem(item);
    if (settled !== item) {
      changed = true;
      return settled;
    }
    if (item.kind !== 'tool' || (item.card.status !== 'running' && item.card.status !== 'pending'))
      return item;
    changed = true;
    return { ...item, card: settleCard(item.card) };
  });
  // New items must not reuse the ids of restored ones.
  const seq = items.reduce((max, item) => Math.max(max, Number(/^item:(\d+)$/.exec(item.id)?.[1] ?? 0)), 0);
  const state: TranscriptState = { items: fixed, running: false, seq };
  return interrupted || changed ? pushNotice(state, 'interrupted') : state;
}

/** What a card that never got a result says about its end. */
export const NOTE_NEVER_RAN = 'It never ran: the turn ended before the call could start.';
export const NOTE_INPUT_CUT = 'It never ran: the reply was cut off while this call was being written.';

/** A text item whose message never ended, marked as not kept. */
function discard(item: Extract<TranscriptItem, { kind: 'assistant-text' }>): TranscriptItem {
  return { kind: item.kind, id: item.id, text: item.text, discarded: true };
}

/** A card that will get no result: interrupted, with why when it never ran. */
function settleCard(card: ToolCardState, note?: string): ToolCardState {
  const neverRan = card.status === 'pending';
  return {
    ...card,
    ...(card.subagent
      ? {
          subagent: {
            ...card.subagent,
            transcript: { ...settleAll(card.subagent.transcript), running: false },
          },
        }
      : {}),
    status: 'interrupted',
    permission: undefined,
    note: card.note ?? (neverRan ? (note ?? NOTE_NEVER_RAN) : undefined),
  };
}

/**
 * Ends the message streaming now, if it did not end (interrupt, stream cut, error, a retry): its text is
 * marked as not kept, its calls whose input was still streaming as never run.
 */
function endStream(state: TranscriptState): TranscriptState {
  const ids = state.streamingIds;
  if (!ids || ids.length === 0) return ids ? { ...state, streamingIds: undefined } : state;
  const open = new Set(ids);
  const items = state.items.map((item): TranscriptItem => {
    if (!open.has(item.id)) return item;
    if (item.kind === 'assistant-text') return item.streaming ? discard(item) : item;
    if (item.kind === 'thinking')
      return item.streaming ? { ...item, streaming: false, discarded: true } : item;
    if (item.kind === 'tool' && item.card.status === 'pending')
      return { ...item, card: settleCard(item.card, NOTE_INPUT_CUT) };
    return item;
  });
  return { ...state, items, streamingIds: undefined };
}

/** Every card still pending or running, settled (the turn is over). */
function settleAll(state: TranscriptState): TranscriptState {
  if (
    !state.items.some(
      (i) => i.kind === 'tool' && (i.card.status === 'pending' || i.card.status === 'running'),
    )
  )
    return state;
  const items = state.items.map(
    (item): TranscriptItem =>
      item.kind === 'tool' && (item.card.status === 'pending' || item.card.status === 'running')
        ? { ...item, card: settleCard(item.card) }
        : item,
  );
  return { ...state, items };
}

const NOTICE_OF_REASON: Partial<Record<string, Notice>> = {
  interrupted: 'interrupted',
  max_turns: 'max_turns',
  max_tokens: 'max_tokens',
  refusal: 'refusal',
};

function withoutKeyNotices(state: TranscriptState): TranscriptState {
  const keyNotice = (i: TranscriptItem) => i.kind === 'notice' && i.notice === 'missing-key';
  return state.items.some(keyNotice) ? { ...state, items: state.items.filter((i) => !keyNotice(i)) } : state;
}

function pushNotice(state: TranscriptState, notice: Notice): TranscriptState {
  const last = state.items[state.items.length - 1];
  if (last?.kind === 'notice' && last.notice === notice) return state;
  return push(state, (id) => ({ kind: 'notice', id, notice }));
}

function push(state: TranscriptState, make: (id: string) => TranscriptItem): TranscriptState {
  const seq = state.seq + 1;
  return { ...state, seq, items: [...state.items, make(`item:${seq}`)] };
}

function replaceAt(state: TranscriptState, at: number, item: TranscriptItem): TranscriptState {
  const items = state.items.slice();
  items[at] = item;
  return { ...state, items };
}

/**
 * The index of the item with `id`, or -1. Searched from the end: the card a streamed event updates is
 * nearly always among the last items, and every delta of a long tool input looks it up.
 */
function indexOfItem(items: readonly TranscriptItem[], id: string): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].id === id) return i;
  return -1;
}

function cardId(toolUseId: string): string {
  return `tool:${toolUseId}`;
}

function updateCard(
  state: TranscriptState,
  toolUseId: string,
  update: (card: ToolCardState) => ToolCardState,
): TranscriptState {
  const at = indexOfItem(state.items, cardId(toolUseId));
  const item = state.items[at];
  if (item?.kind !== 'tool') return state;
  return replaceAt(state, at, { ...item, card: update(item.card) });
}

/** Updates the card of a tool call, creating it first when an event arrives for a call not seen yet. */
function upsertCard(
  state: TranscriptState,
  toolUseId: string,
  name: string,
  update: (card: ToolCardState) => ToolCardState,
): TranscriptState {
  const id = cardId(toolUseId);
  if (indexOfItem(state.items, id) >= 0) return updateCard(state, toolUseId, update);
  const card: ToolCardState = { toolUseId, name, status: 'pending', inputJson: '', progress: '' };
  return { ...state, items: [...state.items, { kind: 'tool', id, card: update(card) }] };
}

/** The text of a tool_result block (what the model saw), images shown as a placeholder. */
export function blockText(block: ToolResultBlockParam): string {
  const content = block.content;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'image') return '[image]';
      return `[${part.type}]`;
    })
    .join('\n');
}
