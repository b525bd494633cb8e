/**
 * A learned vocabulary bridge for ToolSearch (experiment): word-to-word associations between the words of
 * labelled queries and the words of their gold tools' text, learned from the TUNING split only, used as
 * query expansions beside the GloVe neighbours (./tool-search-experiments.ts `bridge`).
 *
 * It learns between words, never between queries and tool ids: a pair (query term q, tool term w) is
 * counted once per distinct gold tool whose text holds w and one of whose queries holds q, and kept only
 * when at least `minTools` distinct tools support it, so a pair that one tool's name explains is dropped.
 * A query term's weight at a tool is the share of that tool's queries holding it (smoothed by
 * `shareSmooth`); P(w | q) is the weight-averaged share of q's tools whose text holds w (smoothed by
 * `smooth`). A pair is kept when `minTools` tools of share ≥ `minShare` support it, P(w | q) ≥ `minP`,
 * and its lift over w's base rate ≥ `minLift`, and w is in at most a share `maxPw` of the tools; its score is P(w | q) × (1 − P(w)); q's best `top` pairs
 * are kept.
 *
 * Honest measurement on the tuning split: the tools are split into two folds by hash, and a query whose
 * first gold tool is in fold f is ranked with the table learned from the queries and tools of the OTHER
 * fold only (its own words and its tool never taught the table). `crossSource` instead learns from
 * MetaTool alone for LiveMCPBench and from LiveMCPBench alone for MetaTool.
 */
import { hashString } from '../src/core/hash.ts';
import { termOf, words as wordsOf } from '../src/tools/tool-search/tokenize.ts';
import type { CatalogueEntry } from './mcp-catalogue.ts';
import type { LabelledQuery } from './tool-search-eval.ts';

export type Knobs = Record<string, number>;

/** term → catalogue-side surface words with their association (0–1), best first. */
export type Bridge = Map<string, { word: string; score: number }[]>;

/** A tool's text as the bridge reads it: own name, description start, parameter names. */
function toolText(e: CatalogueEntry): string {
  const props = Object.keys((e.inputSchema.properties ?? {}) as Record<string, unknown>);
  return `${e.tool} ${e.description.slice(0, 600)} ${props.join(' ')}`;
}

/** The tool's distinct terms, with the most frequent surface word of each. */
function toolTerms(e: CatalogueEntry, surface: Map<string, Map<string, number>>): Set<string> {
  const out = new Set<string>();
  for (const w of wordsOf(toolText(e))) {
    if (!/^[a-z]{2,}$/.test(w)) continue;
    const t = termOf(w);
    if (!t) continue;
    out.add(t);
    let m = surface.get(t);
    if (!m) {
      m = new Map();
      surface.set(t, m);
    }
    m.set(w, (m.get(w) ?? 0) + 1);
  }
  return out;
}

function queryTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of wordsOf(text)) {
    if (!/^[a-z]{2,}$/.test(w)) continue;
    const t = termOf(w);
    if (t) out.add(t);
  }
  return out;
}

/** One labelled query with its source's catalogue entries by tool name. */
export interface TrainingSet {
  queries: readonly LabelledQuery[];
  /** Tool name → its text's entry (the first server's, when several serve it). */
  tools: ReadonlyMap<string, CatalogueEntry>;
}

/** The fold of a tool name (0 or 1), fixed by hash. */
export const foldOf = (tool: string) =>
  Number.parseInt(hashString(`tool-search-bridge-fold:${tool}`).slice(0, 8), 16) % 2;

/**
 * Learns a bridge from `sets` (knobs: minTools, top, minLift, keep(tool) filters training tools,
 * keepQuery filters queries).
 */
export function learnBridge(
  sets: readonly TrainingSet[],
  k: Knobs,
  keepTool: (tool: string) => boolean = () => true,
  keepQuery: (q: LabelledQuery) => boolean = () => true,
): Bridge {
  if (k.form === 1) return learnBridgeByTool(sets, k, keepTool, keepQuery);
  const minTools = k.minTools ?? 3;
  const top = k.top ?? 5;
  const minLift = k.minLift ?? 2;
  const surface = new Map<string, Map<string, number>>();
  // Per training tool: its terms, its queries, and how many of them hold each query term.
  const toolTermsOf = new Map<string, Set<string>>();
  const queryCounts = new Map<string, { n: number; terms: Map<string, number> }>();
  for (const set of sets) {
    for (const q of set.queries) {
      if (!keepQuery(q)) continue;
      const qt = queryTerms(q.text);
      for (const g of q.gold) {
        const e = set.tools.get(g);
        if (!e || !keepTool(g)) continue;
        const key = `${e.server}\u0000${g}`;
        if (!toolTermsOf.has(key)) toolTermsOf.set(key, toolTerms(e, surface));
        let u = queryCounts.get(key);
        if (!u) {
          u = { n: 0, terms: new Map() };
          queryCounts.set(key, u);
        }
        u.n++;
        for (const t of qt) u.terms.set(t, (u.terms.get(t) ?? 0) + 1);
      }
    }
  }
  const nTools = toolTermsOf.size;
  const toolsWith = new Map<string, number>();
  for (const ts of toolTermsOf.values()) for (const t of ts) toolsWith.set(t, (toolsWith.get(t) ?? 0) + 1);
  // A query term's weight at a tool: the share of the tool's queries that hold it (smoothed), so a word
  // one of a tool's forty queries happens to use counts 1/40, a word most of them use counts ~1.
  const mass = new Map<string, number>();
  const pair = new Map<string, Map<string, { c: number; tools: number }>>();
  const minShare = k.minShare ?? 0.2;
  for (const [key, u] of queryCounts) {
    const ts = toolTermsOf.get(key) ?? new Set<string>();
    for (const [q, cq] of u.terms) {
      const share = cq / (u.n + (k.shareSmooth ?? 1));
      mass.set(q, (mass.get(q) ?? 0) + share);
      let m = pair.get(q);
      if (!m) {
        m = new Map();
        pair.set(q, m);
      }
      for (const w of ts) {
        if (w === q) continue;
        const e = m.get(w) ?? { c: 0, tools: 0 };
        e.c += share;
        if (share >= minShare) e.tools++;
        m.set(w, e);
      }
    }
  }
  const bridge: Bridge = new Map();
  for (const [q, m] of pair) {
    const nq = mass.get(q) ?? 1;
    if (nq < (k.minMass ?? 1)) continue;
    const list: { word: string; score: number }[] = [];
    for (const [w, e] of m) {
      if (e.tools < minTools) continue;
      const pwq = e.c / (nq + (k.smooth ?? 1));
      const pw = (toolsWith.get(w) ?? 1) / nTools;
      if (pwq / pw < minLift || pwq < (k.minP ?? 0.3) || pw > (k.maxPw ?? 0.1)) continue;
      const forms = surface.get(w);
      if (!forms) continue;
      const word = [...forms].sort((a, b) => b[1] - a[1])[0][0];
      list.push({ word, score: Math.min(1, pwq * (1 - pw)) });
    }
    list.sort((a, b) => b.score - a.score);
    if (list.length) bridge.set(q, list.slice(0, top));
  }
  return bridge;
}

/**
 * The first form (`form: 1`): every query term of a tool's queries counts once per tool, whatever its
 * share; score = log-lift over log(tools) × c / (c + smooth) × scale, capped at 1; `minTools` (3) tools
 * must support a pair, lift ≥ `minLift` (2).
 */
function learnBridgeByTool(
  sets: readonly TrainingSet[],
  k: Knobs,
  keepTool: (tool: string) => boolean,
  keepQuery: (q: LabelledQuery) => boolean,
): Bridge {
  const minTools = k.minTools ?? 3;
  const minLift = k.minLift ?? 2;
  const surface = new Map<string, Map<string, number>>();
  const toolTermsOf = new Map<string, Set<string>>();
  const queryTermsOf = new Map<string, Set<string>>();
  for (const set of sets) {
    for (const q of set.queries) {
      if (!keepQuery(q)) continue;
      const qt = queryTerms(q.text);
      for (const g of q.gold) {
        const e = set.tools.get(g);
        if (!e || !keepTool(g)) continue;
        const key = `${e.server}\u0000${g}`;
        if (!toolTermsOf.has(key)) toolTermsOf.set(key, toolTerms(e, surface));
        const u = queryTermsOf.get(key) ?? new Set<string>();
        for (const t of qt) u.add(t);
        queryTermsOf.set(key, u);
      }
    }
  }
  const nTools = toolTermsOf.size;
  const toolsWith = new Map<string, number>();
  for (const ts of toolTermsOf.values()) for (const t of ts) toolsWith.set(t, (toolsWith.get(t) ?? 0) + 1);
  const qTools = new Map<string, number>();
  const pair = new Map<string, Map<string, number>>();
  for (const [key, qs] of queryTermsOf) {
    const ts = toolTermsOf.get(key) ?? new Set<string>();
    for (const q of qs) {
      qTools.set(q, (qTools.get(q) ?? 0) + 1);
      const m = pair.get(q) ?? new Map<string, number>();
      for (const w of ts) if (w !== q) m.set(w, (m.get(w) ?? 0) + 1);
      pair.set(q, m);
    }
  }
  const bridge: Bridge = new Map();
  const maxLog = Math.log(nTools || 2);
  for (const [q, m] of pair) {
    const nq = qTools.get(q) ?? 1;
    const list: { word: string; score: number }[] = [];
    for (const [w, c] of m) {
      if (c < minTools) continue;
      const lift = c / nq / ((toolsWith.get(w) ?? 1) / nTools);
      if (lift < minLift) continue;
      const conf = c / (c + (k.smooth ?? 2));
      const forms = surface.get(w);
      if (!forms) continue;
      const word = [...forms].sort((a, b) => b[1] - a[1])[0][0];
      list.push({ word, score: Math.min(1, (Math.log(lift) / maxLog) * conf * (k.scale ?? 2)) });
    }
    list.sort((a, b) => b.score - a.score);
    if (list.length) bridge.set(q, list.slice(0, k.top ?? 5));
  }
  return bridge;
}

/** Bridge pairs in a table (for size estimates): term → words. */
export function bridgeSize(bridge: Bridge): { terms: number; pairs: number; bytes: number } {
  let pairs = 0;
  let bytes = 0;
  for (const [q, list] of bridge) {
    pairs += list.length;
    bytes += q.length + 2 + list.reduce((s, e) => s + e.word.length + 4, 0);
  }
  return { terms: bridge.size, pairs, bytes };
}

/** The bridge's expansions of `queryWords` (surface words), only words the catalogue has (`has`). */
export function bridgeExpansions(
  bridge: Bridge,
  queryWords: readonly string[],
  has: (word: string) => boolean,
  weight: number,
): Map<string, { word: string; similarity: number }[]> {
  const out = new Map<string, { word: string; similarity: number }[]>();
  for (const w of queryWords) {
    const t = termOf(w);
    const list = t ? bridge.get(t) : undefined;
    if (!list) continue;
    out.set(
      w,
      list.filter((e) => has(e.word)).map((e) => ({ word: e.word, similarity: e.score * weight })),
    );
  }
  return out;
}

/**
 * Learned query-term weights: how often a query word turns out to be in its gold tool's text (name,
 * description start, parameter names), against the average word's rate. "show", "make", "report" are
 * words queries use for many things, so a tool that happens to hold them is weak evidence; "weather",
 * "github" usually name what is wanted. A property of the word, not of any tool: learned over the
 * training tools, it applies to any catalogue. A term's weight is ((m + a·p0) / (n + a) / p0)^gamma,
 * clipped to [lo, hi], over n (query, gold tool) pairs whose query holds it, m of them with it in the
 * tool's text; p0 is the rate over all pairs; terms seen in fewer than `minSeen` pairs are left out (1).
 * Each tool counts at most `perTool` pairs per term (MetaTool's many queries per tool would otherwise make
 * a few tools decide).
 */
export function learnTermWeights(
  sets: readonly TrainingSet[],
  k: Knobs,
  keepTool: (tool: string) => boolean = () => true,
  keepQuery: (q: LabelledQuery) => boolean = () => true,
): Map<string, number> {
  const surface = new Map<string, Map<string, number>>();
  const toolTermsOf = new Map<string, Set<string>>();
  const seen = new Map<string, { n: number; m: number }>();
  const perTool = new Map<string, number>();
  const cap = k.perTool ?? 5;
  let n0 = 0;
  let m0 = 0;
  for (const set of sets) {
    for (const q of set.queries) {
      if (!keepQuery(q)) continue;
      const qt = queryTerms(q.text);
      for (const g of q.gold) {
        const e = set.tools.get(g);
        if (!e || !keepTool(g)) continue;
        const key = `${e.server}\u0000${g}`;
        let ts = toolTermsOf.get(key);
        if (!ts) {
          ts = toolTerms(e, surface);
          toolTermsOf.set(key, ts);
        }
        for (const t of qt) {
          const pk = `${key}\u0000${t}`;
          const used = perTool.get(pk) ?? 0;
          if (used >= cap) continue;
          perTool.set(pk, used + 1);
          const s = seen.get(t) ?? { n: 0, m: 0 };
          s.n++;
          n0++;
          if (ts.has(t)) {
            s.m++;
            m0++;
          }
          seen.set(t, s);
        }
      }
    }
  }
  const p0 = m0 / Math.max(1, n0);
  const a = k.a ?? 3;
  const out = new Map<string, number>();
  for (const [t, s] of seen) {
    if (s.n < (k.minSeen ?? 3)) continue;
    const rate = (s.m + a * p0) / (s.n + a);
    const w = (rate / p0) ** (k.gamma ?? 0.5);
    out.set(t, Math.min(k.hi ?? 1.5, Math.max(k.lo ?? 0.3, w)));
  }
  return out;
}
