/**
 * Plays a replay: a `fetch` that answers the Messages API in the page, one recorded (or hand-written)
 * answer per model request, streamed as the API streams it and at the recorded pace (scaled by the
 * speed). It is handed to the SDK client (createAgentSession's `fetch`), so the real SDK, loop and tools
 * run: a recorded Bash call really runs in the sandbox. Each request after a tool call carries what the
 * tools really returned; it is compared with what was recorded, and every comparison is reported
 * (`onCheck`): a mismatch is shown, never hidden. No request leaves the page and no key is needed.
 *
 * Routes: POST …/v1/messages (SSE or JSON), POST …/v1/messages/count_tokens, GET …/v1/models.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type {
  EmbedDemoTurn,
  EmbedReplay,
  EmbedReplayEvent,
  EmbedReplayResult,
  ReplayCheck,
} from './config.ts';
import { messageFromEvents, type RequestToolResult, readRequest } from './replay-stream.ts';
import { formatEvent, messageEvents } from './sse.ts';

/** Default delay between streamed events of hand-written content, ms: fast, yet visibly streaming. */
export const DEMO_CHUNK_DELAY_MS = 12;
/** The model id a replay reports when neither the request nor the recording names one. */
export const DEMO_MODEL = 'tabcode-demo';
export const DEMO_END_TEXT = 'That is the end of this demo.';
/** Characters of a result shown on each side of a mismatch. */
const MISMATCH_EXCERPT_CHARS = 200;

export type { ReplayCheck } from './config.ts';

export interface ReplayPlayer {
  fetch: typeof fetch;
  readonly replay: EmbedReplay;
  /** Answers not served yet. */
  pending(): number;
  /** The turn of the next answer (turns.length once everything was served). */
  nextTurn(): number;
  /** Every comparison so far. */
  checks(): readonly ReplayCheck[];
  /** Called for each comparison. Returns the unsubscribe function. */
  onCheck(listener: (check: ReplayCheck) => void): () => void;
  /** Changes the pace (1 recorded, 2 twice as fast, 0 no waiting). */
  setSpeed(speed: number): void;
}

interface Queued {
  turn: number;
  events?: EmbedReplayEvent[];
  content?: EmbedDemoTurn['content'];
  chunkDelayMs?: number;
  results: Map<string, EmbedReplayResult>;
}

type Json = Record<string, unknown>;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': `req_replay_${Date.now().toString(36)}` },
  });
}

const apiError = (status: number, type: string, message: string) =>
  json(status, { type: 'error', error: { type, message } });

/** ⌈chars / 4⌉, at least 1: the replay's token estimate for hand-written answers. */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    if (ms <= 0) return resolve();
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

function rand(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** Where two texts first differ, and both sides around it. */
export function describeMismatch(
  expected: string,
  actual: string,
): { detail: string; expected: string; actual: string } {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const line = expected.slice(0, i).split('\n').length;
  const from = Math.max(0, i - 40);
  const cut = (s: string) => {
    const piece = s.slice(from, from + MISMATCH_EXCERPT_CHARS);
    return `${from > 0 ? '…' : ''}${piece}${from + MISMATCH_EXCERPT_CHARS < s.length ? '…' : ''}`;
  };
  return {
    detail: `differs from line ${line} on (recorded ${expected.length} characters, now ${actual.length})`,
    expected: cut(expected),
    actual: cut(actual),
  };
}

function compare(expected: EmbedReplayResult, actual: RequestToolResult, name: string): ReplayCheck {
  const base = { toolUseId: actual.toolUseId, name };
  if (expected.isError !== actual.isError) {
    return {
      ...base,
      ok: false,
      detail: expected.isError
        ? 'failed when recorded, succeeded now'
        : 'succeeded when recorded, failed now',
      expected: expected.content.slice(0, MISMATCH_EXCERPT_CHARS),
      actual: actual.content.slice(0, MISMATCH_EXCERPT_CHARS),
    };
  }
  const a = expected.content.trimEnd();
  const b = actual.content.trimEnd();
  return a === b ? { ...base, ok: true } : { ...base, ok: false, ...describeMismatch(a, b) };
}

/** The tool names of an answer, by tool_use id. */
function toolNames(q: Queued): Map<string, string> {
  const names = new Map<string, string>();
  for (const b of q.content ?? []) if (b.type === 'tool_use' && b.id) names.set(b.id, b.name);
  for (const e of q.events ?? []) {
    const block = e.data.content_block as Json | undefined;
    if (e.event === 'content_block_start' && block?.type === 'tool_use')
      names.set(String(block.id), String(block.name));
  }
  return names;
}

/** Creates the player. `speed`: 1 the recorded pace (default), 0 no waiting. */
export function createReplayPlayer(replay: EmbedReplay, options: { speed?: number } = {}): ReplayPlayer {
  const queue: Queued[] = [];
  replay.turns.forEach((turn, i) => {
    for (const r of turn.responses)
      queue.push({
        turn: i,
        events: r.events,
        content: r.content,
        chunkDelayMs: r.chunkDelayMs,
        results: new Map((r.results ?? []).map((x) => [x.toolUseId, x])),
      });
  });
  let speed = options.speed ?? 1;
  let seq = 0;
  let last: { queued: Queued; names: Map<string, string> } | undefined;
  const checks: ReplayCheck[] = [];
  const listeners = new Set<(check: ReplayCheck) => void>();
  const wait = (ms: number, signal?: AbortSignal | null) => sleep(speed > 0 ? ms / speed : 0, signal);

  const checkResults = (results: RequestToolResult[]) => {
    if (!last) return;
    for (const actual of results) {
      const expected = last.queued.results.get(actual.toolUseId);
      if (!expected) continue;
      last.queued.results.delete(actual.toolUseId);
      const check = compare(expected, actual, last.names.get(actual.toolUseId) ?? expected.name ?? 'tool');
      checks.push(check);
      for (const l of listeners) {
        try {
          l(check);
        } catch (err) {
          console.error('tabcode: a replay check listener threw', err);
        }
      }
    }
  };

  /** Events of a hand-written answer (the recorded ones are served as they are). */
  const written = (q: Queued, model: string, bodyChars: number): EmbedReplayEvent[] => {
    const n = ++seq;
    const content = (q.content ?? []).map((b, i) =>
      b.type === 'text'
        ? { type: 'text', text: b.text, citations: null }
        : { type: 'tool_use', id: b.id ?? `toolu_replay_${n}_${i}_${rand()}`, name: b.name, input: b.input },
    );
    const outChars = (q.content ?? []).reduce(
      (sum, b) => sum + (b.type === 'text' ? b.text.length : b.name.length + JSON.stringify(b.input).length),
      0,
    );
    const message = {
      id: `msg_replay_${n}_${rand()}`,
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
    const delay = q.chunkDelayMs ?? DEMO_CHUNK_DELAY_MS;
    return messageEvents(message).map((e, i) => ({ at: i * delay, event: e.event, data: e.data }));
  };

  const stream = (events: EmbedReplayEvent[], signal?: AbortSignal | null): Response => {
    const encoder = new TextEncoder();
    let i = 0;
    let prev = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i >= events.length) return controller.close();
        try {
          await wait(events[i].at - prev, signal);
        } catch (err) {
          return controller.error(err);
        }
        prev = events[i].at;
        const e = events[i++];
        controller.enqueue(encoder.encode(formatEvent({ event: e.event, data: e.data })));
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'request-id': `req_replay_${++seq}`,
      },
    });
  };

  const fetchImpl: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input), 'http://replay.invalid');
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const signal = init?.signal ?? request?.signal;
    const path = url.pathname.replace(/\/+$/, '');
    if (signal?.aborted) throw abortError();

    if (method === 'GET' && path.endsWith('/v1/models')) {
      const id = replay.model ?? DEMO_MODEL;
      const model = { type: 'model', id, display_name: 'Replay', created_at: '2026-01-01T00:00:00Z' };
      return json(200, { data: [model], has_more: false, first_id: id, last_id: id });
    }
    if (method !== 'POST')
      return apiError(404, 'not_found_error', `The replay does not serve ${method} ${path}.`);
    const text = typeof init?.body === 'string' ? init.body : request ? await request.text() : '';
    if (path.endsWith('/v1/messages/count_tokens')) return json(200, { input_tokens: tokens(text.length) });
    if (!path.endsWith('/v1/messages'))
      return apiError(404, 'not_found_error', `The replay does not serve ${path}.`);
    const view = readRequest(text);
    if (!view)
      return apiError(400, 'invalid_request_error', 'The request body is not a Messages API request.');

    checkResults(view.results);
    const model = view.model || replay.model || DEMO_MODEL;
    const next = queue.shift();
    const events = next
      ? (next.events ?? written(next, model, text.length))
      : written(
          {
            turn: -1,
            content: [{ type: 'text', text: replay.endText ?? DEMO_END_TEXT }],
            results: new Map(),
          },
          model,
          text.length,
        );
    last = next ? { queued: next, names: toolNames(next) } : undefined;
    if (next?.events === undefined && next) {
      // Ids made up for hand-written tool calls are the ones the tools' results will carry.
      for (const e of events) {
        const block = e.data.content_block as Json | undefined;
        if (e.event === 'content_block_start' && block?.type === 'tool_use')
          last?.names.set(String(block.id), String(block.name));
      }
    }
    if (view.stream) return stream(events, signal);
    await wait(events[events.length - 1]?.at ?? 0, signal);
    return json(200, messageFromEvents(events));
  };

  return {
    fetch: fetchImpl,
    replay,
    pending: () => queue.length,
    nextTurn: () => queue[0]?.turn ?? replay.turns.length,
    checks: () => checks,
    onCheck(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setSpeed(next) {
      speed = next;
    },
  };
}
