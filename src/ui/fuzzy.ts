/**
 * A small fuzzy matcher for the prompt box's menus (commands, files): the query's characters in order,
 * anywhere in the candidate, scored so that a prefix, a run of consecutive characters and matches at
 * the start of a path segment or word rank first. Case-insensitive. Pure.
 */

/** The score of `candidate` for `query` (higher is better), or null when it does not match. */
export function fuzzyScore(query: string, candidate: string): number | null {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  if (q === '') return 0;
  let score = 0;
  let at = 0;
  let run = 0;
  for (const ch of q) {
    const found = c.indexOf(ch, at);
    if (found < 0) return null;
    const boundary = found === 0 || '/_-.: '.includes(c[found - 1]);
    run = found === at ? run + 1 : 0;
    score += 1 + run * 2 + (boundary ? 3 : 0) - Math.min(found - at, 5) * 0.2;
    at = found + 1;
  }
  if (c.startsWith(q)) score += 10;
  // Shorter candidates win ties (`src/a.ts` before `src/deep/nested/a.ts`).
  return score - c.length * 0.01;
}

/** The candidates that match, best first (at most `limit`). */
export function fuzzyFilter<T>(
  query: string,
  items: readonly T[],
  key: (item: T) => string,
  limit = 50,
): T[] {
  const scored: Array<{ item: T; score: number }> = [];
  for (const item of items) {
    const score = fuzzyScore(query, key(item));
    if (score !== null) scored.push({ item, score });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, limit).map((s) => s.item);
}
