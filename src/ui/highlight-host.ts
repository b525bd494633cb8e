/**
 * Where code is highlighted. In a browser page: in a Worker (./highlight.worker.ts), so neither loading
 * and compiling the grammars (a language's first use compiled its rules for 80-110 ms) nor highlighting
 * a large file (190 kB of JavaScript: 570 ms) blocks the page. The answer comes back in chunks
 * (./highlight-chunks.ts), one message each, so no single message is large to receive either. Without
 * a Worker (Node, tests): in-process, the highlighter module loaded on first use.
 *
 * One request is in the worker at a time; the others wait here, where a request whose view went away
 * (its signal aborted) is dropped before it costs anything: a code block that streams in asks again on
 * every delta. A request over HIGHLIGHT_TIMEOUT_MS ends the worker (the next one starts a new one) and
 * is answered null: the code shows plain. A worker that cannot start or fails is given up for the
 * page's lifetime and highlighting runs in-process.
 */
import { type Chunk, chunkTree, type Highlighted } from './highlight-chunks.ts';

/** Once the worker has its grammars: how long one highlighting may take (a pathological match). */
export const HIGHLIGHT_TIMEOUT_MS = 10_000;
/** How long a new worker may take to load the highlighter (a download on a slow link). */
export const HIGHLIGHT_LOAD_TIMEOUT_MS = 30_000;
/**
 * Without a worker (it cannot start, or failed), code up to this length is highlighted on the page's
 * thread (a few milliseconds); longer code shows plain.
 */
export const IN_PROCESS_MAX_CHARS = 20_000;

/** Page → worker. */
export interface HighlightRequest {
  id: number;
  code: string;
  language: string;
}
/**
 * Worker → page: `ready` once the highlighter is loaded; then per request `total` chunks, one message
 * each (`index`, its `chunk` and `end` offset), or a single message with `total` -1 when the code is not
 * highlighted (unknown language, too long) and 0 for none.
 */
export type HighlightReply =
  | { ready: true }
  | { id: number; total: -1 | 0 }
  | { id: number; total: number; index: number; chunk: Chunk; end: number };

/** What the host needs of a Worker (a Web Worker, or a Node thread in tests). */
export interface HighlightWorkerLike {
  postMessage(message: HighlightRequest): void;
  addEventListener(type: 'message', listener: (event: { data: HighlightReply }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

type HighlightModule = typeof import('./highlight.ts');
let module: Promise<HighlightModule> | undefined;
const loadHighlight = () => {
  module ??= import('./highlight.ts');
  return module;
};

/** The chunks of `code` highlighted in this thread, or null (unknown language, too long). */
export async function highlightHere(code: string, language: string): Promise<Highlighted | null> {
  const m = await loadHighlight();
  const tree = m.highlightTree(code, language);
  return tree ? chunkTree(tree) : null;
}

/** The worker's side: each request answered in chunks, in order. */
export function serveHighlight(
  post: (reply: HighlightReply) => void,
  onRequest: (listener: (request: HighlightRequest) => void) => void,
): void {
  onRequest((request) => {
    void highlightHere(request.code, request.language).then(
      (result) => {
        const { id } = request;
        if (!result) return post({ id, total: -1 });
        const total = result.chunks.length;
        if (total === 0) return post({ id, total: 0 });
        result.chunks.forEach((chunk, index) => {
          post({ id, total, index, chunk, end: result.ends[index] });
        });
      },
      () => post({ id: request.id, total: -1 }),
    );
  });
  void loadHighlight()
    .catch(() => undefined)
    .then(() => post({ ready: true }));
}

export interface Highlighter {
  /** The chunks of `code`, or null (not highlighted, timed out, or `signal` aborted first). Never rejects. */
  highlight(code: string, language: string, signal?: AbortSignal): Promise<Highlighted | null>;
  /** Ends the worker, if any. Never throws. */
  close(): void;
}

export interface HighlighterOptions {
  /** Starts the worker; without one, every request is highlighted in-process. */
  createWorker?: () => HighlightWorkerLike;
  timeoutMs?: number;
  loadTimeoutMs?: number;
  /** Without a worker (none given, or given up): the longest code highlighted in-process. */
  inProcessMaxChars?: number;
}

interface Job {
  code: string;
  language: string;
  signal?: AbortSignal;
  resolve(result: Highlighted | null): void;
}

export function createHighlighter(options: HighlighterOptions = {}): Highlighter {
  const timeoutMs = options.timeoutMs ?? HIGHLIGHT_TIMEOUT_MS;
  const loadTimeoutMs = options.loadTimeoutMs ?? HIGHLIGHT_LOAD_TIMEOUT_MS;
  // No worker at all (Node, tests): everything here. A worker given up: only small code here.
  const hereMax = options.createWorker
    ? (options.inProcessMaxChars ?? IN_PROCESS_MAX_CHARS)
    : (options.inProcessMaxChars ?? Number.POSITIVE_INFINITY);
  let givenUp = !options.createWorker;
  let worker:
    | { w: HighlightWorkerLike; ready: boolean; loadTimer: ReturnType<typeof setTimeout> }
    | undefined;
  const queue: Job[] = [];
  let running:
    | {
        id: number;
        job: Job;
        chunks: Chunk[];
        ends: number[];
        got: number;
        timer?: ReturnType<typeof setTimeout>;
      }
    | undefined;
  let nextId = 0;

  const here = (job: Job) => {
    if (job.code.length > hereMax || job.signal?.aborted) return job.resolve(null);
    void highlightHere(job.code, job.language).then(job.resolve, () => job.resolve(null));
  };

  const end = () => {
    if (!worker) return;
    clearTimeout(worker.loadTimer);
    worker.w.terminate();
    worker = undefined;
  };

  const startTimer = () => {
    if (!running || running.timer) return;
    running.timer = setTimeout(() => {
      // A highlighting that runs away: the worker ends, the code shows plain, the next request gets a new one.
      end();
      finish(null);
    }, timeoutMs);
  };

  const finish = (result: Highlighted | null) => {
    if (!running) return;
    clearTimeout(running.timer);
    const { job } = running;
    running = undefined;
    job.resolve(result);
    pump();
  };

  /** The worker cannot serve: what runs and waits, and everything after, is highlighted here. */
  const giveUp = () => {
    givenUp = true;
    end();
    const left = running ? [running.job, ...queue] : [...queue];
    if (running) clearTimeout(running.timer);
    running = undefined;
    queue.length = 0;
    for (const job of left) here(job);
  };

  const start = (): typeof worker => {
    let w: HighlightWorkerLike;
    try {
      w = (options.createWorker as () => HighlightWorkerLike)();
    } catch {
      return undefined;
    }
    const self = { w, ready: false, loadTimer: setTimeout(() => giveUp(), loadTimeoutMs) };
    w.addEventListener('message', ({ data }) => {
      if (worker !== self) return;
      if ('ready' in data) {
        self.ready = true;
        clearTimeout(self.loadTimer);
        return startTimer();
      }
      if (!running || data.id !== running.id) return;
      if (data.total <= 0) return finish(data.total === 0 ? { chunks: [], ends: [] } : null);
      if (!('chunk' in data)) return;
      running.chunks[data.index] = data.chunk;
      running.ends[data.index] = data.end;
      if (++running.got === data.total) finish({ chunks: running.chunks, ends: running.ends });
    });
    w.addEventListener('error', () => {
      if (worker === self) giveUp();
    });
    return self;
  };

  const pump = () => {
    if (running || givenUp) return;
    let job: Job | undefined;
    for (;;) {
      job = queue.shift();
      if (!job) return;
      if (!job.signal?.aborted) break;
      job.resolve(null);
    }
    worker ??= start();
    if (!worker) {
      givenUp = true;
      here(job);
      for (const j of queue.splice(0)) here(j);
      return;
    }
    const id = ++nextId;
    running = { id, job, chunks: [], ends: [], got: 0 };
    // The time budget counts from when the worker has its highlighter.
    if (worker.ready) startTimer();
    worker.w.postMessage({ id, code: job.code, language: job.language });
  };

  return {
    highlight(code, language, signal) {
      return new Promise<Highlighted | null>((resolve) => {
        const job: Job = { code, language, signal, resolve };
        if (givenUp) return here(job);
        queue.push(job);
        pump();
      });
    },
    close() {
      end();
      for (const job of queue.splice(0)) job.resolve(null);
      if (running) finish(null);
    },
  };
}

let pageHighlighter: Highlighter | undefined;

/** The chunks of `code` highlighted off the page's thread where there are Workers (see above). Never rejects. */
export function highlightOffPage(
  code: string,
  language: string,
  signal?: AbortSignal,
): Promise<Highlighted | null> {
  pageHighlighter ??= createHighlighter(
    typeof Worker === 'undefined'
      ? {}
      : {
          createWorker: () =>
            new Worker(new URL('./highlight.worker.ts', import.meta.url), {
              type: 'module',
              name: 'highlight',
            }) as unknown as HighlightWorkerLike,
        },
  );
  return pageHighlighter.highlight(code, language, signal);
}
