/**
 * Records a live session as a replay: wraps the session's `fetch` (the one the SDK uses) and keeps, for
 * each streamed Messages API answer, its server-sent events with the time since the request was sent;
 * the next request's tool results become the answer's recorded `results`; a request whose last message
 * is the user's text starts a new turn (with the pause since the previous answer). Only answers and
 * the user's prompts are kept: never a header (so never a key), never the system prompt or tools.
 * A failed or cut-off answer is left out (the SDK's retry is recorded instead).
 */
import {
  type EmbedReplay,
  type EmbedReplayEvent,
  type EmbedReplayResponse,
  type EmbedReplayTurn,
  REPLAY_FORMAT,
  REPLAY_VERSION,
} from './config.ts';
import { createSseReader, readRequest } from './replay-stream.ts';

export interface ReplayRecorder {
  /** The fetch to hand to the session: passes everything through, recording Messages API answers. */
  fetch: typeof fetch;
  /** The replay so far (answers still streaming are not in it). */
  replay(): EmbedReplay;
  /** Answers recorded so far. */
  answers(): number;
}

export interface ReplayRecorderOptions {
  /** The fetch that really sends (default: the page's). */
  fetch?: typeof fetch;
  /** The project the session started with (kept in the replay). */
  files?: Record<string, string>;
  title?: string;
  /** Clock (ms), for tests. */
  now?: () => number;
}

/** Rounds recorded times to whole milliseconds (a replay is a file people read). */
const ms = (n: number) => Math.max(0, Math.round(n));

export function createReplayRecorder(options: ReplayRecorderOptions = {}): ReplayRecorder {
  const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? (() => performance.now());
  const turns: EmbedReplayTurn[] = [];
  let model: string | undefined;
  /** When the last recorded answer ended (for the next prompt's pause). */
  let lastEnd: number | undefined;
  let lastResponse: EmbedReplayResponse | undefined;
  let count = 0;

  const record = async (
    body: ReadableStream<Uint8Array>,
    started: number,
    view: NonNullable<ReturnType<typeof readRequest>>,
  ) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const sse = createSseReader();
    const events: EmbedReplayEvent[] = [];
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const e of sse.push(decoder.decode(value, { stream: true })))
          events.push({ at: ms(now() - started), event: e.event, data: e.data });
      }
    } catch {
      return; // Cut off (Esc, a dropped connection): not a complete answer.
    }
    if (events[0]?.event !== 'message_start' || events[events.length - 1]?.event !== 'message_stop') return;
    const message = events[0].data.message as { model?: unknown } | undefined;
    if (typeof message?.model === 'string') model ??= message.model;
    if (view.prompt !== undefined || turns.length === 0) {
      turns.push({
        ...(view.prompt !== undefined ? { prompt: view.prompt } : {}),
        ...(lastEnd !== undefined ? { pauseMs: ms(started - lastEnd) } : {}),
        responses: [],
      });
    }
    const response: EmbedReplayResponse = { events };
    turns[turns.length - 1].responses.push(response);
    lastResponse = response;
    lastEnd = now();
    count++;
  };

  const fetchImpl: typeof fetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input), 'http://recorder.invalid');
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const bodyText = typeof init?.body === 'string' ? init.body : undefined;
    const view =
      method === 'POST' && /\/v1\/messages\/?$/.test(url.pathname) && bodyText
        ? readRequest(bodyText)
        : undefined;
    // The tool results a request carries belong to the answer before it (once: not again on a retry).
    if (view && view.results.length > 0 && lastResponse && !lastResponse.results) {
      lastResponse.results = view.results.map((r) => ({
        toolUseId: r.toolUseId,
        isError: r.isError,
        content: r.content,
      }));
    }
    const started = now();
    const response = await base(input, init);
    if (!view?.stream || !response.ok || !response.body) return response;
    const [mine, theirs] = response.body.tee();
    void record(mine, started, view);
    return new Response(theirs, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return {
    fetch: fetchImpl,
    answers: () => count,
    replay() {
      const copy = structuredClone(turns);
      // Results arrive with the next request: the last answer's tool calls may still be unanswered.
      return {
        format: REPLAY_FORMAT,
        version: REPLAY_VERSION,
        ...(options.title ? { title: options.title } : {}),
        recordedAt: new Date().toISOString(),
        ...(model ? { model } : {}),
        ...(options.files ? { files: { ...options.files } } : {}),
        turns: copy,
      };
    },
  };
}
