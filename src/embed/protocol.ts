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

/** Whether `data` is a message a host may send (anything else is ignored). */
export function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as { type?: unknown; prompt?: unknown; step?: unknown };
  switch (m.type) {
    case 'tabcode:config':
    case 'tabcode:interrupt':
    case 'tabcode:play':
    case 'tabcode:reset':
    case 'tabcode:export-replay':
      return true;
    case 'tabcode:send':
      return typeof m.prompt === 'string';
    case 'tabcode:step':
      return typeof m.step === 'number';
    default:
      return false;
  }
}
