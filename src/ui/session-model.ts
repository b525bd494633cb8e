/**
 * One open session, outside React: it applies the agent's events to the page's state (transcript view
 * and usage), keeps the API transcript of the turn in progress, and saves everything to the sessions
 * store as it happens (at most one write per SAVE_DELAY_MS, and at once when a turn ends). React reads
 * it with useSyncExternalStore.
 */

import {
  metaOf,
  type SessionMeta,
  type SessionRecord,
  type SessionSettings,
  type SessionsStore,
  titleFromPrompt,
  UNTITLED_SESSION,
} from '../agent/sessions-store.ts';
import type { AgentSession, SessionEvent } from '../agent/types.ts';
import type { MessageParam } from '../core/messages.ts';
import { toStoredView } from './stored-view.ts';
import {
  initialTranscript,
  type LocalEvent,
  reduceTranscript,
  type TranscriptState,
} from './transcript-state.ts';
import { initialUsage, reduceUsage, type UsageState } from './usage-state.ts';

/** Longest wait between a change and its write to IndexedDB. */
export const SAVE_DELAY_MS = 250;

export type SaveStatus = 'saved' | 'pending' | 'error';

export interface SessionViewState {
  id: string;
  title: string;
  transcript: TranscriptState;
  usage: UsageState;
  save: SaveStatus;
  saveError?: string;
  /** The last request failed to reach the API (cleared when a response starts). */
  networkFailed: boolean;
}

export interface SessionModel {
  readonly id: string;
  getState(): SessionViewState;
  subscribe(listener: () => void): () => void;
  /** A page-made item (e.g. "add a key" notice). Not saved on its own. */
  local(event: LocalEvent): void;
  setSettings(settings: SessionSettings): void;
  rename(title: string): void;
  /** The record as it would be saved now. */
  record(): SessionRecord;
  /** Writes pending changes now. Never rejects. */
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
}

export function createSessionModel(options: SessionModelOptions): SessionModel {
  const { agent, store } = options;
  const now = options.now ?? Date.now;
  const rec: SessionRecord = { ...options.record, messages: [...options.record.messages] };
  let state: SessionViewState = {
    id: rec.id,
    title: rec.title,
    transcript: options.transcript ?? initialTranscript,
    usage: { ...initialUsage, requests: rec.usage },
    save: 'saved',
    networkFailed: false,
  };
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let dirty = false;
  let disposed = false;

  // Listeners hear of changes at most once per frame: a streamed reply is hundreds of events, and
  // React re-renders synchronously for every external-store notification.
  let notifyQueued = false;
  const notify = () => {
    notifyQueued = false;
    for (const l of listeners) l();
  };
  const publish = (next: Partial<SessionViewState>) => {
    state = { ...state, ...next };
    if (notifyQueued) return;
    notifyQueued = true;
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(notify);
    else setTimeout(notify, 16);
  };

  const snapshot = (): SessionRecord => ({
    ...rec,
    title: state.title,
    usage: state.usage.requests,
    view: toStoredView(state.transcript.items),
    messageCount: rec.messages.length,
  });

  const write = async () => {
    if (!dirty) return;
    dirty = false;
    const record = snapshot();
    try {
      await store.save(record);
      if (!dirty) publish({ save: 'saved', saveError: undefined });
      options.onSaved?.(metaOf(record));
    } catch (err) {
      publish({ save: 'error', saveError: err instanceof Error ? err.message : String(err) });
    }
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(write);
    return writing;
  };

  const schedule = () => {
    rec.updatedAt = now();
    dirty = true;
    if (state.save !== 'pending') publish({ save: 'pending' });
    if (!timer) timer = setTimeout(() => void flush(), SAVE_DELAY_MS);
  };

  const pushMessage = (message: MessageParam, replaceUser = false) => {
    const last = rec.messages[rec.messages.length - 1];
    if (replaceUser && last?.role === 'user') rec.messages[rec.messages.length - 1] = message;
    else rec.messages.push(message);
  };

  const onEvent = (event: SessionEvent) => {
    if (disposed) return;
    const stamped = { ...event, at: now() };
    const next: Partial<SessionViewState> = {
      transcript: reduceTranscript(state.transcript, stamped),
      usage: reduceUsage(state.usage, stamped),
    };
    if (event.type === 'error' && event.error.kind === 'network') next.networkFailed = true;
    if (event.type === 'message-start' && state.networkFailed) next.networkFailed = false;
    switch (event.type) {
      case 'run-start':
        rec.turnOpen = true;
        pushMessage({ role: 'user', content: [{ type: 'text', text: event.prompt }] });
        if (state.title === UNTITLED_SESSION) next.title = titleFromPrompt(event.prompt);
        break;
      case 'message-end':
        pushMessage(event.message);
        break;
      case 'user-message':
        pushMessage(event.message, true);
        break;
      case 'run-end':
        rec.turnOpen = false;
        rec.messages = [...agent.transcript()];
        break;
    }
    publish(next);
    if (event.type === 'text-delta' || event.type === 'tool-input-delta' || event.type === 'request-sent') {
      // Streaming chunks: saved with the next write, no sooner.
      if (dirty) return;
    }
    schedule();
    if (event.type === 'run-end') void flush();
  };

  const unsubscribe = agent.subscribe(onEvent);
  if (options.saveNow) {
    dirty = true;
    void flush();
  }

  return {
    id: rec.id,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    local(event) {
      publish({ transcript: reduceTranscript(state.transcript, event) });
    },
    setSettings(settings) {
      rec.settings = settings;
      schedule();
    },
    rename(title) {
      const t = title.trim() || UNTITLED_SESSION;
      if (t === state.title) return;
      publish({ title: t });
      schedule();
      void flush();
    },
    record: snapshot,
    flush,
    async dispose() {
      disposed = true;
      unsubscribe();
      listeners.clear();
      await flush();
    },
  };
}
