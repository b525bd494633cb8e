/**
 * Malformed messages that cannot be tied to a request: a message with no id, an answer whose id
 * matches no request, or text that is not JSON-RPC (or not JSON) at all. The SDK's transports drop
 * a message that fails JSONRPCMessageSchema and report it to `onerror` (a SyntaxError or a ZodError,
 * indistinguishable from the same errors in OAuth discovery, which goes to `onerror` too), and its
 * Protocol reports "Unknown message type" and "Received a response for an unknown message ID" the
 * same way; the request the server meant to answer then waits for its full timeout. Here such a
 * message fails every request in flight on that client at once (the server cannot be trusted to
 * answer them), and the connection stays open for later requests. It is heard of:
 *
 * - over HTTP, from response-guard.ts, which sees the raw text first (`reportMalformed`);
 * - otherwise from the Protocol's and MessagePortTransport's own reports to `onerror`.
 *
 * Answers that are malformed but carry an id are turned into an error for that id by
 * response-guard.ts; what reaches this file is what it could not attribute.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Most cancelled request ids remembered per client (late answers to them are not malformed). */
const MAX_ABANDONED_IDS = 1_000;
/** Longest excerpt of the server's message quoted in an error. */
const MAX_QUOTE_CHARS = 200;

/** A request failed because the server sent a message that could not be read or matched. */
export class McpMalformedMessageError extends Error {
  constructor(
    readonly server: string,
    readonly detail: string,
  ) {
    super(`The MCP server ${server} sent a malformed message: ${detail}.`);
    this.name = 'McpMalformedMessageError';
  }
}

const cut = (s: string): string => (s.length > MAX_QUOTE_CHARS ? `${s.slice(0, MAX_QUOTE_CHARS)}…` : s);

/**
 * Why `err` (as reported to Client.onerror) means the server sent a malformed message, or null when
 * it is something else (a dropped stream, a failed POST, OAuth trouble) or a late answer to a request
 * tabcode gave up on (`abandoned(id)` true: it timed out or was cancelled). Never throws.
 */
export function malformedDetail(err: unknown, abandoned: (id: number) => boolean): string | null {
  const msg = err instanceof Error ? err.message : '';
  const notJsonRpc = /^MessagePortTransport: not a JSON-RPC message: ([\s\S]*)$/.exec(msg);
  if (notJsonRpc) return `it is not a JSON-RPC 2.0 message: ${cut(notJsonRpc[1] ?? '')}`;
  const unknownType = /^Unknown message type: ([\s\S]*)$/.exec(msg);
  if (unknownType) {
    return `it is neither a request, a notification nor an answer: ${cut(unknownType[1] ?? '')}`;
  }
  const unknownId = /^Received a response for an unknown message ID: ([\s\S]*)$/.exec(msg);
  if (!unknownId) return null;
  const raw = unknownId[1] ?? '';
  let parsed: { id?: unknown; error?: { code?: unknown; message?: unknown } } = {};
  try {
    parsed = JSON.parse(raw) as typeof parsed;
  } catch {
    // The SDK quotes what it parsed, so this does not happen; the raw text is quoted below anyway.
  }
  const id = parsed.id;
  // The SDK matches ids as numbers ("3" answers request 3).
  if (id !== undefined && id !== null && abandoned(Number(id))) return null;
  if (id === undefined || id === null) {
    const e = parsed.error;
    return e
      ? `an error with no request id (${String(e.code)}: ${cut(String(e.message))})`
      : `an answer with no request id: ${cut(raw)}`;
  }
  return `an answer for request id ${cut(JSON.stringify(id))}, which matches no request tabcode sent`;
}

interface Watch {
  server: string;
  abandoned: Set<number>;
  running: Set<(err: Error) => void>;
}

const watches = new WeakMap<Client, Watch>();

function watchOf(client: Client): Watch {
  let w = watches.get(client);
  if (!w) {
    w = { server: '', abandoned: new Set(), running: new Set() };
    watches.set(client, w);
  }
  return w;
}

/**
 * Watches `client` (call before it connects) for malformed messages on `transport`: remembers the
 * requests it cancels (so a late answer to one is not taken for a malformed message), and on a
 * malformed message fails every request run through `guardRequest` with McpMalformedMessageError.
 * Keeps the client's own onerror (set it first). Never throws.
 */
export function watchMalformed(client: Client, transport: Transport, server: string): void {
  const w = watchOf(client);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: string; params?: { requestId?: unknown } };
    if (m.method === 'notifications/cancelled') {
      w.abandoned.add(Number(m.params?.requestId));
      if (w.abandoned.size > MAX_ABANDONED_IDS) {
        w.abandoned.delete(w.abandoned.values().next().value as number);
      }
    }
    return send(message, options);
  };
  const own = client.onerror;
  client.onerror = (err) => {
    own?.(err);
    const detail = malformedDetail(err, (id) => w.abandoned.has(id));
    if (detail) failRunning(w, server, detail);
  };
  w.server = server;
}

function failRunning(w: Watch, server: string, detail: string): void {
  const error = new McpMalformedMessageError(server, detail);
  for (const fail of [...w.running]) fail(error);
}

/** The server of `client` sent a malformed message (`detail`, see response-guard.ts). Never throws. */
export function reportMalformed(client: Client, detail: string): void {
  const w = watches.get(client);
  if (w) failRunning(w, w.server, detail);
}

/**
 * Runs `fn` (one request on `client`) so that a malformed message on the client fails it at once:
 * `fn` gets a signal that is aborted then (and when `signal` is), which cancels the SDK request.
 * Resolves or rejects as `fn` does otherwise.
 */
export async function guardRequest<T>(
  client: Client,
  fn: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const w = watchOf(client);
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let fail: (err: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = (err) => {
      reject(err);
      ac.abort(err);
    };
  });
  w.running.add(fail);
  try {
    return await Promise.race([fn(ac.signal), failed]);
  } finally {
    w.running.delete(fail);
    signal?.removeEventListener('abort', onAbort);
  }
}
