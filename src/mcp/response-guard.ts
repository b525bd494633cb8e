/**
 * Malformed JSON-RPC answers, turned into errors for the request they answer, so the call fails at
 * once instead of waiting for its timeout. The SDK drops a message it cannot parse (a response with
 * neither `result` nor `error`, a `result` that is not an object, an `error` without a numeric code
 * and a message) and reports it to `onerror`, which cannot tell which request it was for: the call
 * then hangs until MCP_TOOL_TIMEOUT_MS. Here such an answer, when it carries an id, becomes a JSON-RPC
 * error response for that id (code MALFORMED_RESPONSE_CODE, the problem in its message), before the
 * SDK sees it:
 *
 * - HTTP transports (Streamable HTTP, legacy SSE): `guardFetch` rewrites JSON bodies and event streams,
 *   and reports what it cannot tie to a request (no id, not JSON-RPC, not JSON) for malformed.ts;
 * - in-page transports: `guardTransport` rewrites each message handed to the client.
 *
 * Requests, notifications and well-formed answers pass through unchanged. Never throws.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The JSON-RPC error code of a rewritten malformed answer ("internal error", client side). */
export const MALFORMED_RESPONSE_CODE = -32603;
/** Marks a rewritten answer in `error.data`, so callers can word the error as the server's fault. */
export const MALFORMED_MARK = 'tabcode/malformed-response';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Why `msg` is not a well-formed JSON-RPC response, or null (also null for requests and notifications). */
export function responseProblem(msg: unknown): string | null {
  if (!isObject(msg) || 'method' in msg) return null;
  const hasResult = 'result' in msg;
  const hasError = 'error' in msg;
  if (msg.jsonrpc !== '2.0') return `its "jsonrpc" is ${JSON.stringify(msg.jsonrpc) ?? 'missing'}, not "2.0"`;
  if (hasResult && hasError) return 'it has both a result and an error';
  if (hasError) {
    const e = msg.error;
    if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') {
      return 'its error is not an object with a numeric code and a message';
    }
    return null;
  }
  if (!hasResult) return 'it has neither a result nor an error';
  if (!isObject(msg.result)) return `its result is ${kindOf(msg.result)}, not an object`;
  return null;
}

/** `msg` as the client should see it: a malformed answer with an id becomes an error response for that id. */
export function guardMessage(msg: unknown): unknown {
  const problem = responseProblem(msg);
  if (!problem) return msg;
  const id = (msg as Json).id;
  // Without an id there is no request to fail: left to the SDK, which reports it.
  if (typeof id !== 'string' && typeof id !== 'number') return msg;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: MALFORMED_RESPONSE_CODE,
      message: `The server sent a malformed JSON-RPC answer: ${problem}.`,
      data: { [MALFORMED_MARK]: true },
    },
  };
}

/** Longest excerpt of a malformed message quoted in a report. */
const MAX_EXCERPT_CHARS = 200;
const excerpt = (s: string): string =>
  s.length > MAX_EXCERPT_CHARS ? `${s.slice(0, MAX_EXCERPT_CHARS)}…` : s;

/** Hears of a malformed message no request can be named for (see malformed.ts). */
export type MalformedReport = (detail: string) => void;

/**
 * Why `msg` is malformed in a way that cannot be tied to a request (no usable id, or not a JSON-RPC
 * message at all), or null. A malformed answer with an id is guardMessage's; a well-formed answer
 * whose id matches nothing is left to the SDK, which knows the ids in flight.
 */
export function unattributedProblem(msg: unknown): string | null {
  const quoted = () => excerpt(JSON.stringify(msg) ?? String(msg));
  if (!isObject(msg)) return `it is not a JSON-RPC 2.0 message: ${quoted()}`;
  if ('method' in msg) {
    return msg.jsonrpc === '2.0' && typeof msg.method === 'string'
      ? null
      : `it is not a JSON-RPC 2.0 message: ${quoted()}`;
  }
  const id = msg.id;
  if (typeof id === 'string' || typeof id === 'number') return null;
  const problem = responseProblem(msg);
  // A well-formed error without an id (a parse error, say) reaches the SDK, which reports it with its words.
  if (!problem && 'error' in msg) return null;
  return `it is not a JSON-RPC 2.0 message (${problem ?? 'an answer'} without a request id): ${quoted()}`;
}

/** The JSON text `text` with malformed answers rewritten, or `text` itself when nothing changed. */
function guardJsonText(text: string, report?: MalformedReport): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    report?.(`it is not JSON (${excerpt(err instanceof Error ? err.message : String(err))})`);
    return text;
  }
  if (report) {
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      const problem = unattributedProblem(m);
      if (problem) report(problem);
    }
  }
  const guarded = Array.isArray(parsed) ? parsed.map(guardMessage) : guardMessage(parsed);
  const changed = Array.isArray(parsed)
    ? (guarded as unknown[]).some((m, i) => m !== parsed[i])
    : guarded !== parsed;
  return changed ? JSON.stringify(guarded) : text;
}

/** One server-sent event (its lines) with a malformed answer in its data rewritten. */
function guardEvent(event: string, report?: MalformedReport): string {
  const lines = event.split(/\r?\n/);
  const type = lines
    .find((l) => l.startsWith('event:'))
    ?.slice(6)
    .trim();
  if (type && type !== 'message') return event;
  const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
  if (data.length === 0) return event;
  const joined = data.join('\n');
  // An event with empty data (a priming event before a resumable stream) carries no message.
  if (joined === '') return event;
  const guarded = guardJsonText(joined, report);
  if (guarded === joined) return event;
  return [...lines.filter((l) => !l.startsWith('data:')), `data: ${guarded}`].join('\n');
}

/** An event stream with malformed answers rewritten, event by event. */
function guardEventStream(
  body: ReadableStream<Uint8Array>,
  report?: MalformedReport,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  // Where the search for the end of the current event resumes (a huge event arrives in many chunks).
  let scanned = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        // Events end with a blank line; a partial one waits for the rest.
        const re = /\r?\n\r?\n/g;
        re.lastIndex = Math.max(0, scanned - 3);
        let start = 0;
        for (let m = re.exec(buffer); m; m = re.exec(buffer)) {
          controller.enqueue(encoder.encode(guardEvent(buffer.slice(start, m.index), report) + m[0]));
          start = m.index + m[0].length;
        }
        buffer = buffer.slice(start);
        scanned = buffer.length;
      },
      flush(controller) {
        buffer += decoder.decode();
        if (buffer) controller.enqueue(encoder.encode(guardEvent(buffer, report)));
      },
    }),
  );
}

/** True when `body` (a POST body) holds a JSON-RPC request, which the answer must carry. */
function carriesRequest(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed]).some(
      (m) => isObject(m) && m.jsonrpc === '2.0' && typeof m.method === 'string' && 'id' in m,
    );
  } catch {
    return false;
  }
}

/** True when the request opens an event stream (the GET stream of Streamable HTTP, legacy SSE). */
function opensStream(init: RequestInit | undefined): boolean {
  const accept = new Headers(init?.headers).get('accept') ?? '';
  return (init?.method ?? 'GET').toUpperCase() === 'GET' && accept.includes('text/event-stream');
}

/**
 * `inner` with malformed JSON-RPC answers in its responses (JSON or event stream) rewritten. Messages
 * that cannot be tied to a request go to `report`, but only in answers to JSON-RPC requests and in
 * event streams, never in other traffic on the same fetch (OAuth metadata, token requests).
 */
export function guardFetch(inner: typeof fetch, report?: MalformedReport): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await inner(input, init);
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    if (!res.ok || !res.body) return res;
    const watched = report && (carriesRequest(init?.body) || opensStream(init)) ? report : undefined;
    const headers = new Headers(res.headers);
    // A rewritten body has another length.
    headers.delete('content-length');
    const init2 = { status: res.status, statusText: res.statusText, headers };
    if (type.includes('text/event-stream')) return new Response(guardEventStream(res.body, watched), init2);
    if (type.includes('application/json')) {
      return new Response(guardJsonText(await res.text(), watched), init2);
    }
    return res;
  }) as typeof fetch;
}

/** `transport` handing its client each message through guardMessage (for in-page transports). */
export function guardTransport(transport: Transport): Transport {
  let handler: Transport['onmessage'];
  const target = transport as { onmessage?: Transport['onmessage'] };
  const wrapped: Transport['onmessage'] = (message, extra) =>
    handler?.(guardMessage(message) as typeof message, extra);
  return new Proxy(transport, {
    set(t, key, value) {
      if (key === 'onmessage') {
        handler = value as Transport['onmessage'];
        target.onmessage = value ? wrapped : undefined;
        return true;
      }
      return Reflect.set(t, key, value);
    },
    get(t, key) {
      if (key === 'onmessage') return handler;
      const v = Reflect.get(t, key);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}
