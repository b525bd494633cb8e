/**
 * Runs the semantic stage (./semantic.ts): in-process (tests, benchmarks, a worker's inside) or in a
 * dedicated Worker (the page: loading and decoding the 2.7 MB table and the per-word scans stay off the
 * main thread). Lazy: nothing loads until `warm()` or the first `expand()`. A stage that fails to load
 * stays failed with a reason (ToolSearch then answers from the lexical stage and the UI says why).
 */

import { messageOf } from '../../core/errors.ts';
import type { Expansions } from './ranking.ts';
import {
  decodeWordVectors,
  nearestWords,
  type SemanticStage,
  type SemanticStatus,
  type VocabularyMatrix,
  vocabularyMatrix,
  type WordVectors,
} from './semantic.ts';

/** Catalogue vocabularies kept prepared at once (one per tool pool; pools change rarely). */
const MATRICES_KEPT = 4;

/** A status and its listeners (a listener's failure is its own). Shared with ./sentence-stage.ts. */
export function statusHub<S>(initial: S) {
  type Listener = (s: S) => void;
  let status = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => status,
    set(next: S) {
      status = next;
      for (const l of listeners) {
        try {
          l(next);
        } catch {
          // A listener's failure is its own.
        }
      }
    },
    subscribe(l: Listener) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

/** A timer that resolves undefined after `ms` (or never, for ms = Infinity). */
export function timeout<T>(ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    if (Number.isFinite(ms)) setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
}

/** What a stage's status hub holds: any states, one of them failed with a reason. */
type HubOf<S> = ReturnType<typeof statusHub<S>>;

/**
 * The page side of a stage's worker, shared by the word and sentence stages: the worker starts on first
 * use (`start` is its first message), status replies go to `hub`, and a reply that `answerOf` reads as
 * an answer settles the request of its id. A worker that cannot start, take a message, or that dies
 * fails the stage; every open request then gets undefined. With `restart`, a worker whose stage fails
 * once it runs (a file that did not load, a race inside a library's start-up) is replaced by a fresh one
 * that many times before the stage stays failed: a worker's module state cannot be reset, a new worker's
 * is new. Never throws.
 */
export function stageWorker<S extends { state: string }, Req, A>(options: {
  spawn: () => Worker;
  hub: HubOf<S | { state: 'failed'; reason: string }>;
  start: Req;
  /** The answer a reply carries with its request id; undefined for a status reply. */
  answerOf: (reply: unknown) => { id: number; answer: A } | undefined;
  /** Fresh workers to try after a failure, the status to show meanwhile, and what to forget then. */
  restart?: { times: number; status: S; forget: () => void };
}) {
  const { hub } = options;
  let worker: Worker | undefined;
  let nextId = 1;
  let restarts = options.restart?.times ?? 0;
  const pending = new Map<number, (a: A | undefined) => void>();
  const fail = (reason: string) => {
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
    if (worker && restarts > 0 && options.restart) {
      restarts--;
      try {
        worker.terminate();
      } catch {
        // Gone already.
      }
      worker = undefined;
      options.restart.forget();
      hub.set(options.restart.status);
      ensure();
      return;
    }
    hub.set({ state: 'failed', reason });
  };
  const post = (m: Req): boolean => {
    try {
      worker?.postMessage(m);
      return worker !== undefined;
    } catch (err) {
      fail(`its worker did not take a request (${messageOf(err)})`);
      return false;
    }
  };
  /** The worker, started if need be; false once the stage failed. */
  function ensure(): boolean {
    if (worker || hub.get().state === 'failed') return worker !== undefined;
    try {
      worker = options.spawn();
    } catch (err) {
      fail(`its worker did not start (${messageOf(err)})`);
      return false;
    }
    const current = worker;
    worker.onmessage = (e: MessageEvent<unknown>) => {
      if (worker !== current) return;
      const m = e.data as { type?: string; status?: S };
      if (m?.type === 'status' && m.status) {
        const status = m.status as S & { reason?: string };
        if (status.state === 'failed') fail(status.reason ?? 'its worker failed');
        else hub.set(status);
        return;
      }
      const reply = options.answerOf(e.data);
      if (!reply) return;
      const resolve = pending.get(reply.id);
      pending.delete(reply.id);
      resolve?.(reply.answer);
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      if (worker === current) fail(`its worker failed (${e.message || 'error'})`);
    };
    post(options.start);
    return true;
  }
  return {
    ensure,
    post,
    /** Sends the request `make` builds for a fresh id; its answer, or undefined after `waitMs` or a failure. */
    request(make: (id: number) => Req, waitMs = Number.POSITIVE_INFINITY): Promise<A | undefined> {
      if (!ensure()) return Promise.resolve(undefined);
      const id = nextId++;
      const answer = new Promise<A | undefined>((resolve) => pending.set(id, resolve));
      if (!post(make(id))) {
        pending.delete(id);
        return Promise.resolve(undefined);
      }
      return Promise.race([answer, timeout<A>(waitMs)]).then((r) => {
        if (r === undefined) pending.delete(id);
        return r;
      });
    },
  };
}

/** The stage's state machine over loaded vectors, shared by both forms. */
export function createVectorsCore(load: () => Promise<Uint8Array>) {
  const hub = statusHub<SemanticStatus>({ state: 'idle' });
  let loading: Promise<WordVectors | undefined> | undefined;
  const matrices = new Map<string, VocabularyMatrix>();
  const start = () => {
    if (!loading) {
      hub.set({ state: 'loading' });
      const t0 = performance.now();
      loading = load()
        .then((bytes) => {
          const vectors = decodeWordVectors(bytes);
          hub.set({
            state: 'ready',
            words: vectors.words.length,
            loadMs: performance.now() - t0,
            bytes: bytes.byteLength,
          });
          return vectors;
        })
        .catch((err) => {
          hub.set({ state: 'failed', reason: `the word-vector table did not load (${messageOf(err)})` });
          return undefined;
        });
    }
    return loading;
  };
  return {
    hub,
    start,
    /** Expansions once loaded; undefined when loading failed. */
    async expand(key: string, vocabulary: readonly string[] | undefined, words: readonly string[]) {
      const vectors = await start();
      if (!vectors) return undefined;
      let matrix = matrices.get(key);
      if (!matrix) {
        if (!vocabulary) return undefined;
        matrix = vocabularyMatrix(vectors, vocabulary);
        if (matrices.size >= MATRICES_KEPT) matrices.delete(matrices.keys().next().value as string);
        matrices.set(key, matrix);
      }
      return nearestWords(vectors, matrix, words);
    },
  };
}

/** A stage that runs in this thread; `load` gives the table's bytes. */
export function createInProcessSemanticStage(load: () => Promise<Uint8Array>): SemanticStage {
  const core = createVectorsCore(load);
  return {
    warm: () => void core.start(),
    async expand(key, vocabulary, words, waitMs) {
      try {
        const work = core.expand(key, vocabulary, words);
        return (await Promise.race([work, timeout<Expansions>(waitMs)])) ?? undefined;
      } catch {
        return undefined;
      }
    },
    status: core.hub.get,
    subscribe: core.hub.subscribe,
  };
}

/** Messages to and from ./semantic-worker.ts. */
export type WorkerRequest =
  | { type: 'warm' }
  | { type: 'expand'; id: number; key: string; vocabulary?: string[]; words: string[] };
export type WorkerReply =
  | { type: 'status'; status: SemanticStatus }
  | { type: 'expanded'; id: number; expansions?: [string, { word: string; similarity: number }[]][] };

/**
 * A stage in a Worker made by `spawn` (the page passes `() => new Worker(new URL(...))`). A worker that
 * cannot start or dies marks the stage failed. Never throws.
 */
export function createWorkerSemanticStage(spawn: () => Worker): SemanticStage {
  const hub = statusHub<SemanticStatus>({ state: 'idle' });
  const sentKeys = new Set<string>();
  const worker = stageWorker<SemanticStatus, WorkerRequest, Expansions | undefined>({
    spawn,
    hub,
    start: { type: 'warm' },
    answerOf: (reply) => {
      const m = reply as WorkerReply;
      return m.type === 'expanded'
        ? { id: m.id, answer: m.expansions ? new Map(m.expansions) : undefined }
        : undefined;
    },
  });
  return {
    warm: () => void worker.ensure(),
    async expand(key, vocabulary, words, waitMs) {
      if (!worker.ensure()) return undefined;
      const first = !sentKeys.has(key);
      sentKeys.add(key);
      return worker.request(
        (id) => ({
          type: 'expand',
          id,
          key,
          ...(first ? { vocabulary: [...vocabulary] } : {}),
          words: [...words],
        }),
        waitMs,
      );
    },
    status: hub.get,
    subscribe: hub.subscribe,
  };
}
