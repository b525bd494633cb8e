/**
 * The sentence-encoder stage of ToolSearch (its ranking side is ./sentence.ts): a catalogue's tools are
 * embedded once (their vectors kept in IndexedDB by the hash of the text embedded, so the next session of
 * the same tools costs no model call), then each keyword query is embedded and its cosine with every tool
 * returned. The encoder (Universal Sentence Encoder lite, ~28 MB of weights from our own origin) loads only
 * when the first deferred MCP tool appears, and in the page it runs in its own Worker
 * (./sentence-worker.ts), away from the word-vector stage's, so neither waits on the other.
 *
 * A query is answered only once every tool of its catalogue has a vector (cosines over part of a catalogue
 * would be scaled over the wrong set); until then the answer says why it is lexical only ("still reading
 * the tools, 120 of 727"), and ToolSearch ranks lexically. Tool batches are small and queries go before
 * them, so a query waits for at most one batch.
 *
 * Never throws; a stage that fails to load or embed stays failed with a reason.
 */
import { getMany, setMany } from 'idb-keyval';
import { messageOf } from '../../core/errors.ts';
import { hashString } from '../../core/hash.ts';
import { openIdbStore } from '../../core/storage.ts';
import { stageWorker, statusHub, timeout } from './semantic-stage.ts';
import { SENTENCE_QUERY_CHARS } from './sentence.ts';

/** Names the model in cache keys: vectors of another model (or version) are never read as these. */
export const ENCODER_ID = 'use-lite-v1';
/** Tools embedded per model call (a query waits for at most one batch: ~8 × 28 ms in Chromium). */
export const SENTENCE_BATCH = 8;
/** Catalogues kept prepared at once (one per tool pool; pools change rarely). */
const CATALOGUES_KEPT = 4;
/** Tool vectors kept in memory across catalogues (a pool that gains one tool embeds one tool). */
const VECTORS_KEPT = 20_000;

/** The model as the stage uses it: texts in, one vector each. */
export interface SentenceEncoder {
  embed(texts: string[]): Promise<ArrayLike<number>[]>;
}

/** Where tool vectors outlive the page (IndexedDB in the worker). Failures only cost a model call. */
export interface VectorCache {
  getMany(keys: readonly string[]): Promise<(Float32Array | undefined)[]>;
  setMany(entries: readonly [string, Float32Array][]): Promise<void>;
}

/** A tool as the encoder reads it: its name, and the text embedded (./sentence.ts sentenceToolText). */
export interface SentenceTool {
  name: string;
  text: string;
}

export type SentenceStatus =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; loadMs: number }
  | { state: 'failed'; reason: string };

/** The core's answer to a query: cosines in the catalogue's tool order, or why there are none. */
export type SentenceReply =
  | { cosines: Float32Array }
  | { pending: { done: number; total: number } }
  | { unknown: true }
  | { failed: string };

/** What ToolSearch gets: cosines by tool name, or why the ranking stays lexical. */
export type SentenceAnswer = { cosines: Map<string, number> } | { lexicalOnly: string };

/** Tool vectors in IndexedDB database `dbName` (object store `vectors`). */
export function idbVectorCache(dbName: string): VectorCache {
  const store = openIdbStore(dbName, 'vectors');
  return {
    getMany: (keys) => getMany<Float32Array>([...keys], store),
    setMany: (entries) => setMany([...entries], store),
  };
}

/** The cache key of a text's vector. */
export function vectorKey(text: string): string {
  return `${ENCODER_ID}:${hashString(text)}:${text.length}`;
}

function unit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i] * out[i];
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}

interface Catalogue {
  /** Cache key of each tool's text, in the catalogue's order. */
  keys: string[];
  texts: Map<string, string>;
  /** Distinct texts, and how many have a vector. */
  total: number;
  done: number;
  /** Row-major vectors in tool order, once every tool has one. */
  matrix?: Float32Array;
  dims?: number;
}

/**
 * The stage's state machine over an encoder (`load` gives it; called once) and an optional cache: runs
 * in this thread (tests, benchmarks, the worker's inside).
 */
export function createSentenceCore(
  load: () => Promise<SentenceEncoder>,
  cache?: VectorCache,
  batch = SENTENCE_BATCH,
) {
  const hub = statusHub<SentenceStatus>({ state: 'idle' });
  let loading: Promise<SentenceEncoder | undefined> | undefined;
  const vectors = new Map<string, Float32Array>();
  const catalogues = new Map<string, Catalogue>();

  // One model call at a time; a query's goes before the next tool batch.
  const urgent: (() => Promise<void>)[] = [];
  const background: (() => Promise<void>)[] = [];
  let running = false;
  const pump = async () => {
    if (running) return;
    running = true;
    try {
      for (let job = urgent.shift() ?? background.shift(); job; job = urgent.shift() ?? background.shift()) {
        await job();
      }
    } finally {
      running = false;
    }
  };
  const schedule = <T>(fn: () => Promise<T>, first: boolean): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      (first ? urgent : background).push(() => fn().then(resolve, reject));
      void pump();
    });

  const fail = (reason: string) => {
    if (hub.get().state !== 'failed') hub.set({ state: 'failed', reason });
  };

  const start = () => {
    if (!loading) {
      hub.set({ state: 'loading' });
      const t0 = performance.now();
      loading = Promise.resolve()
        .then(load)
        .then((encoder) => {
          hub.set({ state: 'ready', loadMs: performance.now() - t0 });
          return encoder;
        })
        .catch((err) => {
          fail(`the sentence encoder did not load (${messageOf(err)})`);
          return undefined;
        });
    }
    return loading;
  };

  const remember = (key: string, v: Float32Array) => {
    if (vectors.size >= VECTORS_KEPT) vectors.delete(vectors.keys().next().value as string);
    vectors.set(key, v);
  };

  const finish = (c: Catalogue) => {
    const first = vectors.get(c.keys[0]);
    const dims = first?.length ?? 0;
    const matrix = new Float32Array(c.keys.length * dims);
    for (const [i, k] of c.keys.entries()) {
      const v = vectors.get(k);
      if (!v || v.length !== dims) return false;
      matrix.set(v, i * dims);
    }
    c.matrix = matrix;
    c.dims = dims;
    return true;
  };

  const fill = async (c: Catalogue) => {
    const encoder = await start();
    if (!encoder) return;
    let missing = [...c.texts.keys()].filter((k) => !vectors.has(k));
    if (missing.length && cache) {
      try {
        const found = await cache.getMany(missing);
        found.forEach((v, i) => {
          if (v instanceof Float32Array && v.length > 0) remember(missing[i], v);
        });
      } catch {
        // A cache that cannot be read only costs model calls.
      }
      missing = missing.filter((k) => !vectors.has(k));
    }
    c.done = c.total - missing.length;
    for (let i = 0; i < missing.length; i += batch) {
      const part = missing.slice(i, i + batch);
      let got: ArrayLike<number>[];
      try {
        got = await schedule(() => encoder.embed(part.map((k) => c.texts.get(k) as string)), false);
      } catch (err) {
        fail(`the sentence encoder failed on a tool (${messageOf(err)})`);
        return;
      }
      const entries: [string, Float32Array][] = part.map((k, j) => [k, unit(got[j] ?? [])]);
      for (const [k, v] of entries) remember(k, v);
      c.done += part.length;
      if (cache) cache.setMany(entries).catch(() => {});
    }
    if (!finish(c)) fail('the sentence encoder gave vectors of different sizes');
  };

  const prepare = (key: string, tools: readonly SentenceTool[]) => {
    if (catalogues.has(key) || hub.get().state === 'failed') return;
    const keys = tools.map((t) => vectorKey(t.text));
    const texts = new Map<string, string>();
    tools.forEach((t, i) => void texts.set(keys[i], t.text));
    const c: Catalogue = { keys, texts, total: texts.size, done: 0 };
    if (catalogues.size >= CATALOGUES_KEPT) catalogues.delete(catalogues.keys().next().value as string);
    catalogues.set(key, c);
    if (tools.length === 0) {
      c.matrix = new Float32Array(0);
      c.dims = 0;
      return;
    }
    void fill(c);
  };

  return {
    hub,
    start,
    prepare,
    /** Cosines of `query` with the tools of catalogue `key` (prepared with `tools` if it is new). */
    async answer(key: string, query: string, tools?: readonly SentenceTool[]): Promise<SentenceReply> {
      if (!catalogues.has(key)) {
        if (!tools) return { unknown: true };
        prepare(key, tools);
      }
      const status = hub.get();
      if (status.state === 'failed') return { failed: status.reason };
      const c = catalogues.get(key);
      if (!c) return { unknown: true };
      if (!c.matrix || c.dims === undefined) return { pending: { done: c.done, total: c.total } };
      const encoder = await start();
      if (!encoder) {
        const s = hub.get();
        return { failed: s.state === 'failed' ? s.reason : 'the sentence encoder did not load' };
      }
      let q: Float32Array;
      try {
        const [v] = await schedule(() => encoder.embed([query.slice(0, SENTENCE_QUERY_CHARS)]), true);
        q = unit(v ?? []);
      } catch (err) {
        return { failed: `the sentence encoder failed on the query (${messageOf(err)})` };
      }
      const d = c.dims;
      const out = new Float32Array(c.keys.length);
      if (q.length !== d) return { failed: 'the query vector has another size than the tools' };
      for (let i = 0; i < out.length; i++) {
        let s = 0;
        const o = i * d;
        for (let k = 0; k < d; k++) s += q[k] * c.matrix[o + k];
        out[i] = s;
      }
      return { cosines: out };
    },
  };
}

/** The answer ToolSearch reads, from the core's reply over `tools`. */
export function answerOf(reply: SentenceReply | undefined, tools: readonly SentenceTool[]): SentenceAnswer {
  if (!reply) return { lexicalOnly: 'the sentence encoder did not answer in time' };
  if ('cosines' in reply) {
    const m = new Map<string, number>();
    tools.forEach((t, i) => {
      const c = reply.cosines[i];
      if (c !== undefined && !m.has(t.name)) m.set(t.name, c);
    });
    return { cosines: m };
  }
  if ('pending' in reply) {
    return {
      lexicalOnly: `the sentence encoder is still reading the tools (${reply.pending.done} of ${reply.pending.total})`,
    };
  }
  if ('failed' in reply) return { lexicalOnly: reply.failed };
  return { lexicalOnly: 'the sentence encoder lost this catalogue' };
}

/** The stage as ToolSearch sees it. */
export interface SentenceStage {
  /** Starts loading the encoder (idempotent). Never throws. */
  warm(): void;
  /** Starts embedding the tools of catalogue `key` (once per key). Never throws. */
  prepare(key: string, tools: readonly SentenceTool[]): void;
  /** Cosines of `query` with each of `tools` (catalogue `key`), within `waitMs`. Never rejects. */
  cosines(
    key: string,
    tools: readonly SentenceTool[],
    query: string,
    waitMs: number,
  ): Promise<SentenceAnswer>;
  status(): SentenceStatus;
  subscribe(listener: (status: SentenceStatus) => void): () => void;
}

/** A stage that runs in this thread (tests, benchmarks). */
export function createInProcessSentenceStage(
  load: () => Promise<SentenceEncoder>,
  cache?: VectorCache,
  batch?: number,
): SentenceStage {
  const core = createSentenceCore(load, cache, batch);
  return {
    warm: () => void core.start(),
    prepare: core.prepare,
    async cosines(key, tools, query, waitMs) {
      const reply = await Promise.race([core.answer(key, query, tools), timeout<SentenceReply>(waitMs)]);
      return answerOf(reply, tools);
    },
    status: core.hub.get,
    subscribe: core.hub.subscribe,
  };
}

/** Messages to and from ./sentence-worker.ts. */
export type SentenceRequest =
  | { type: 'start'; cacheDb?: string }
  | { type: 'prepare'; key: string; tools: SentenceTool[] }
  | { type: 'query'; id: number; key: string; query: string; tools?: SentenceTool[] };
export type SentenceWorkerReply =
  | { type: 'status'; status: SentenceStatus }
  | { type: 'answer'; id: number; reply: SentenceReply };

/**
 * A stage in a Worker made by `spawn`; `cacheDb` names the IndexedDB database the worker keeps vectors in
 * (the page's storage namespace applies). A worker that cannot start marks the stage failed; one whose
 * encoder fails to load or that dies is replaced once by a fresh worker, then the stage stays failed.
 */
export function createWorkerSentenceStage(spawn: () => Worker, cacheDb?: string): SentenceStage {
  const hub = statusHub<SentenceStatus>({ state: 'idle' });
  const sent = new Set<string>();
  const worker = stageWorker<SentenceStatus, SentenceRequest, SentenceReply>({
    spawn,
    hub,
    start: { type: 'start', ...(cacheDb ? { cacheDb } : {}) },
    answerOf: (reply) => {
      const m = reply as SentenceWorkerReply;
      return m.type === 'answer' ? { id: m.id, answer: m.reply } : undefined;
    },
    // One fresh worker after a failure: TF.js's WASM start-up can lose a race against the package's own
    // start on import ("The WASM backend was already initialized"), and a file can fail to load once.
    restart: { times: 1, status: { state: 'loading' }, forget: () => sent.clear() },
  });
  const ensure = worker.ensure;
  const post = worker.post;
  const ask = (key: string, query: string, tools?: readonly SentenceTool[]) =>
    worker.request((id) => ({ type: 'query', id, key, query, ...(tools ? { tools: [...tools] } : {}) }));
  return {
    warm: () => void ensure(),
    prepare(key, tools) {
      if (!ensure() || sent.has(key)) return;
      if (post({ type: 'prepare', key, tools: [...tools] })) sent.add(key);
    },
    async cosines(key, tools, query, waitMs) {
      if (!ensure()) {
        const s = hub.get();
        return { lexicalOnly: s.state === 'failed' ? s.reason : 'the sentence encoder is off' };
      }
      const work = (async () => {
        let reply = await ask(key, query, sent.has(key) ? undefined : tools);
        sent.add(key);
        if (reply && 'unknown' in reply) reply = await ask(key, query, tools);
        return reply;
      })();
      const reply = await Promise.race([work, timeout<SentenceReply>(waitMs)]);
      return answerOf(reply, tools);
    },
    status: hub.get,
    subscribe: hub.subscribe,
  };
}
