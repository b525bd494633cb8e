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
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, (e: Expansions | undefined) => void>();
  const sentKeys = new Set<string>();
  const fail = (reason: string) => {
    hub.set({ state: 'failed', reason });
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  };
  const ensure = (): Worker | undefined => {
    if (worker || hub.get().state === 'failed') return worker;
    try {
      worker = spawn();
    } catch (err) {
      fail(`its worker did not start (${messageOf(err)})`);
      return undefined;
    }
    worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      const m = e.data;
      if (m.type === 'status') {
        if (m.status.state === 'failed') fail(m.status.reason);
        else hub.set(m.status);
      } else if (m.type === 'expanded') {
        const resolve = pending.get(m.id);
        pending.delete(m.id);
        resolve?.(m.expansions ? new Map(m.expansions) : undefined);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      fail(`its worker failed (${e.message || 'error'})`);
    };
    worker.postMessage({ type: 'warm' } satisfies WorkerRequest);
    return worker;
  };
  return {
    warm: () => void ensure(),
    expand(key, vocabulary, words, waitMs) {
      const w = ensure();
      if (!w) return Promise.resolve(undefined);
      const id = nextId++;
      const first = !sentKeys.has(key);
      sentKeys.add(key);
      const answer = new Promise<Expansions | undefined>((resolve) => pending.set(id, resolve));
      try {
        w.postMessage({
          type: 'expand',
          id,
          key,
          ...(first ? { vocabulary: [...vocabulary] } : {}),
          words: [...words],
        } satisfies WorkerRequest);
      } catch (err) {
        pending.delete(id);
        fail(`its worker did not take a request (${messageOf(err)})`);
        return Promise.resolve(undefined);
      }
      return Promise.race([answer, timeout<Expansions>(waitMs)]).then((r) => {
        if (r === undefined) pending.delete(id);
        return r;
      });
    },
    status: hub.get,
    subscribe: hub.subscribe,
  };
}
