/**
 * Model requests sent from a Worker. A Messages API body grows with the session (a 2 MB Write is in every
 * later request), and `fetch` with a string body of 5 MB holds the page's thread for ~80 ms while it
 * encodes and copies it; handing the same string to a worker costs ~5 ms. The worker (fetch.worker.ts)
 * makes the request and streams the response back chunk by chunk, so the SDK reads its server-sent events
 * as from any fetch. Abort (Esc) ends the request in the worker at once.
 *
 * Only requests with a string body go through the worker (the SDK's JSON posts); the rest, and every
 * request where there is no Worker (Node, tests), use the given fetch.
 */
import { messageOf } from '../core/errors.ts';

/** Page → worker. */
export type FetchRequest =
  | { type: 'fetch'; id: number; url: string; method: string; headers: [string, string][]; body: string }
  | { type: 'abort'; id: number };

/** Worker → page: the head once, then chunks, then `end`, or `error` at any point. */
export type FetchReply =
  | { type: 'head'; id: number; status: number; statusText: string; headers: [string, string][] }
  | { type: 'chunk'; id: number; bytes: Uint8Array }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; name: string; message: string };

/** The worker as the page sees it (a Worker, or one end of a MessageChannel in tests). */
export interface FetchWorkerLike {
  postMessage(message: FetchRequest): void;
  onmessage: ((event: { data: FetchReply }) => void) | null;
  onerror?: ((event: unknown) => void) | null;
  terminate?(): void;
}

/** Statuses whose response may not have a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

interface Pending {
  head(reply: Extract<FetchReply, { type: 'head' }>): void;
  chunk(bytes: Uint8Array): void;
  end(): void;
  fail(err: Error): void;
  /** Sends the request with the page's fetch instead (the worker could not load; nothing was answered). */
  resend(): void;
}

function errorOf(reply: Extract<FetchReply, { type: 'error' }>): Error {
  if (reply.name === 'AbortError') return new DOMException(reply.message, 'AbortError');
  // A network failure is a TypeError from fetch: the SDK retries it as a connection error.
  return reply.name === 'TypeError' ? new TypeError(reply.message) : new Error(reply.message);
}

/**
 * A fetch that sends string bodies from the worker `spawn` makes (one worker, made on the first such
 * request and made again if it dies), and passes anything else to `fallback`. Rejects as fetch does: a
 * TypeError for a network failure, the signal's reason (or an AbortError) when aborted.
 */
export function createOffThreadFetch(spawn: () => FetchWorkerLike, fallback: typeof fetch): typeof fetch {
  let worker: FetchWorkerLike | undefined;
  /** Set when no worker could be made or one died before answering: requests go to `fallback`. */
  let broken = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  /** Ends the worker; its requests fail as network errors, or go to `fallback` when it never loaded. */
  const dropWorker = (why: string, loaded: boolean) => {
    const dead = worker;
    worker = undefined;
    try {
      dead?.terminate?.();
    } catch {
      // Already gone.
    }
    const err = new TypeError(`The request worker stopped: ${why}`);
    const held = [...pending.values()];
    pending.clear();
    for (const p of held) {
      if (loaded) p.fail(err);
      else p.resend();
    }
  };

  const ensureWorker = (): FetchWorkerLike => {
    if (worker) return worker;
    const w = spawn();
    let answered = false;
    w.onmessage = ({ data }) => {
      answered = true;
      const p = pending.get(data.id);
      if (!p) return;
      if (data.type === 'head') p.head(data);
      else if (data.type === 'chunk') p.chunk(data.bytes);
      else if (data.type === 'end') p.end();
      else p.fail(errorOf(data));
    };
    w.onerror = (event) => {
      // A worker that never answered cannot load here (a host page's CSP without worker-src for us, a
      // missing file): it is not tried again, and the requests it held are sent with `fallback`.
      if (!answered) broken = true;
      dropWorker(messageOf((event as { message?: unknown })?.message ?? event), answered);
    };
    worker = w;
    return w;
  };

  return (input, init) => {
    const body = init?.body;
    if (broken || typeof body !== 'string' || input instanceof Request) return fallback(input, init);
    let target: FetchWorkerLike;
    try {
      target = ensureWorker();
    } catch {
      broken = true;
      return fallback(input, init);
    }
    const signal = init?.signal ?? undefined;
    const url = input instanceof URL ? input.href : String(input);
    if (signal?.aborted) return Promise.reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));

    return new Promise<Response>((resolve, reject) => {
      const id = nextId++;
      let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
      let settled = false;
      const finish = () => {
        pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (err: Error) => {
        finish();
        if (!settled) {
          settled = true;
          reject(err);
        } else {
          try {
            stream?.error(err);
          } catch {
            // The reader already let go of the stream.
          }
        }
      };
      const onAbort = () => {
        target.postMessage({ type: 'abort', id });
        fail((signal?.reason as Error | undefined) ?? new DOMException('Aborted', 'AbortError'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      pending.set(id, {
        head(reply) {
          settled = true;
          const responseBody = NULL_BODY.has(reply.status)
            ? null
            : new ReadableStream<Uint8Array>({
                start(controller) {
                  stream = controller;
                },
                cancel() {
                  // The reader stopped reading (the SDK's stream was closed): end the request too.
                  finish();
                  target.postMessage({ type: 'abort', id });
                },
              });
          if (!responseBody) finish();
          resolve(
            new Response(responseBody, {
              status: reply.status,
              statusText: reply.statusText,
              headers: reply.headers,
            }),
          );
        },
        chunk(bytes) {
          stream?.enqueue(bytes);
        },
        end() {
          finish();
          try {
            stream?.close();
          } catch {
            // Cancelled meanwhile.
          }
        },
        fail,
        resend() {
          if (settled) return;
          signal?.removeEventListener('abort', onAbort);
          settled = true;
          fallback(input, init).then(resolve, reject);
        },
      });

      try {
        target.postMessage({
          type: 'fetch',
          id,
          url,
          method: init?.method ?? 'POST',
          headers: [...new Headers(init?.headers).entries()],
          body,
        });
      } catch (err) {
        fail(new TypeError(`The request could not be handed to its worker: ${messageOf(err)}`));
      }
    });
  };
}

/** The worker's side as a scope it posts from and listens on. */
export interface FetchScope {
  postMessage(message: FetchReply, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: FetchRequest }) => void): void;
}

/** Serves FetchRequests on `scope` with `doFetch` (the worker's fetch). Never throws. */
export function serveFetches(scope: FetchScope, doFetch: typeof fetch): void {
  const running = new Map<number, AbortController>();
  const post = (reply: FetchReply, transfer?: Transferable[]) => {
    try {
      scope.postMessage(reply, transfer);
    } catch {
      // The page is gone.
    }
  };
  scope.addEventListener('message', ({ data }) => {
    if (data.type === 'abort') {
      running.get(data.id)?.abort();
      running.delete(data.id);
      return;
    }
    const { id } = data;
    const controller = new AbortController();
    running.set(id, controller);
    void (async () => {
      try {
        const response = await doFetch(data.url, {
          method: data.method,
          headers: data.headers,
          body: data.body,
          signal: controller.signal,
        });
        post({
          type: 'head',
          id,
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()],
        });
        const reader = response.body?.getReader();
        if (reader) {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            // Handed over, not copied; a view into a larger buffer is copied out first.
            const bytes =
              value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
            post({ type: 'chunk', id, bytes }, [bytes.buffer]);
          }
        }
        post({ type: 'end', id });
      } catch (err) {
        const name = err instanceof Error ? err.name : 'Error';
        post({ type: 'error', id, name, message: messageOf(err) });
      } finally {
        running.delete(id);
      }
    })();
  });
}

let shared: typeof fetch | undefined;

/** The fetch model requests use by default: one request worker for the page where there are Workers. */
export function defaultModelFetch(): typeof fetch {
  const direct: typeof fetch = (input, init) => globalThis.fetch(input, init);
  if (typeof Worker === 'undefined') return direct;
  shared ??= createOffThreadFetch(
    () =>
      new Worker(new URL('./fetch.worker.ts', import.meta.url), {
        type: 'module',
        name: 'requests',
      }) as unknown as FetchWorkerLike,
    direct,
  );
  return shared;
}
