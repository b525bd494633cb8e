/**
 * The export/import format of a session: a JSON file with the record's own fields (never the API key),
 * validated strictly on import so a malformed file is refused with a reason and never touches stored
 * sessions. Whatever `toExport` writes, `parseSessionExport` takes back (every block kind, tool_reference
 * results of ToolSearch included).
 */
import { z } from 'zod';
import { messageOf } from '../core/errors.ts';
import { type MessageParam, transcriptProblem } from '../core/messages.ts';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/types.ts';
import { newSessionId, type SessionRecord, UNTITLED_SESSION } from './sessions-store.ts';

/** The `format` field of an exported session file. */
export const SESSION_EXPORT_FORMAT = 'tabcode-session';
export const SESSION_EXPORT_VERSION = 1;
/** Largest session file `parseSessionExport` accepts (characters). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;

/** The JSON text of an exported session. The API key is never part of a record, so never of an export. */
export function toExport(record: SessionRecord): string {
  const { id, title, createdAt, updatedAt, messages, view, usage, settings } = record;
  const session = { id, title, createdAt, updatedAt, messages, view, usage, settings };
  return JSON.stringify({ format: SESSION_EXPORT_FORMAT, version: SESSION_EXPORT_VERSION, session }, null, 2);
}

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
    // Checked by transcriptProblem (core), which knows every block kind.
    messages: z.array(z.unknown()),
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
      reason: `The file is not valid JSON (${messageOf(err)}).`,
    };
  }
  const parsed = exportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, reason: `This is not a tabcode session file: ${issue.message}${where}.` };
  }
  const s = parsed.data.session;
  const problem = transcriptProblem(s.messages);
  if (problem)
    return {
      ok: false,
      reason: `The transcript is not valid: ${problem.replace(/ at messages\./, ' at session.messages.')}.`,
    };
  const messages = s.messages as MessageParam[];
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
