/**
 * Session persistence in IndexedDB (idb-keyval): one record per session (transcript as sent to the API,
 * the page's view of it, per-request usage, non-secret settings), plus a small meta
 * entry per session so the list loads without reading every transcript. Also the export/import format,
 * validated strictly so a malformed file is refused with a reason and never touches stored sessions.
 *
 * Secrets: a record never holds the API key. `toExport` copies only the record's own fields.
 */
import { createStore, del, delMany, get, getMany, keys, set, setMany, type UseStore } from 'idb-keyval';
import { z } from 'zod';
import { INTERRUPT_MESSAGE } from '../core/constants.ts';
import { ensureToolResultPairing, type MessageParam, withUserText } from '../core/messages.ts';
import type { PermissionMode } from '../core/permissions/types.ts';
import { PERMISSION_MODES } from '../core/permissions/types.ts';
import type { RequestSizes } from './types.ts';

/** The `format` field of an exported session file. */
export const SESSION_EXPORT_FORMAT = 'tabcode-session';
export const SESSION_EXPORT_VERSION = 1;
/** Largest session file `parseSessionExport` accepts (characters). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;
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
  /** The page's view of the transcript (cards, notices); opaque to this layer. */
  view: unknown;
  usage: RequestUsage[];
  settings?: SessionSettings;
  /** True while a turn runs: a record loaded with it set was cut off by a reload or a crash. */
  turnOpen: boolean;
}

export interface SessionsStore {
  /** Every session, most recently updated first. */
  list(): Promise<SessionMeta[]>;
  load(id: string): Promise<SessionRecord | undefined>;
  /** Writes the record and its meta entry in one transaction. */
  save(record: SessionRecord): Promise<void>;
  remove(id: string): Promise<void>;
}

const META = 'meta:';
const DATA = 'data:';

/** A store over IndexedDB database `dbName` (one object store). */
export function createSessionsStore(dbName = 'tabcode-sessions'): SessionsStore {
  const db: UseStore = createStore(dbName, 'records');
  return {
    async list() {
      const metaKeys = (await keys(db)).filter(
        (k): k is string => typeof k === 'string' && k.startsWith(META),
      );
      const metas = (await getMany<SessionMeta | undefined>(metaKeys, db)).filter(
        (m): m is SessionMeta => !!m,
      );
      return metas.sort((a, b) => b.updatedAt - a.updatedAt);
    },
    load: (id) => get<SessionRecord>(DATA + id, db),
    save: (record) =>
      setMany(
        [
          [META + record.id, metaOf(record)],
          [DATA + record.id, record],
        ],
        db,
      ),
    remove: (id) => delMany([META + id, DATA + id], db),
  };
}

/** The meta entry of a record. */
export function metaOf(record: SessionRecord): SessionMeta {
  return {
    id: record.id,
    title: record.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    messageCount: record.messages.length,
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
 * tool_use gets a result (ensureToolResultPairing) and the turn ends with Claude Code's interrupt marker.
 */
export function repairInterruptedTranscript(messages: readonly MessageParam[]): MessageParam[] {
  const repaired = ensureToolResultPairing(messages);
  return repaired.length === 0 ? repaired : withUserText(repaired, INTERRUPT_MESSAGE);
}

/** The JSON text of an exported session. The API key is never part of a record, so never of an export. */
export function toExport(record: SessionRecord): string {
  const { id, title, createdAt, updatedAt, messages, view, usage, settings } = record;
  const session = { id, title, createdAt, updatedAt, messages, view, usage, settings };
  return JSON.stringify({ format: SESSION_EXPORT_FORMAT, version: SESSION_EXPORT_VERSION, session }, null, 2);
}

// ---- import validation -------------------------------------------------------------------------

const textBlock = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
const imageBlock = z
  .object({ type: z.literal('image'), source: z.record(z.string(), z.unknown()) })
  .passthrough();
const toolUseBlock = z
  .object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.unknown() })
  .passthrough();
const toolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]).optional(),
    is_error: z.boolean().optional(),
  })
  .passthrough();
const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
const block = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
  redactedThinkingBlock,
]);
const message = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(block)]),
});
const count = z.number().int().nonnegative();
const usageEntry = z.object({
  at: z.number(),
  model: z.string(),
  inputTokens: count,
  outputTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
  sizes: z.object({ toolsChars: count, systemChars: count, messagesChars: count }).optional(),
});
const exportSchema = z.object({
  format: z.literal(SESSION_EXPORT_FORMAT, { error: `format must be "${SESSION_EXPORT_FORMAT}"` }),
  version: z.literal(SESSION_EXPORT_VERSION, { error: `version must be ${SESSION_EXPORT_VERSION}` }),
  session: z.object({
    id: z.string().optional(),
    title: z.string().max(500),
    createdAt: z.number(),
    updatedAt: z.number(),
    messages: z.array(message),
    view: z.unknown().optional(),
    usage: z.array(usageEntry).default([]),
    settings: z
      .object({
        model: z.string().min(1),
        maxTokens: z.number().int().positive(),
        permissionMode: z.enum(PERMISSION_MODES as [PermissionMode, ...PermissionMode[]]),
      })
      .optional(),
  }),
});

export type ImportResult = { ok: true; record: SessionRecord } | { ok: false; reason: string };

/**
 * Parses and validates an exported session. On success the record has a fresh id (an import never
 * overwrites a stored session) and `turnOpen` false; `view` is passed to `checkView`, which returns the
 * view to keep (or null to rebuild it from the messages). Never throws.
 */
export function parseSessionExport(
  text: string,
  checkView: (view: unknown) => unknown = () => null,
  now = Date.now(),
): ImportResult {
  if (text.length > MAX_IMPORT_CHARS) {
    return {
      ok: false,
      reason: `The file is too large (${text.length} characters; the limit is ${MAX_IMPORT_CHARS}).`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      reason: `The file is not valid JSON (${err instanceof Error ? err.message : String(err)}).`,
    };
  }
  const parsed = exportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, reason: `This is not a tabcode session file: ${issue.message}${where}.` };
  }
  const s = parsed.data.session;
  const messages = s.messages as MessageParam[];
  const pairing = checkPairing(messages);
  if (pairing) return { ok: false, reason: `The transcript is not valid: ${pairing}.` };
  let view: unknown = null;
  try {
    view = s.view === undefined ? null : checkView(s.view);
  } catch {
    view = null;
  }
  return {
    ok: true,
    record: {
      id: newSessionId(),
      title: s.title.trim() || UNTITLED_SESSION,
      createdAt: s.createdAt,
      updatedAt: now,
      messageCount: messages.length,
      messages,
      view,
      usage: s.usage,
      settings: s.settings,
      turnOpen: false,
    },
  };
}

/** Why the transcript cannot be a conversation (a tool_result answering no tool_use), or null. */
function checkPairing(messages: readonly MessageParam[]): string | null {
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        if (m.role !== 'assistant') return `message ${i} is from the user but has a tool_use`;
        seen.add(b.id);
      } else if (b.type === 'tool_result') {
        if (m.role !== 'user') return `message ${i} is from the assistant but has a tool_result`;
        if (!seen.has(b.tool_use_id))
          return `message ${i} has a tool_result for an unknown tool_use ${b.tool_use_id}`;
      }
    }
  }
  return null;
}

// ---- small key/value settings store ------------------------------------------------------------

/** A key/value store for the page's settings, in its own database. */
export function createKeyValueStore(dbName = 'tabcode-settings') {
  const db = createStore(dbName, 'kv');
  return {
    get: <T>(key: string) => get<T>(key, db),
    set: (key: string, value: unknown) => set(key, value, db),
    del: (key: string) => del(key, db),
  };
}
export type KeyValueStore = ReturnType<typeof createKeyValueStore>;
