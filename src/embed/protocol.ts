/**
 * The iframe protocol between a host page and embed.html, and the events a host sees (over postMessage
 * or through `mount()`'s `subscribe`). Events carry only plain, structured-cloneable fields: no
 * callbacks, no settings, never a key.
 *
 * Host → tabcode: `tabcode:config` (once; mounts), `tabcode:send`, `tabcode:interrupt`.
 * tabcode → host: `tabcode:loaded` (listening: post the config now), `tabcode:warning` (a refused config
 * field), `tabcode:ready` (mounted), `tabcode:event` (a session event), `tabcode:error` (mount failed).
 */
import type { SessionEvent } from '../agent/types.ts';
import type { SandboxKind } from '../sandbox/sandbox.ts';
import type { EmbedWarning } from './config.ts';

export type HostMessage =
  | { type: 'tabcode:config'; config: unknown }
  | { type: 'tabcode:send'; prompt: string }
  | { type: 'tabcode:interrupt' };

export type EmbedMessage =
  | { type: 'tabcode:loaded' }
  | { type: 'tabcode:warning'; warning: EmbedWarning }
  | { type: 'tabcode:ready'; sandbox: SandboxKind }
  | { type: 'tabcode:event'; event: EmbedEvent }
  | { type: 'tabcode:error'; message: string };

/** A session event as a host sees it (noun-verb type, safe fields only). */
export type EmbedEvent =
  | { type: 'run-start'; prompt: string }
  | { type: 'run-end' }
  | { type: 'request-start'; turn: number }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-use-start'; toolUseId: string; name: string }
  | { type: 'tool-run-start'; toolUseId: string; name: string; input: unknown }
  | {
      type: 'tool-result';
      toolUseId: string;
      name: string;
      isError: boolean;
      status: 'done' | 'error' | 'interrupted';
      durationMs: number;
    }
  | { type: 'permission-request'; toolUseId: string; name: string; message: string }
  | { type: 'message-end'; stopReason: string | null; outputTokens: number }
  | { type: 'turn-end'; reason: string }
  | { type: 'error'; error: { kind: string; message: string; status?: number } };

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
  const m = data as { type?: unknown; prompt?: unknown };
  if (m.type === 'tabcode:config' || m.type === 'tabcode:interrupt') return true;
  return m.type === 'tabcode:send' && typeof m.prompt === 'string';
}
