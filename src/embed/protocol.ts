/**
 * The iframe protocol between a host page and embed.html, and the events a host sees (over postMessage
 * or through `mount()`'s `subscribe`). Events carry only plain, structured-cloneable fields: no
 * callbacks, no settings, never a key.
 *
 * Host → tabcode: `tabcode:config` (once; mounts), `tabcode:send`, `tabcode:interrupt`, `tabcode:play`
 * (play the replay), `tabcode:reset`, `tabcode:step` (a lesson step), `tabcode:export-replay`.
 * tabcode → host: `tabcode:loaded` (listening: post the config now), `tabcode:warning` (a refused config
 * field), `tabcode:ready` (mounted), `tabcode:event` (a session event), `tabcode:error` (mount failed),
 * `tabcode:resize` (with `height: 'auto'`), `tabcode:replay` (the recorded session).
 */
import type { SessionEvent } from '../agent/types.ts';
import type { SandboxKind } from '../sandbox/sandbox.ts';
import type { EmbedEvent, EmbedSandboxKind, HostMessage } from './config.ts';

// The public name of the sandbox kinds is the sandbox's own list (a compile error here when they part).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const KINDS_MATCH: Same<EmbedSandboxKind, SandboxKind> = true;
void KINDS_MATCH;

export type { EmbedEvent, EmbedMessage, HostMessage } from './config.ts';

/** A JSON copy (what a tool input is anyway), so it always survives postMessage. */
function plain(value: unknown): unknown {
  try {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  } catch {
    return undefined;
  }
}

/** The host's view of a session event; undefined for internal ones (deltas of tool input, sizes…). */
export function toEmbedEvent(e: SessionEvent): EmbedEvent | undefined {
  switch (e.type) {
    case 'run-start':
      return { type: e.type, prompt: e.prompt };
    case 'run-end':
      return { type: e.type };
    case 'request-start':
      return { type: e.type, turn: e.turn };
    case 'text-delta':
      return { type: e.type, text: e.text };
    case 'tool-use-start':
      return { type: e.type, toolUseId: e.toolUseId, name: e.name };
    case 'tool-run-start':
      return { type: e.type, toolUseId: e.toolUseId, name: e.name, input: plain(e.input) };
    case 'tool-result':
      return {
        type: e.type,
        toolUseId: e.toolUseId,
        name: e.name,
        isError: e.isError,
        status: e.status,
        durationMs: e.durationMs,
      };
    case 'permission-request':
      return { type: e.type, toolUseId: e.toolUseId, name: e.name, message: e.message };
    case 'message-end':
      return { type: e.type, stopReason: e.stopReason, outputTokens: e.usage.output_tokens ?? 0 };
    case 'turn-end':
      return { type: e.type, reason: e.reason };
    case 'error': {
      const { kind, message, status } = e.error;
      return { type: e.type, error: { kind, message, ...(status !== undefined ? { status } : {}) } };
    }
    default:
      return undefined;
  }
}

/** The longest prompt a host may send (characters); a longer one is refused with a warning. */
export const MAX_HOST_PROMPT_CHARS = 100_000;
/** How much of an unknown message type a warning quotes (a hostile type may be megabytes long). */
const QUOTED_TYPE_CHARS = 60;
const HOST_TYPES: readonly HostMessage['type'][] = [
  'tabcode:config',
  'tabcode:send',
  'tabcode:interrupt',
  'tabcode:play',
  'tabcode:reset',
  'tabcode:step',
  'tabcode:export-replay',
];

/**
 * What to do with a message posted to the iframe: handle it (`message`), ignore it without a word
 * (`ignore`: not ours, e.g. another library's traffic on the same window) or refuse it with a warning for
 * the host (`warning`: a `tabcode:` message of an unknown type or with a bad field). Never throws, and
 * reads only own data fields (whatever the shape, a structured clone has no getters or prototypes).
 */
export type HostMessageCheck =
  | { message: HostMessage }
  | { ignore: true }
  | { warning: { field: string; message: string } };

/** Checks one posted message (see HostMessageCheck). */
export function checkHostMessage(data: unknown): HostMessageCheck {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ignore: true };
  const type = Object.hasOwn(data, 'type') ? (data as { type: unknown }).type : undefined;
  if (typeof type !== 'string' || !type.startsWith('tabcode:')) return { ignore: true };
  const m = data as { prompt?: unknown; step?: unknown; config?: unknown };
  switch (type) {
    case 'tabcode:config': {
      const c = m.config;
      if (typeof c !== 'object' || c === null || Array.isArray(c))
        return { warning: { field: 'config', message: 'tabcode:config needs a config object; ignored.' } };
      return { message: { type, config: c } };
    }
    case 'tabcode:send':
      if (typeof m.prompt !== 'string')
        return { warning: { field: 'prompt', message: 'tabcode:send needs a prompt string; ignored.' } };
      if (m.prompt.length > MAX_HOST_PROMPT_CHARS)
        return {
          warning: {
            field: 'prompt',
            message: `The prompt has ${m.prompt.length} characters; at most ${MAX_HOST_PROMPT_CHARS} are accepted. Ignored.`,
          },
        };
      return { message: { type, prompt: m.prompt } };
    case 'tabcode:step':
      if (typeof m.step !== 'number' || !Number.isInteger(m.step) || m.step < 0)
        return {
          warning: { field: 'step', message: 'tabcode:step needs a step number (0, 1, 2, ...); ignored.' },
        };
      return { message: { type, step: m.step } };
    case 'tabcode:interrupt':
    case 'tabcode:play':
    case 'tabcode:reset':
    case 'tabcode:export-replay':
      return { message: { type } };
    default: {
      const quoted = type.length > QUOTED_TYPE_CHARS ? `${type.slice(0, QUOTED_TYPE_CHARS)}…` : type;
      return {
        warning: {
          field: 'type',
          message: `Unknown message type "${quoted}"; a host may send ${HOST_TYPES.join(', ')}. Ignored.`,
        },
      };
    }
  }
}

/** Whether `data` is a message a host may send (anything else is ignored or refused). */
export function isHostMessage(data: unknown): data is HostMessage {
  return 'message' in checkHostMessage(data);
}

// ---- allowed parent origins ----

/** Any parent origin may talk to the iframe (the default of a build). */
export const ANY_ORIGIN = '*';
/** The origins whose pages may drive the iframe: any, or exactly these (serialized origins). */
export type OriginList = typeof ANY_ORIGIN | ReadonlySet<string>;

/** The serialized origin of `text` when it is exactly an origin (`https://docs.example.com`), else undefined. */
function asOrigin(text: string): string | undefined {
  const trimmed = text.trim().replace(/\/$/, '');
  try {
    const origin = new URL(trimmed).origin;
    return origin !== 'null' && origin === trimmed.toLowerCase() ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The build's list (TABCODE_EMBED_ALLOWED_ORIGINS: origins separated by commas or spaces; unset, empty or
 * `*`: any). Entries that are not origins are left out, so a list with none valid allows nobody: a typo
 * closes the embed rather than opening it. Never throws.
 */
export function parseOriginList(text: string | undefined): OriginList {
  const entries = (text ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0 || entries.includes(ANY_ORIGIN)) return ANY_ORIGIN;
  return new Set(entries.map(asOrigin).filter((o): o is string => o !== undefined));
}

/**
 * The list once the config's `allowedOrigins` is applied: it can only narrow the build's list (an origin
 * the build does not allow stays refused). Undefined keeps the build's list; anything but an array of
 * origins is an error (refusing is safer than ignoring a field meant to restrict). Never throws.
 */
export function narrowOrigins(
  build: OriginList,
  field: unknown,
): { allowed: OriginList } | { error: string } {
  if (field === undefined) return { allowed: build };
  const problem =
    'allowedOrigins must be a list of origins such as ["https://docs.example.com"]; the config was refused.';
  if (!Array.isArray(field) || field.length === 0) return { error: problem };
  const wanted = new Set<string>();
  for (const entry of field) {
    const origin = typeof entry === 'string' ? asOrigin(entry) : undefined;
    if (!origin) return { error: problem };
    wanted.add(origin);
  }
  if (build === ANY_ORIGIN) return { allowed: wanted };
  return { allowed: new Set([...wanted].filter((o) => build.has(o))) };
}

/** Whether a message from `origin` (MessageEvent.origin) may drive the iframe. */
export function originAllowed(list: OriginList, origin: string): boolean {
  return list === ANY_ORIGIN || list.has(origin);
}
