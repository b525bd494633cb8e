/**
 * English stemming for ToolSearch: a small suffix stripper that folds the forms tool text uses most
 * (plurals, -ing, -ed, -ation, a final e), or another stemmer given with setStemmer.
 *
 * Measured (bench/tool-search.ts, tuning split): the Porter2 / Snowball English stemmer of
 * `wink-porter2-stemmer@2.0.1` ranked worse than this one on every source (MetaTool recall@5 0.624 vs
 * 0.647, LiveMCPBench steps 0.704 vs 0.778): it conflates words of different meaning ("university" and
 * "universe" → univers, "organization" and "organ" → organ, "experiment" and "experience" → experi),
 * which costs more on short tool text than the forms it joins gain. So the built-in stays the default; the
 * benchmark prints a Porter2 row whenever that package is installed.
 * Either way the ranking also folds a stem with its longer relatives (./ranking.ts: "notif" with
 * "notifi", "regist" with "registr"), which no suffix stemmer joins.
 *
 * Words longer than STEM_MAX_WORD_LENGTH are left as they are: stemming is for words, and a 10,000-letter
 * token must cost no more than reading it. Pure functions, never throw.
 */

/** Words longer than this are not stemmed (no English word needs it; keeps the cost per token bounded). */
export const STEM_MAX_WORD_LENGTH = 30;

/** Most distinct words kept in the memo (tool catalogues have a few thousand). */
const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

export type StemFn = (word: string) => string;

let external: StemFn | undefined;

/**
 * Uses `fn` (e.g. the default export of `wink-porter2-stemmer`) as the stemmer from now on, or the
 * built-in one again with undefined. For the app's entry (once the package is a dependency) and for
 * benchmarks; indexes built before keep their terms.
 */
export function setStemmer(fn: StemFn | undefined): void {
  external = fn;
  memo.clear();
}

/** Which stemmer is in use: 'external' (given to setStemmer) or 'light' (the built-in one). */
export function stemmerInUse(): 'external' | 'light' {
  return external ? 'external' : 'light';
}

const LIGHT_RULES: [RegExp, string][] = [
  [/ational$/, 'ate'],
  [/ization$/, 'ize'],
  [/ations?$/, 'ate'],
  [/(ness|ments?)$/, ''],
  [/ies$/, 'y'],
  [/sses$/, 'ss'],
  [/([^su])s$/, '$1'],
];

/**
 * Words ending in s that are not plurals, whose s must stay: "news" cut to "new" collides with "new"
 * (a query for news found `get_new_releases`).
 */
const NOT_PLURAL: ReadonlySet<string> = new Set(['news', 'series', 'species', 'always']);

/** The fallback: plural, -ing, -ed, -ation forms and a final e fold together. */
export function lightStem(word: string): string {
  if (NOT_PLURAL.has(word)) return word;
  let w = word;
  for (const [re, to] of LIGHT_RULES) {
    const next = w.replace(re, to);
    if (next !== w && next.length >= 3) {
      w = next;
      break;
    }
  }
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** The stem of a lower-case word; words that are not plain a–z (or too short or too long) come back as they are. */
export function stem(word: string): string {
  if (word.length <= 3 || word.length > STEM_MAX_WORD_LENGTH) return word;
  let s = memo.get(word);
  if (s !== undefined) return s;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return word;
  }
  try {
    s = external ? external(word) : lightStem(word);
  } catch {
    s = lightStem(word);
  }
  if (!s) s = word;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(word, s);
  return s;
}
