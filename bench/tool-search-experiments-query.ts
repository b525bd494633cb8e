/**
 * The query-side experiments of ./tool-search-experiments.ts (clauses, bridge expansions, entity words,
 * bigrams); that file runs them and records their figures. TUNING split only.
 */
import type { AnyTool } from '../src/core/tool.ts';
import { FILE_KINDS } from '../src/tools/tool-search/entities.ts';
import { type Expansions, expandableWords, type SearchIndex } from '../src/tools/tool-search/ranking.ts';
import { type indexFor, toolSearchDoc } from '../src/tools/tool-search/search.ts';
import {
  nearestWords,
  SEMANTIC_MAX_WORDS,
  type VocabularyMatrix,
  type WordVectors,
} from '../src/tools/tool-search/semantic.ts';
import { termOf, words as wordsOf } from '../src/tools/tool-search/tokenize.ts';
import { type Bridge, bridgeExpansions } from './tool-search-bridge.ts';

export type Knobs = Record<string, number>;
export type Scored = { tool: AnyTool; score: number }[];

/** One catalogue as the experiments see it. */
export interface Pool {
  tools: AnyTool[];
  index: SearchIndex<ReturnType<typeof indexFor>['docs'][number]>;
  matrix: VocabularyMatrix;
}

/** The ranking as it is, scores over the best (./tool-search-experiments.ts). */
export type Lexical = (pool: Pool, query: string, expansions?: Expansions) => Scored;

// ----- clauses -------------------------------------------------------------------------------------

/**
 * A query's clauses: sentences, then (with `k.comma`) comma and semicolon parts, then (with `k.and`)
 * parts around "and" / "then" / "after that"; clauses with fewer than `k.minWords` (default 2) terms join
 * the one before.
 */
export function clausesOf(query: string, k: Knobs): string[] {
  let parts = query.split(/(?<=[.!?])\s+|\n+|\s+\d+[.)]\s+/);
  if (k.comma) parts = parts.flatMap((p) => p.split(/[,;:]\s+/));
  if (k.and) parts = parts.flatMap((p) => p.split(/\s+(?:and then|then|and|after that|finally|also)\s+/i));
  const out: string[] = [];
  for (const p of parts) {
    const n = wordsOf(p).filter((w) => termOf(w)).length;
    if (n === 0) continue;
    if (n < (k.minWords ?? 2) && out.length) out[out.length - 1] += ` ${p}`;
    else out.push(p);
  }
  return out;
}

/**
 * Ranks each clause on its own and fuses them with the whole query's ranking: reciprocal rank fusion
 * (`k.rrf`: its k; `k.whole`: the whole query's weight) or, without `rrf`, round-robin after the whole
 * query's first `k.lead` tools.
 */
export function clauseOrder(lexical: Lexical, pool: Pool, query: string, k: Knobs): AnyTool[] {
  const whole = lexical(pool, query);
  const clauses = clausesOf(query, k);
  if (clauses.length < 2) return whole.map((r) => r.tool);
  const lists = clauses.map((c) => lexical(pool, c).slice(0, 50));
  if (k.rrf) {
    const s = new Map<AnyTool, number>();
    const add = (list: Scored, weight: number) => {
      for (const [i, r] of list.entries()) s.set(r.tool, (s.get(r.tool) ?? 0) + weight / (k.rrf + i + 1));
    };
    add(whole.slice(0, 50), k.whole ?? 1);
    for (const l of lists) add(l, (k.each ?? 1) / (k.norm ? lists.length : 1));
    return [...s].sort((a, b) => b[1] - a[1]).map((x) => x[0]);
  }
  const out: AnyTool[] = [];
  const seen = new Set<AnyTool>();
  const push = (t: AnyTool | undefined) => {
    if (t && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  };
  for (const r of whole.slice(0, k.lead ?? 1)) push(r.tool);
  for (let depth = 0; depth < 50; depth++) for (const l of lists) push(l[depth]?.tool);
  for (const r of whole) push(r.tool);
  return out;
}

// ----- bridge --------------------------------------------------------------------------------------

/** GloVe neighbours of the query's expandable words, with the bridge's pairs (weight `k.w`) beside them. */
export function bridgedExpansions(
  vectors: WordVectors,
  pool: Pool,
  query: string,
  bridge: Bridge,
  k: Knobs,
): Expansions {
  const words = expandableWords(pool.index, query).slice(0, SEMANTIC_MAX_WORDS);
  const glove = k.noGlove ? new Map() : nearestWords(vectors, pool.matrix, words);
  const has = (w: string) => {
    const t = pool.index.vocabulary.get(w) ?? termOf(w);
    return t !== null && pool.index.postings.has(t);
  };
  const learned = bridgeExpansions(bridge, k.all ? wordsOf(query) : words, has, k.w ?? 1);
  const out = new Map<string, { word: string; similarity: number }[]>();
  for (const w of new Set([...glove.keys(), ...learned.keys()])) {
    const best = new Map<string, number>();
    for (const e of [...(glove.get(w) ?? []), ...(learned.get(w) ?? [])]) {
      if ((best.get(e.word) ?? 0) < e.similarity) best.set(e.word, e.similarity);
    }
    out.set(
      w,
      [...best].map(([word, similarity]) => ({ word, similarity })),
    );
  }
  return out;
}

// ----- entities ------------------------------------------------------------------------------------

const PATH = /(?:^|[\s"'`(])(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]*)+|(?:^|\s)[A-Za-z]:\\[\w.\\-]+/;
const FILE_NAME =
  /(?:^|\s)[\w-]+\.(?:md|txt|csv|json|xlsx?|docx?|pptx?|pdf|png|jpe?g|html?|ts|js|py|wav|mp3)\b/i;
const SAVE_VERB = /\b(?:save|saved|saving|saves|write|writes|writing|store|export|output|draft)\b/i;
const RELATIVE_TIME =
  /\b(?:today|tomorrow|yesterday|tonight|(?:next|last|this|past)\s+(?:\d+\s*)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekend|month|year|days?|hours?|\d+h))\b|\blast\s+\d+\s*h\b/i;
const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/i;

/**
 * A query's entity types as words: a file path or file name adds `k.file` ("file"), a URL adds "url"
 * (`k.url`), so "save it to /root/markdown/x.md" reaches file tools and "the page at https://…" fetchers;
 * `k.ext` adds what the extension says the file is, from the product's own table (entities.ts FILE_KINDS;
 * this file had its own copy, with csv/html and without gif/mp4: the recorded figures are the same with
 * either, 0.778 / 0.437 / 0.658 for file + saveVerb + url + urlWords + ext).
 */
export function withEntities(query: string, k: Knobs): string {
  const extra: string[] = [];
  if (k.file && (PATH.test(query) || FILE_NAME.test(query))) {
    extra.push('file');
    if (k.fileWords || (k.saveVerb && SAVE_VERB.test(query))) extra.push('write');
  }
  if (k.time && RELATIVE_TIME.test(query)) extra.push(k.timeWords ? 'current date time' : 'current time');
  if (k.url && URL.test(query)) extra.push(k.urlWords ? 'url fetch' : 'url');
  if (k.ext) {
    for (const m of query.matchAll(/\.(\w{2,5})\b/g)) {
      const kind = FILE_KINDS[m[1].toLowerCase()];
      if (kind && !extra.includes(kind)) extra.push(kind);
    }
  }
  return extra.length ? `${query} ${extra.join(' ')}` : query;
}

// ----- bigrams -------------------------------------------------------------------------------------

const docBigrams = new WeakMap<AnyTool, Set<string>>();

/** Adjacent term pairs of a tool's name, description and parameter names (stop words dropped first). */
function bigramsOf(tool: AnyTool, k: Knobs): Set<string> {
  let out = docBigrams.get(tool);
  if (out) return out;
  const d = toolSearchDoc(tool);
  out = new Set();
  const texts = [d.toolName ?? d.name, d.description.slice(0, 4000), ...d.params.map((p) => p.name)];
  if (k.params) texts.push(...d.params.map((p) => p.description ?? ''));
  for (const text of texts) {
    const ts = wordsOf(text)
      .map(termOf)
      .filter((t): t is string => t !== null);
    for (let i = 1; i < ts.length; i++) {
      out.add(`${ts[i - 1]} ${ts[i]}`);
      if (k.unordered) out.add(`${ts[i]} ${ts[i - 1]}`);
    }
  }
  docBigrams.set(tool, out);
  return out;
}

/**
 * Proximity: the lexical ranking's top 200 re-scored with the share (by IDF) of the query's adjacent term
 * pairs that a tool's text also has adjacent, at weight `k.lam`.
 */
export function bigramOrder(lexical: Lexical, pool: Pool, query: string, k: Knobs): AnyTool[] {
  const base = lexical(pool, query);
  const ts = wordsOf(query)
    .map(termOf)
    .filter((t): t is string => t !== null);
  if (ts.length < 2) return base.map((r) => r.tool);
  const n = pool.tools.length;
  const idf = (t: string) => {
    const df = pool.index.postings.get(t)?.docs.length ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const pairs: { key: string; w: number }[] = [];
  for (let i = 1; i < ts.length; i++)
    pairs.push({ key: `${ts[i - 1]} ${ts[i]}`, w: idf(ts[i - 1]) + idf(ts[i]) });
  const total = pairs.reduce((s, p) => s + p.w, 0) || 1;
  const scored = base.map((r) => {
    const bg = bigramsOf(r.tool, k);
    let hit = 0;
    for (const p of pairs) if (bg.has(p.key)) hit += p.w;
    return { tool: r.tool, score: r.score + (k.lam ?? 0) * (k.abs ? hit / 10 : hit / total) };
  });
  scored.sort((a, b) => b.score - a.score);
  return scored.map((r) => r.tool);
}
