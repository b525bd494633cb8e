/**
 * A learned map between query and tool vectors (experiment `linmap` of ./tool-search-experiments.ts): a
 * d × d matrix W fitted by ridge regression so that a query's word-vector centroid, times W, lands near
 * its gold tools' centroids (the tuning split's labelled pairs). It learns directions of the word space
 * (how request wording relates to tool wording), not tools: measured with W fitted on the other fold of
 * tools, like the bridge (./tool-search-bridge.ts). The dense score cos(xW, t) re-scores the lexical
 * ranking's top tools. TUNING split only.
 */
import type { WordVectors } from '../src/tools/tool-search/semantic.ts';
import { STOP_WORDS, words as wordsOf } from '../src/tools/tool-search/tokenize.ts';
import type { CatalogueEntry } from './mcp-catalogue.ts';
import type { TrainingSet } from './tool-search-bridge.ts';
import type { LabelledQuery } from './tool-search-eval.ts';
import type { Knobs } from './tool-search-experiments-query.ts';

/** A unit centroid of the text's words that have vectors, rarer words (later table rows) weighing more. */
export function centroid(vectors: WordVectors, text: string): Float64Array {
  const d = vectors.dims;
  const out = new Float64Array(d);
  for (const w of wordsOf(text)) {
    if (!/^[a-z]{2,}$/.test(w) || STOP_WORDS.has(w)) continue;
    const r = vectors.rows.get(w);
    if (r === undefined) continue;
    const weight = Math.log(1 + r / 50);
    for (let k = 0; k < d; k++) out[k] += weight * vectors.data[r * d + k];
  }
  return normalize(out);
}

function normalize(v: Float64Array): Float64Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let k = 0; k < v.length; k++) v[k] /= n;
  return v;
}

/** A tool's text for its vector: name twice, description start, parameter names. */
export function toolVectorText(e: { tool: string; description: string; params: string[] }): string {
  return `${e.tool} ${e.tool} ${e.description.slice(0, 600)} ${e.params.join(' ')}`;
}

const paramsOf = (e: CatalogueEntry) => Object.keys((e.inputSchema.properties ?? {}) as object);

/** Solves A x = B (A: d × d, B: d × d) by Gauss-Jordan with partial pivoting; returns x. */
function solve(a: Float64Array[], b: Float64Array[]): Float64Array[] {
  const d = a.length;
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let r = c + 1; r < d; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    [b[c], b[p]] = [b[p], b[c]];
    const inv = 1 / a[c][c];
    for (let k = 0; k < d; k++) {
      a[c][k] *= inv;
      b[c][k] *= inv;
    }
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const f = a[r][c];
      if (f === 0) continue;
      for (let k = 0; k < d; k++) {
        a[r][k] -= f * a[c][k];
        b[r][k] -= f * b[c][k];
      }
    }
  }
  return b;
}

/**
 * W = (XᵀX + λI)⁻¹ XᵀY over the kept (query, gold tool) pairs (knob `lambda`, default 1; each tool's
 * pairs capped at `perTool`, default 20, so MetaTool's many queries per tool do not decide).
 */
export function fitLinearMap(
  vectors: WordVectors,
  sets: readonly TrainingSet[],
  k: Knobs,
  keepTool: (tool: string) => boolean = () => true,
  keepQuery: (q: LabelledQuery) => boolean = () => true,
): Float64Array[] {
  const d = vectors.dims;
  const xtx = Array.from({ length: d }, () => new Float64Array(d));
  const xty = Array.from({ length: d }, () => new Float64Array(d));
  const used = new Map<string, number>();
  const toolVec = new Map<string, Float64Array>();
  for (const set of sets) {
    for (const q of set.queries) {
      if (!keepQuery(q)) continue;
      const x = centroid(vectors, q.text);
      for (const g of q.gold) {
        const e = set.tools.get(g);
        if (!e || !keepTool(g)) continue;
        const n = used.get(g) ?? 0;
        if (n >= (k.perTool ?? 20)) continue;
        used.set(g, n + 1);
        let y = toolVec.get(g);
        if (!y) {
          y = centroid(
            vectors,
            toolVectorText({ tool: e.tool, description: e.description, params: paramsOf(e) }),
          );
          toolVec.set(g, y);
        }
        for (let i = 0; i < d; i++) {
          if (x[i] === 0) continue;
          for (let j = 0; j < d; j++) {
            xtx[i][j] += x[i] * x[j];
            xty[i][j] += x[i] * y[j];
          }
        }
      }
    }
  }
  for (let i = 0; i < d; i++) xtx[i][i] += k.lambda ?? 1;
  return solve(xtx, xty);
}

/** x W, normalized. */
export function mapVector(w: Float64Array[], x: Float64Array): Float64Array {
  const d = x.length;
  const out = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    if (x[i] === 0) continue;
    for (let j = 0; j < d; j++) out[j] += x[i] * w[i][j];
  }
  return normalize(out);
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}
