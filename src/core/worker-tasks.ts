/**
 * Work that must not block the page, sent to a Worker with a time budget: the page posts a request,
 * the worker answers it, and a request that takes longer than its budget (a regex that backtracks for
 * minutes, a command the parser chokes on), or whose signal aborts (Esc), ends the worker at once. The
 * next request gets a new worker; requests that were waiting beside the one that ended are sent again
 * to the new worker, so one runaway never costs the others their answer.
 *
 * A worker's budget clock starts once it says it is loaded (`{ ready: true }`), so a slow start never
 * counts against a request. A worker that cannot be created, fails before it is loaded, or is not
 * loaded within `loadTimeoutMs` makes the tasks `unavailable` for good: every request then answers
 * `unavailable` at once, and the caller does the work another way (in-process, or not at all).
 *
 * The worker's side is `serveWorkerTasks(handler)`. Used by the shell analysis (src/shell/analysis-host.ts)
 * and Grep's line matcher (src/tools/grep/line-matcher.ts).
 */
import { messageOf } from './errors.ts';

/** Page → worker. */
export interface TaskRequest<Req> {
  id: number;
  request: Req;
}
/** Worker → page: `ready` once loaded, then one answer per request. */
export type TaskReply<Res> = { ready: true } | { id: number; value: Res } | { id: number; error: string };

/** What the tasks need of a Worker (a Web Worker, or a Node thread in tests). */
export interface TaskWorkerLike<Req, Res> {
  postMessage(message: TaskRequest<Req>): void;
  addEventListener(type: 'message', listener: (event: { data: TaskReply<Res> }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

export type TaskOutcome<Res> =
  | { ok: true; value: Res }
  /** `timeout`: over budget (the worker was ended); `error`: the handler threw or the worker failed. */
  | { ok: false; reason: 'timeout' | 'error' | 'unavailable'; message: string };

export interface WorkerTasks<Req, Res> {
  /**
   * The worker's answer to `request`. Never rejects, except with `signal.reason` once `signal` aborts
   * (the worker is ended at once; requests waiting beside it go to a new one).
   */
  run(request: Req, options?: { signal?: AbortSignal; budgetMs?: number }): Promise<TaskOutcome<Res>>;
  /** False once the worker could not be had (see above): `run` then answers `unavailable`. */
  readonly available: boolean;
  /** Ends the worker, if any; what waits gets `unavailable`. Never throws. */
  close(): void;
}

export interface WorkerTasksOptions<Req, Res> {
  /** Makes a worker (may throw: the tasks are then unavailable). */
  spawn: () => TaskWorkerLike<Req, Res>;
  /** How long one request may take once the worker is loaded. */
  budgetMs: number;
  /** How long a new worker may take to say it is loaded (default: no limit). */
  loadTimeoutMs?: number;
  /** A noun for messages ("Grep's search worker"). */
  name?: string;
}

interface Waiting<Res> {
  request: unknown;
  budgetMs: number;
  resolve(outcome: TaskOutcome<Res>): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

interface Current<Req, Res> {
  worker: TaskWorkerLike<Req, Res>;
  ready: boolean;
  loadTimer?: ReturnType<typeof setTimeout>;
}

export function createWorkerTasks<Req, Res>(options: WorkerTasksOptions<Req, Res>): WorkerTasks<Req, Res> {
  const name = options.name ?? 'The worker';
  let unavailable: string | undefined;
  let current: Current<Req, Res> | undefined;
  const waiting = new Map<number, Waiting<Res>>();
  let nextId = 0;

  const settle = (id: number, outcome: TaskOutcome<Res>) => {
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    clearTimeout(entry.timer);
    if (entry.onAbort) entry.signal?.removeEventListener('abort', entry.onAbort);
    entry.resolve(outcome);
  };

  const startBudget = (id: number, entry: Waiting<Res>) => {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      settle(id, {
        ok: false,
        reason: 'timeout',
        message: `${name} took longer than ${entry.budgetMs / 1000} s`,
      });
      restart();
    }, entry.budgetMs);
  };

  const end = () => {
    if (!current) return;
    clearTimeout(current.loadTimer);
    current.worker.terminate();
    current = undefined;
  };

  /** Everything waiting answers `unavailable`, now and from now on. */
  const giveUp = (message: string) => {
    unavailable = message;
    end();
    for (const id of [...waiting.keys()]) settle(id, { ok: false, reason: 'unavailable', message });
  };

  const send = (id: number, entry: Waiting<Res>) => {
    const self = current as Current<Req, Res>;
    // A budget runs on a loaded worker only: one sent again to a new worker starts it again there.
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (self.ready) startBudget(id, entry);
    self.worker.postMessage({ id, request: entry.request as Req });
  };

  /** Ends the worker; what was waiting on it goes to a new one. */
  const restart = () => {
    end();
    if (waiting.size === 0) return;
    if (!start()) return;
    for (const [id, entry] of waiting) send(id, entry);
  };

  const start = (): boolean => {
    let worker: TaskWorkerLike<Req, Res>;
    try {
      worker = options.spawn();
    } catch (err) {
      giveUp(`${name} could not start: ${messageOf(err)}`);
      return false;
    }
    const self: Current<Req, Res> = { worker, ready: false };
    current = self;
    if (options.loadTimeoutMs !== undefined) {
      const seconds = options.loadTimeoutMs / 1000;
      self.loadTimer = setTimeout(
        () => giveUp(`${name} did not load within ${seconds} s`),
        options.loadTimeoutMs,
      );
    }
    worker.addEventListener('message', ({ data }) => {
      if (current !== self) return;
      if ('ready' in data) {
        self.ready = true;
        clearTimeout(self.loadTimer);
        for (const [id, entry] of waiting) startBudget(id, entry);
        return;
      }
      settle(
        data.id,
        'error' in data
          ? { ok: false, reason: 'error', message: data.error }
          : { ok: true, value: data.value },
      );
    });
    worker.addEventListener('error', (event) => {
      if (current !== self) return;
      const message = `${name} failed: ${event.message || 'it could not start'}`;
      if (!self.ready) {
        giveUp(message);
        return;
      }
      end();
      for (const id of [...waiting.keys()]) settle(id, { ok: false, reason: 'error', message });
    });
    return true;
  };

  return {
    get available() {
      return unavailable === undefined;
    },
    run(request, runOptions = {}) {
      const { signal } = runOptions;
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (unavailable !== undefined)
        return Promise.resolve({ ok: false, reason: 'unavailable', message: unavailable });
      if (!current && !start())
        return Promise.resolve({ ok: false, reason: 'unavailable', message: unavailable ?? name });
      const id = ++nextId;
      return new Promise<TaskOutcome<Res>>((resolve, reject) => {
        const entry: Waiting<Res> = {
          request,
          budgetMs: runOptions.budgetMs ?? options.budgetMs,
          resolve,
          reject,
        };
        if (signal) {
          entry.signal = signal;
          entry.onAbort = () => {
            if (!waiting.has(id)) return;
            waiting.delete(id);
            clearTimeout(entry.timer);
            restart();
            reject(signal.reason);
          };
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
        waiting.set(id, entry);
        send(id, entry);
      });
    },
    close() {
      end();
      for (const id of [...waiting.keys()])
        settle(id, { ok: false, reason: 'unavailable', message: `${name} was closed` });
    },
  };
}

/**
 * The worker's side: says it is loaded once `loaded` settles (a parser, a table), then answers each
 * request with `handler`'s value, or its error's message (a handler that throws or rejects).
 */
export function serveWorkerTasks<Req, Res>(
  scope: {
    postMessage(message: TaskReply<Res>): void;
    addEventListener(type: 'message', listener: (event: { data: TaskRequest<Req> }) => void): void;
  },
  handler: (request: Req) => Res | Promise<Res>,
  loaded: Promise<unknown> = Promise.resolve(),
): void {
  // Requests wait for the load, so `ready` always goes out before any answer (the page's budget clock
  // starts there): a request that blocks this thread cannot keep it from being said.
  const ready = loaded.catch(() => undefined).then(() => scope.postMessage({ ready: true }));
  scope.addEventListener('message', ({ data: { id, request } }) => {
    void ready
      .then(() => handler(request))
      .then(
        (value) => scope.postMessage({ id, value }),
        (err: unknown) => scope.postMessage({ id, error: messageOf(err) }),
      );
  });
}
