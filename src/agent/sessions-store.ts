/**
 * Session persistence in IndexedDB. A session is stored as many small entries, so that saving a change
 * writes only what changed (one message, one tool result, one card) and never the whole transcript:
 * - `meta:<id>`: what the sessions list shows (read without touching any transcript);
 * - `['head', id]`: the record's scalar fields (title, dates, settings, `turnOpen`, the view's version);
 * - `['msg', id, n]`, `['item', id, n]`, `['use', id, n]`: message n of the API transcript, item n of the
 *   page's view, request n of the usage, one entry each (array keys sort by n, so a range reads a list
 *   in order and a range delete cuts it at any length).
 * Every save is one transaction (head, meta and entries together), so a reload sees either all of a
 * change or none of it. Format 1 (one `data:<id>` record per session) is still read, and replaced by
 * the entries on the next save.
 *
 * Secrets: a record never holds the API key. The export/import format lives in session-export.ts.
 */
import { dequal } from 'dequal/lite';
import { del, get, promisifyRequest, set, type UseStore } from 'idb-keyval';
import { INTERRUPT_MESSAGE } from '../core/constants.ts';
import { ensureToolResultPairing, type MessageParam, withUserText } from '../core/messages.ts';
import type { PermissionMode } from '../core/permissions/types.ts';
import { openIdbStore } from '../core/storage.ts';
import { storageName } from '../core/storage-namespace.ts';
import type { RequestSizes } from './types.ts';

/** Title of a session before its first prompt names it. */
export const UNTITLED_SESSION = 'New session';

/** Token usage of one model request (from the API's `usage`), with the request's size by part. */
export interface RequestUsage {
  /** When the response ended (ms since the epoch). */
  at: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  sizes?: RequestSizes;
}

/** What the sessions list shows. */
export interface SessionMeta {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Messages in the API transcript. */
  messageCount: number;
}

/** Settings a session remembers. Never the API key or the base URL (which may embed credentials). */
export interface SessionSettings {
  model: string;
  maxTokens: number;
  permissionMode: PermissionMode;
}

export interface SessionRecord extends SessionMeta {
  /** The transcript as sent to the API. */
  messages: MessageParam[];
  /**
   * The page's view of the transcript (cards, notices); opaque to this layer, except that a view of the
   * shape `{ items: [...] }` is stored item by item.
   */
  view: unknown;
  usage: RequestUsage[];
  settings?: SessionSettings;
  /** True while a turn runs: a record loaded with it set was cut off by a reload or a crash. */
  turnOpen: boolean;
}

/**
 * The changed parts of a record: its scalar fields, the entries of each list that changed (by index),
 * and each list's new length (entries past it are deleted).
 */
export interface SessionPatch {
  record: Omit<SessionRecord, 'messages' | 'view' | 'usage'>;
  /** The view without its items (e.g. `{ version: 1 }`), or the whole view when it has no item list. */
  viewHead: unknown;
  /** True when the view is stored item by item (`viewHead` plus the `item` entries). */
  itemized: boolean;
  messages: ListPatch<MessageParam>;
  items: ListPatch<unknown>;
  usage: ListPatch<RequestUsage>;
}

export interface ListPatch<T> {
  length: number;
  put: Array<[index: number, value: T]>;
}

export interface SessionsStore {
  /** Every session, most recently updated first. */
  list(): Promise<SessionMeta[]>;
  load(id: string): Promise<SessionRecord | undefined>;
  /** Writes the whole record (and its meta entry) in one transaction. */
  save(record: SessionRecord): Promise<void>;
  /**
   * Writes only the changed parts of a record, in one transaction. Optional: a store without it is
   * given whole records (`save`).
   */
  write?(patch: SessionPatch): Promise<void>;
  remove(id: string): Promise<void>;
}

const META = 'meta:';
/** Format 1: one record per session. */
const LEGACY_DATA = 'data:';
const LISTS = ['msg', 'item', 'use'] as const;
type ListName = (typeof LISTS)[number];

interface StoredHead {
  format: 2;
  record: SessionPatch['record'];
  viewHead: unknown;
  itemized: boolean;
}

/**
 * Main-thread time (ms) one task spends issuing a write's requests. Each put copies its value (structured
 * clone) at once, so a turn's 40 new cards and their messages in one go held the page for 50 ms and
 * more; the rest is issued from the last request's success event, a later task of the same transaction.
 */
export const WRITE_SLICE_MS = 8;

/**
 * Issues `ops` on `tx` in slices of `sliceMs`, all in that one transaction (a reload sees all of
 * them or none), and resolves when it commits. A request that throws (a value that cannot be cloned, a
 * full disk) aborts the transaction, so nothing of it is written, and rejects with that error.
 */
function runInSlices(
  tx: IDBTransaction,
  ops: ReadonlyArray<() => IDBRequest>,
  sliceMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: unknown;
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(failure ?? tx.error);
    let next = 0;
    const slice = () => {
      const start = performance.now();
      try {
        let last: IDBRequest | undefined;
        while (next < ops.length) {
          last = ops[next++]();
          if (performance.now() - start >= sliceMs) break;
        }
        if (next < ops.length && last) last.onsuccess = slice;
      } catch (err) {
        failure = err;
        try {
          tx.abort();
        } catch {
          // Already aborted by the request's own failure: rejected by its abort event.
        }
      }
    };
    slice();
  });
}

/** Every entry of list `name` of session `id` from index `from` on. */
const listRange = (name: ListName, id: string, from = 0) =>
  IDBKeyRange.bound([name, id, from], [name, id, Number.POSITIVE_INFINITY]);
const headKey = (id: string) => ['head', id];

/** A store over IndexedDB database `dbName` (one object store; default `<namespace>-sessions`). */
export function createSessionsStore(
  dbName = storageName('sessions'),
  /** Main-thread time per slice of a write (WRITE_SLICE_MS; 0 issues one request per task). */
  sliceMs = WRITE_SLICE_MS,
): SessionsStore {
  const db: UseStore = openIdbStore(dbName, 'records');

  const writePatch = (patch: SessionPatch, full: boolean) =>
    db('readwrite', (s) => {
      const id = patch.record.id;
      const head: StoredHead = {
        format: 2,
        record: patch.record,
        viewHead: patch.viewHead,
        itemized: patch.itemized,
      };
      const ops: Array<() => IDBRequest> = [
        () => s.put(head, headKey(id)),
        () => s.put(metaOf({ ...patch.record, messageCount: patch.messages.length }), META + id),
      ];
      const lists: Array<[ListName, ListPatch<unknown>]> = [
        ['msg', patch.messages],
        ['item', patch.items],
        ['use', patch.usage],
      ];
      for (const [name, list] of lists) {
        ops.push(() => s.delete(listRange(name, id, full ? 0 : list.length)));
        for (const [i, value] of list.put) ops.push(() => s.put(value, [name, id, i]));
      }
      ops.push(() => s.delete(LEGACY_DATA + id));
      return runInSlices(s.transaction, ops, sliceMs);
    });

  return {
    async list() {
      const metas = await db('readonly', (s) =>
        promisifyRequest(s.getAll(IDBKeyRange.bound(META, `${META}\uffff`)) as IDBRequest<SessionMeta[]>),
      );
      return metas.filter((m) => !!m && typeof m.id === 'string').sort((a, b) => b.updatedAt - a.updatedAt);
    },
    async load(id) {
      const [head, messages, items, usage, legacy] = await db('readonly', (s) =>
        Promise.all([
          promisifyRequest(s.get(headKey(id)) as IDBRequest<StoredHead | undefined>),
          promisifyRequest(s.getAll(listRange('msg', id)) as IDBRequest<MessageParam[]>),
          promisifyRequest(s.getAll(listRange('item', id)) as IDBRequest<unknown[]>),
          promisifyRequest(s.getAll(listRange('use', id)) as IDBRequest<RequestUsage[]>),
          promisifyRequest(s.get(LEGACY_DATA + id) as IDBRequest<SessionRecord | undefined>),
        ]),
      );
      if (!head) {
        // Format 1: rewritten as entries now, so later saves (which write only changes) build on it.
        if (legacy) await writePatch(fullPatch(legacy), true).catch(() => {});
        return legacy;
      }
      const view =
        head.itemized && head.viewHead && typeof head.viewHead === 'object'
          ? { ...head.viewHead, items }
          : head.viewHead;
      return { ...head.record, messageCount: messages.length, messages, view, usage };
    },
    save: (record) => writePatch(fullPatch(record), true),
    write: (patch) => writePatch(patch, false),
    remove: (id) =>
      db('readwrite', (s) => {
        for (const name of LISTS) s.delete(listRange(name, id));
        s.delete(headKey(id));
        s.delete(META + id);
        s.delete(LEGACY_DATA + id);
        return promisifyRequest(s.transaction);
      }),
  };
}

/** The view's items when it is stored item by item (`{ items: [...] }`), else undefined. */
export function viewItems(view: unknown): readonly unknown[] | undefined {
  if (!view || typeof view !== 'object') return undefined;
  const items = (view as { items?: unknown }).items;
  return Array.isArray(items) ? items : undefined;
}

/** The view without its item list. */
function viewHeadOf(view: unknown): unknown {
  if (viewItems(view) === undefined) return view;
  const { items: _items, ...rest } = view as { items: unknown[] };
  return rest;
}

/** The scalar fields of a record (what a patch carries besides its lists). */
export function recordHead(record: SessionRecord): SessionPatch['record'] {
  const { messages: _m, view: _v, usage: _u, ...head } = record;
  return { ...head, messageCount: record.messages.length };
}

/** A patch that writes every entry of `record`. */
export function fullPatch(record: SessionRecord): SessionPatch {
  const items = viewItems(record.view);
  const all = <T>(list: readonly T[]): ListPatch<T> => ({
    length: list.length,
    put: list.map((v, i) => [i, v]),
  });
  return {
    record: recordHead(record),
    viewHead: viewHeadOf(record.view),
    itemized: items !== undefined,
    messages: all(record.messages),
    items: all(items ?? []),
    usage: all(record.usage),
  };
}

/**
 * What was last written for one session, to compute the next patch from: the lists' entries as they
 * were (compared by identity first, then by value).
 */
export interface SavedLists {
  messages: readonly MessageParam[];
  items: readonly unknown[];
  usage: readonly RequestUsage[];
}

/** The lists of a record (what `SavedLists` remembers after it is written). */
export function listsOf(record: SessionRecord): SavedLists {
  return { messages: record.messages, items: viewItems(record.view) ?? [], usage: record.usage };
}

/**
 * The patch that turns what was saved (`before`) into `record`. An entry is rewritten when it is
 * neither the same object nor equal as JSON; so after a full reload (every object new) only real
 * changes are written. Never throws for JSON-safe records.
 */
export function diffRecord(before: SavedLists, record: SessionRecord): SessionPatch {
  const now = listsOf(record);
  return {
    record: recordHead(record),
    viewHead: viewHeadOf(record.view),
    itemized: viewItems(record.view) !== undefined,
    messages: diffList(before.messages, now.messages, sameMessage),
    items: diffList(before.items, now.items, sameJson),
    usage: diffList(before.usage, now.usage, sameJson),
  };
}

function diffList<T>(before: readonly T[], now: readonly T[], same: (a: T, b: T) => boolean): ListPatch<T> {
  const put: Array<[number, T]> = [];
  for (let i = 0; i < now.length; i++) {
    if (i >= before.length || !same(before[i], now[i])) put.push([i, now[i]]);
  }
  return { length: now.length, put };
}

/**
 * Equal as data, stopping at the first difference; strings compare by content without being copied. (Once
 * JSON.stringify of both sides: 40 ms for a card that carries a 1 MB diff, in the task of every save.)
 */
const sameJson = (a: unknown, b: unknown): boolean => dequal(a, b);

/**
 * Messages compare block by block: the loop's repairs (ensureToolResultPairing) make new message
 * objects around the same block objects, so most comparisons stop at identity.
 */
function sameMessage(a: MessageParam, b: MessageParam): boolean {
  if (a === b) return true;
  if (a.role !== b.role) return false;
  if (typeof a.content === 'string' || typeof b.content === 'string') return sameJson(a.content, b.content);
  if (a.content.length !== b.content.length) return false;
  return a.content.every((block, i) => sameJson(block, (b.content as typeof a.content)[i]));
}

/** The meta entry of a record. */
export function metaOf(record: SessionMeta): SessionMeta {
  return {
    id: record.id,
    title: record.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    messageCount: record.messageCount,
  };
}

/** A new, empty session record. */
export function newSessionRecord(now = Date.now(), id = newSessionId()): SessionRecord {
  return {
    id,
    title: UNTITLED_SESSION,
    createdAt: now,
    updatedAt: now,
    messageCount: 0,
    messages: [],
    view: null,
    usage: [],
    turnOpen: false,
  };
}

export function newSessionId(): string {
  return `s_${crypto.randomUUID()}`;
}

/** A session title from its first prompt: one line, at most 60 characters. */
export function titleFromPrompt(prompt: string): string {
  const line = prompt.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || UNTITLED_SESSION;
}

/**
 * The transcript of a turn that was cut off (reload mid-turn), made valid for the next request: every
 * tool_use gets a result (ensureToolResultPairing keeps the results that were saved and gives a
 * synthetic error only to calls that never finished) and the turn ends with Claude Code's interrupt
 * marker.
 */
export function repairInterruptedTranscript(messages: readonly MessageParam[]): MessageParam[] {
  const repaired = ensureToolResultPairing(messages);
  return repaired.length === 0 ? repaired : withUserText(repaired, INTERRUPT_MESSAGE);
}

// ---- small key/value settings store ------------------------------------------------------------

/** A key/value store for the page's settings, in its own database (default `<namespace>-settings`). */
export function createKeyValueStore(dbName = storageName('settings')) {
  const db = openIdbStore(dbName, 'kv');
  return {
    get: <T>(key: string) => get<T>(key, db),
    set: (key: string, value: unknown) => set(key, value, db),
    del: (key: string) => del(key, db),
  };
}
export type KeyValueStore = ReturnType<typeof createKeyValueStore>;
