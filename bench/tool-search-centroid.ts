/**
 * Experiment `centroid` of ./tool-search-experiments.ts (TUNING split only; not adopted, figures there):
 * the lexical ranking's top tools re-scored with a dense score, the cosine between the query's
 * word-vector centroid and each tool's, built on the shipped GloVe table.
 *
 * Word weights: smooth inverse frequency (SIF, Arora, Liang & Ma 2017, "A simple but tough-to-beat
 * baseline for sentence embeddings"): a / (a + p(w)), p(w) estimated from the word's frequency rank in
 * the table (it lists words by corpus frequency; Zipf's law), so "get", "data" and "information" weigh
 * little and "currency" or "lyrics" much; or (`rank`) the log of the rank, the `linmap` identity form.
 * The catalogue's common directions (the first principal components of its tool vectors: what every
 * tool's text shares) are removed from tool and query vectors, as SIF does, so the cosine compares what
 * tells tools apart. Knobs beyond that: score scaling (min-max over the head, raw cosine, z-scores over
 * the catalogue), the query's concentration (mean resultant length) scaling the weight, a multi-vector
 * query (a tool scored by its best sentence), and maximal marginal relevance over the head.
 *
 * Written so it could move into the product as is (the worker would build the tool matrix per catalogue
 * and return each query's scores); it stays here while no setting keeps every tuning source.
 */
import type { AnyTool } from '../src/core/tool.ts';
import type { SearchDoc } from '../src/tools/tool-search/ranking.ts';
import { toolSearchDoc } from '../src/tools/tool-search/search.ts';
import type { WordVectors } from '../src/tools/tool-search/semantic.ts';
import { STOP_WORDS, words as wordsOf } from '../src/tools/tool-search/tokenize.ts';
import type { Knobs, Lexical, Pool } from './tool-search-experiments-query.ts';

/** Characters of a tool's description that go into its vector (the start says what it does). */
export const TOOL_VECTOR_DESCRIPTION_CHARS = 600;
/** Characters of a query read for its vector. */
export const QUERY_VECTOR_CHARS = 1000;
/** SIF's smoothing constant a: words more frequent than about this share of running text weigh little. */
export const SIF_SMOOTHING = 1e-3;
/** Principal components of the catalogue's tool vectors removed (SIF's common-component removal). */
export const COMMON_COMPONENTS = 1;

/** How word weights are computed (the benchmark's `centroid` experiment compares them). */
export interface CentroidOptions {
  /** 'sif' (the product), 'rank' (log of the frequency rank, the earlier `linmap` experiment's form). */
  weighting?: 'sif' | 'rank';
  /** Principal components removed (default COMMON_COMPONENTS). */
  removeCommon?: number;
  /** SIF's a (default SIF_SMOOTHING). */
  smoothing?: number;
}

/** The text of a tool's vector: its name twice (short and decisive), description start, parameter names. */
export function toolVectorText(doc: SearchDoc): string {
  const name = doc.toolName ?? doc.name;
  return `${name} ${name} ${doc.description.slice(0, TOOL_VECTOR_DESCRIPTION_CHARS)} ${doc.params
    .map((p) => p.name)
    .join(' ')}`;
}

/** The tool vectors of one catalogue: unit rows (a tool with no known word has a zero row). */
export interface ToolMatrix {
  count: number;
  dims: number;
  data: Float32Array;
  /** Unit directions removed from every vector (the catalogue's common components). */
  common: Float32Array[];
  options: Required<CentroidOptions>;
}

/** Zipf's estimate of a word's share of running text from its 0-based frequency rank among `total`. */
function zipfShare(rank: number, total: number): number {
  // Harmonic number of the table's vocabulary ~ ln(N) + Euler–Mascheroni.
  return 1 / ((rank + 1) * (Math.log(total) + 0.5772));
}

function weightOf(rank: number, total: number, o: Required<CentroidOptions>): number {
  if (o.weighting === 'rank') return Math.log(1 + rank / 50);
  return o.smoothing / (o.smoothing + zipfShare(rank, total));
}

/** The weighted sum of the vectors of `text`'s words (a–z, not stop words, in the table), not normalized. */
function weightedSum(vectors: WordVectors, text: string, o: Required<CentroidOptions>, out: Float64Array) {
  const d = vectors.dims;
  const total = vectors.words.length;
  out.fill(0);
  let any = false;
  for (const w of wordsOf(text)) {
    if (w.length < 2 || STOP_WORDS.has(w)) continue;
    const r = vectors.rows.get(w);
    if (r === undefined) continue;
    const weight = weightOf(r, total, o);
    const base = r * d;
    for (let k = 0; k < d; k++) out[k] += weight * vectors.data[base + k];
    any = true;
  }
  return any;
}

function normalizeInto(v: Float64Array, out: Float32Array, offset: number): void {
  let n = 0;
  for (let k = 0; k < v.length; k++) n += v[k] * v[k];
  n = Math.sqrt(n);
  if (n === 0) return;
  for (let k = 0; k < v.length; k++) out[offset + k] = v[k] / n;
}

/** Removes the projections on `common` (unit, orthogonal) from v. */
function removeProjections(v: Float64Array, common: readonly Float32Array[]): void {
  for (const c of common) {
    let p = 0;
    for (let k = 0; k < v.length; k++) p += v[k] * c[k];
    for (let k = 0; k < v.length; k++) v[k] -= p * c[k];
  }
}

/** Power iterations for each principal component (deterministic start, enough for a d ≤ 300 matrix). */
const POWER_ITERATIONS = 50;

/**
 * The first `count` principal directions (uncentered, as SIF) of the rows of `data`: power iteration on
 * XᵀX with deflation. Deterministic.
 */
function principalDirections(data: Float32Array, rows: number, d: number, count: number): Float32Array[] {
  const out: Float32Array[] = [];
  if (rows === 0) return out;
  const cov = new Float64Array(d * d);
  for (let i = 0; i < rows; i++) {
    const o = i * d;
    for (let a = 0; a < d; a++) {
      const x = data[o + a];
      if (x === 0) continue;
      for (let b = 0; b < d; b++) cov[a * d + b] += x * data[o + b];
    }
  }
  for (let c = 0; c < count; c++) {
    let v = new Float64Array(d).fill(1 / Math.sqrt(d));
    let lambda = 0;
    for (let it = 0; it < POWER_ITERATIONS; it++) {
      const next = new Float64Array(d);
      for (let a = 0; a < d; a++) {
        let s = 0;
        for (let b = 0; b < d; b++) s += cov[a * d + b] * v[b];
        next[a] = s;
      }
      let n = 0;
      for (const x of next) n += x * x;
      n = Math.sqrt(n);
      if (n === 0) return out;
      for (let a = 0; a < d; a++) next[a] /= n;
      lambda = n;
      v = next;
    }
    out.push(Float32Array.from(v));
    // Deflate: cov -= λ v vᵀ.
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) cov[a * d + b] -= lambda * v[a] * v[b];
  }
  return out;
}

/** The tool vectors of a catalogue, from each tool's vector text (toolVectorText), in catalogue order. */
export function buildToolMatrix(
  vectors: WordVectors,
  toolTexts: readonly string[],
  options: CentroidOptions = {},
): ToolMatrix {
  const o: Required<CentroidOptions> = {
    weighting: options.weighting ?? 'sif',
    removeCommon: options.removeCommon ?? COMMON_COMPONENTS,
    smoothing: options.smoothing ?? SIF_SMOOTHING,
  };
  const d = vectors.dims;
  const n = toolTexts.length;
  const data = new Float32Array(n * d);
  const sum = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    if (weightedSum(vectors, toolTexts[i], o, sum)) normalizeInto(sum, data, i * d);
  }
  const common = o.removeCommon > 0 ? principalDirections(data, n, d, o.removeCommon) : [];
  if (common.length) {
    const row = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < d; k++) row[k] = data[i * d + k];
      removeProjections(row, common);
      data.fill(0, i * d, i * d + d);
      normalizeInto(row, data, i * d);
    }
  }
  return { count: n, dims: d, data, common, options: o };
}

/** A query's dense scores: the cosine with each tool (catalogue order), and how focused the query is. */
export interface ToolScores {
  scores: Float32Array;
  /**
   * The mean resultant length of the query's word vectors (common components removed): |Σ wᵢvᵢ| / Σ wᵢ|vᵢ|,
   * 1 when every word points the same way, lower when the query's words go several ways (a question that
   * asks for three tools' worth of work). Its centroid then stands for none of them well.
   */
  concentration: number;
}

/**
 * The cosine between `query`'s vector and each tool's, in catalogue order, and the query's concentration;
 * undefined when no word of the query has a vector (nothing to compare).
 */
export function toolScores(vectors: WordVectors, matrix: ToolMatrix, query: string): ToolScores | undefined {
  const d = matrix.dims;
  const o = matrix.options;
  const total = vectors.words.length;
  const q = new Float64Array(d);
  const word = new Float64Array(d);
  let lengths = 0;
  for (const w of wordsOf(query.slice(0, QUERY_VECTOR_CHARS))) {
    if (w.length < 2 || STOP_WORDS.has(w)) continue;
    const r = vectors.rows.get(w);
    if (r === undefined) continue;
    const weight = weightOf(r, total, o);
    for (let k = 0; k < d; k++) word[k] = vectors.data[r * d + k] / 127;
    removeProjections(word, matrix.common);
    let n = 0;
    for (let k = 0; k < d; k++) {
      q[k] += weight * word[k];
      n += word[k] * word[k];
    }
    lengths += weight * Math.sqrt(n);
  }
  if (lengths === 0) return undefined;
  let norm = 0;
  for (let k = 0; k < d; k++) norm += q[k] * q[k];
  norm = Math.sqrt(norm);
  if (norm === 0) return undefined;
  const unit = new Float32Array(d);
  for (let k = 0; k < d; k++) unit[k] = q[k] / norm;
  const scores = new Float32Array(matrix.count);
  for (let i = 0; i < matrix.count; i++) {
    let s = 0;
    const base = i * d;
    for (let k = 0; k < d; k++) s += unit[k] * matrix.data[base + k];
    scores[i] = s;
  }
  return { scores, concentration: Math.min(1, norm / lengths) };
}

/**
 * The first `top` of `ranked` (scores over the best one's) each gain `weight` × their dense score,
 * min-max scaled over those `top` (or as is, `scale` 'none'); the rest keep their order behind them.
 */
export function rescoreWithToolScores<D>(
  ranked: readonly { doc: D; score: number }[],
  denseOf: (doc: D) => number | undefined,
  top: number,
  weight: number,
  scale: 'minmax' | 'none' = 'minmax',
): { doc: D; score: number }[] {
  const head = ranked.slice(0, top);
  if (head.length < 2 || weight <= 0) return [...ranked];
  const best = head[0].score || 1;
  const dense = head.map((r) => denseOf(r.doc));
  const known = dense.filter((x): x is number => x !== undefined && Number.isFinite(x));
  let lo = Math.min(...known);
  let hi = Math.max(...known);
  if (scale === 'none') {
    lo = 0;
    hi = 1;
  }
  if (!(hi > lo)) return [...ranked];
  const rescored = head.map((r, i) => {
    const x = dense[i];
    const scaled = x !== undefined && Number.isFinite(x) ? (x - lo) / (hi - lo) : 0;
    return { r, i, s: r.score / best + weight * scaled };
  });
  rescored.sort((a, b) => b.s - a.s || a.i - b.i);
  return [
    ...rescored.map((x) => ({ doc: x.r.doc, score: x.s })),
    ...ranked.slice(top).map((r) => ({ doc: r.doc, score: r.score / best })),
  ];
}

const toolMatrices = new Map<string, { tools: AnyTool[]; matrix: ToolMatrix }>();

/**
 * The product's dense re-scoring (../src/tools/tool-search/semantic-tools.ts, ranking.ts
 * rescoreWithToolScores) with its knobs varied: `rank` 1 weighs words by the log of their frequency rank
 * (the `linmap` identity form) instead of SIF, `pcs` common components removed, `a` SIF's smoothing,
 * `top` tools re-scored, `beta` the dense score's weight.
 */
export function centroidOrder(
  lexical: Lexical,
  vectors: WordVectors,
  pool: Pool,
  query: string,
  k: Knobs,
): AnyTool[] {
  const options: CentroidOptions = {
    weighting: k.rank ? 'rank' : 'sif',
    removeCommon: k.pcs ?? COMMON_COMPONENTS,
    smoothing: k.a ?? SIF_SMOOTHING,
  };
  const key = JSON.stringify(options);
  let cached = toolMatrices.get(key);
  if (!cached || cached.tools !== pool.tools) {
    const texts = pool.tools.map((t) => toolVectorText(toolSearchDoc(t)));
    cached = { tools: pool.tools, matrix: buildToolMatrix(vectors, texts, options) };
    toolMatrices.set(key, cached);
  }
  const dense = toolScores(vectors, cached.matrix, query);
  const ranked = lexical(pool, query);
  if (!dense) return ranked.map((r) => r.tool);
  const scores = dense.scores;
  if (k.sent) {
    // A query of several sentences: each sentence's own vector, a tool scored by its best sentence.
    const parts = query.split(k.sent > 1 ? /(?<=[.!?;,])\s+|\n+/ : /(?<=[.!?;])\s+|\n+/);
    for (const part of parts.length > 1 ? parts : []) {
      const own = toolScores(vectors, cached.matrix, part);
      if (own) for (let i = 0; i < scores.length; i++) scores[i] = Math.max(scores[i], own.scores[i]);
    }
  }
  const focus = k.conc ? dense.concentration ** k.conc : 1;
  if (k.z) {
    // Standard scores over the whole catalogue: how far above a typical tool each tool lies.
    let mean = 0;
    for (const x of scores) mean += x;
    mean /= scores.length;
    let v = 0;
    for (const x of scores) v += (x - mean) ** 2;
    const sd = Math.sqrt(v / scores.length) || 1;
    for (let i = 0; i < scores.length; i++) scores[i] = (scores[i] - mean) / sd;
  }
  const position = new Map(pool.tools.map((t, i) => [t, i]));
  const rescored = rescoreWithToolScores(
    ranked.map((r) => ({ doc: r.tool, score: r.score })),
    (tool) =>
      k.prec
        ? coverage(vectors, toolVectorText(toolSearchDoc(tool)), query)
        : scores[position.get(tool) ?? -1],
    k.top ?? 10,
    (k.beta ?? 0.2) * focus,
    k.raw || k.z ? 'none' : 'minmax',
  );
  if (!k.mmr) return rescored.map((r) => r.doc);
  // Maximal marginal relevance over the re-scored head: each pick pays `mmr` × its cosine with the
  // closest tool picked before it.
  const d = cached.matrix.dims;
  const data = cached.matrix.data;
  const head = rescored.slice(0, k.top ?? 10);
  const cos = (a: AnyTool, b: AnyTool) => {
    const i = position.get(a) ?? 0;
    const j = position.get(b) ?? 0;
    let s = 0;
    for (let x = 0; x < d; x++) s += data[i * d + x] * data[j * d + x];
    return s;
  };
  const picked: AnyTool[] = [];
  const left = [...head];
  while (left.length) {
    let bi = 0;
    let bv = Number.NEGATIVE_INFINITY;
    left.forEach((r, i) => {
      const penalty = picked.length ? Math.max(...picked.map((p) => cos(p, r.doc))) : 0;
      const v = r.score - k.mmr * Math.max(0, penalty);
      if (v > bv) {
        bv = v;
        bi = i;
      }
    });
    picked.push(left[bi].doc);
    left.splice(bi, 1);
  }
  return [...picked, ...rescored.slice(head.length).map((r) => r.doc)];
}

/**
 * How much of a tool's text the query speaks of (`prec`, BERTScore's precision direction): over the
 * tool's distinct words, SIF-weighted, the best cosine of each with any query word (floored at 0).
 */
function coverage(vectors: WordVectors, toolText: string, query: string): number {
  const d = vectors.dims;
  const total = vectors.words.length;
  const rowsOf = (text: string) => {
    const out = new Set<number>();
    for (const w of wordsOf(text)) {
      if (w.length < 2 || STOP_WORDS.has(w)) continue;
      const r = vectors.rows.get(w);
      if (r !== undefined) out.add(r);
    }
    return [...out];
  };
  const q = rowsOf(query.slice(0, QUERY_VECTOR_CHARS));
  if (q.length === 0) return 0;
  let sum = 0;
  let weights = 0;
  for (const t of rowsOf(toolText)) {
    const w = SIF_SMOOTHING / (SIF_SMOOTHING + zipfShare(t, total));
    let best = 0;
    for (const r of q) {
      let c = 0;
      for (let x = 0; x < d; x++) c += vectors.data[t * d + x] * vectors.data[r * d + x];
      if (c > best) best = c;
    }
    sum += (w * best) / (127 * 127);
    weights += w;
  }
  return weights ? sum / weights : 0;
}
