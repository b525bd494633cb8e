/**
 * The scripted demo's transport: a `fetch` that answers the Messages API in the page, from the script,
 * with the same SSE stream the real API sends. It is handed to the SDK client (createAgentSession's
 * `fetch`), so the real SDK, loop and tools run unchanged; no request leaves the page and no key is needed.
 *
 * Routes: POST …/v1/messages (SSE or JSON), POST …/v1/messages/count_tokens, GET …/v1/models. Each
 * messages request takes the next scripted turn; once none is left the answer is `endText`.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { EmbedDemo, EmbedDemoTurn } from './config.ts';
import { formatEvent, messageEvents } from './sse.ts';

/** Default delay between streamed events, ms: fast, yet the answer visibly streams. */
export const DEMO_CHUNK_DELAY_MS = 12;
/** The model id the demo reports (when the request names none). */
export const DEMO_MODEL = 'tabcode-demo';
export const DEMO_END_TEXT = 'That is the end of this demo.';

export interface DemoFetchState {
  /** Scripted turns not played yet. */
  pending(): number;
}

type Json = Record<string, unknown>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': `req_demo_${Date.now().toString(36)}` },
  });
}

const apiError = (status: number, type: string, message: string) =>
  json(status, { type: 'error', error: { type, message } });

/** ⌈chars / 4⌉, at least 1: the demo's token estimate. */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Creates the fetch; `state` (optional) is filled with a view of the script's progress. */
export function createDemoFetch(demo: EmbedDemo, state?: { current?: DemoFetchState }): typeof fetch {
  const turns = [...demo.turns];
  const delay = demo.chunkDelayMs ?? DEMO_CHUNK_DELAY_MS;
  let seq = 0;
  if (state) state.current = { pending: () => turns.length };

  const buildMessage = (turn: EmbedDemoTurn, model: string, bodyChars: number): Anthropic.Message => {
    const n = ++seq;
    const content = turn.content.map((b, i) =>
      b.type === 'text'
        ? { type: 'text', text: b.text, citations: null }
        : { type: 'tool_use', id: b.id ?? `toolu_demo_${n}_${i}_${rand()}`, name: b.name, input: b.input },
    );
    const outChars = turn.content.reduce(
      (sum, b) => sum + (b.type === 'text' ? b.text.length : b.name.length + JSON.stringify(b.input).length),
      0,
    );
    return {
      id: `msg_demo_${n}_${rand()}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: tokens(bodyChars),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: tokens(outChars),
      },
    } as unknown as Anthropic.Message;
  };

  const stream = (message: Anthropic.Message, signal?: AbortSignal | null): Response => {
    const events = messageEvents(message);
    const encoder = new TextEncoder();
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i >= events.length) return controller.close();
        try {
          if (i > 0 && delay > 0) await sleep(delay, signal);
          else if (signal?.aborted) throw abortError();
        } catch (err) {
          return controller.error(err);
        }
        controller.enqueue(encoder.encode(formatEvent(events[i++])));
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'request-id': `req_demo_${message.id}`,
      },
    });
  };

  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input), 'http://demo.invalid');
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const signal = init?.signal ?? request?.signal;
    const path = url.pathname.replace(/\/+$/, '');
    if (signal?.aborted) throw abortError();

    if (method === 'GET' && path.endsWith('/v1/models')) {
      const model = {
        type: 'model',
        id: DEMO_MODEL,
        display_name: 'Scripted demo',
        created_at: '2026-01-01T00:00:00Z',
      };
      return json(200, { data: [model], has_more: false, first_id: DEMO_MODEL, last_id: DEMO_MODEL });
    }
    if (method !== 'POST')
      return apiError(404, 'not_found_error', `The demo does not serve ${method} ${path}.`);
    const text = typeof init?.body === 'string' ? init.body : request ? await request.text() : '';
    let body: Json;
    try {
      body = JSON.parse(text) as Json;
    } catch {
      return apiError(400, 'invalid_request_error', 'The request body is not JSON.');
    }
    if (path.endsWith('/v1/messages/count_tokens')) return json(200, { input_tokens: tokens(text.length) });
    if (!path.endsWith('/v1/messages'))
      return apiError(404, 'not_found_error', `The demo does not serve ${path}.`);

    const turn = turns.shift() ?? { content: [{ type: 'text', text: demo.endText ?? DEMO_END_TEXT }] };
    const model = typeof body.model === 'string' && body.model ? body.model : DEMO_MODEL;
    const message = buildMessage(turn, model, text.length);
    return body.stream === true ? stream(message, signal) : json(200, message);
  };
}

function rand(): string {
  return Math.random().toString(36).slice(2, 10);
}
