/**
 * The idle watchdog of model requests. The SDK's timeout covers a request only until its response's
 * headers arrive; a stream that goes quiet after them (a proxy that holds the socket, a dead route, a
 * sleeping laptop's connection) would leave the turn waiting for ever. So every request goes through a
 * fetch that gives up once no byte has come for `idleMs`: before the headers the fetch rejects (the SDK
 * retries it as a connection failure), after them the body errors (the loop sends a reply that stopped
 * partway again). Either way the error is a StreamStalledError, which the page names as such.
 */

/** Nothing came from the API for `idleMs`: the connection is taken for dead. */
export class StreamStalledError extends Error {
  readonly idleMs: number;
  /** True when the response had begun (status and headers arrived). */
  readonly midStream: boolean;
  constructor(idleMs: number, midStream: boolean) {
    const seconds = Math.round(idleMs / 100) / 10;
    super(
      midStream ? `the reply stopped: no data for ${seconds} s` : `no answer to the request in ${seconds} s`,
    );
    this.name = 'StreamStalledError';
    this.idleMs = idleMs;
    this.midStream = midStream;
  }
}

/** The StreamStalledError `err` is or was caused by (through `cause`, a few levels), if any. */
export function stallOf(err: unknown): StreamStalledError | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (e instanceof StreamStalledError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * `base` with the idle watchdog: the request is aborted and fails with a StreamStalledError when no
 * byte arrives for `idleMs` (headers count; so does every chunk of the body, pings included). An abort
 * through the caller's signal passes as it would without the watchdog. `idleMs` ≤ 0: `base` itself.
 */
export function stallGuardedFetch(base: typeof fetch, idleMs: number): typeof fetch {
  if (!(idleMs > 0)) return base;
  return async (input, init) => {
    const controller = new AbortController();
    const outer = init?.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const release = () => outer?.removeEventListener('abort', forward);

    let stalled: StreamStalledError | undefined;
    let lastByte = Date.now();
    /** False while the body waits for its reader to ask for more: a slow reader is no quiet network. */
    let waiting = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onStall: (() => void) | undefined;
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        const quiet = Date.now() - lastByte;
        if (!waiting) return arm(idleMs);
        if (quiet < idleMs) return arm(idleMs - quiet);
        stalled = new StreamStalledError(idleMs, onStall !== undefined);
        controller.abort(stalled);
        onStall?.();
      }, ms);
    };
    const stop = () => {
      clearTimeout(timer);
      release();
    };

    arm(idleMs);
    let response: Response;
    try {
      response = await new Promise<Response>((resolve, reject) => {
        // A fetch that does not honour the abort still gives way to the stall.
        controller.signal.addEventListener('abort', () => {
          if (stalled) reject(stalled);
        });
        base(input, { ...init, signal: controller.signal }).then(resolve, reject);
      });
    } catch (err) {
      stop();
      throw stalled ?? err;
    }
    if (!response.body) {
      stop();
      return response;
    }
    lastByte = Date.now();
    waiting = false;
    const reader = response.body.getReader();
    let fail: ((err: unknown) => void) | undefined;
    onStall = () => {
      void reader.cancel(stalled).catch(() => {});
      fail?.(stalled);
    };
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        fail = (err) => {
          try {
            c.error(err);
          } catch {
            // Already closed or errored.
          }
        };
      },
      async pull(c) {
        waiting = true;
        lastByte = Date.now();
        try {
          const { done, value } = await reader.read();
          if (stalled) return;
          waiting = false;
          lastByte = Date.now();
          if (done) {
            stop();
            c.close();
          } else c.enqueue(value);
        } catch (err) {
          stop();
          fail?.(stalled ?? err);
        }
      },
      cancel(reason) {
        stop();
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
