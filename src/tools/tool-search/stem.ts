/**
 * English stemming for ToolSearch. The stemmer is the Porter2 (Snowball English) stemmer of the
 * `wink-porter2-stemmer` package when it is installed (picked up at build time: Vite's glob import
 * resolves to nothing when the package is absent, so the build never breaks on it); without it, a small
 * suffix stripper that folds the forms tool text uses most (plurals, -ing, -ed, -ation, a final e).
 * Either way the ranking also folds a stem with its longer relatives (./ranking.ts: "notif" with
 * "notifi", "regist" with "registr"), which no suffix stemmer joins.
 *
 * Words longer than STEM_MAX_WORD_LENGTH are left as they are: stemming is for words, and a 10,000-letter
 * token must cost no more than reading it. Pure functions, never throw.
 */

/** Words longer than this are not stemmed (no English word needs it; keeps the cost per token bounded). */
export const STEM_MAX_WORD_LENGTH = 30;

type StemFn = (word: string) => string;

const installed = import.meta.glob<StemFn>('/node_modules/wink-porter2-stemmer/src/wink-porter2-stemmer.js', {
  eager: true,
  import: 'default',
});
const porter2: StemFn | undefined = Object.values(installed).find((f) => typeof f === 'function');

/** Which stemmer is in use: 'porter2' (the package) or 'light' (the built-in fallback). */
export const STEMMER: 'porter2' | 'light' = porter2 ? 'porter2' : 'light';

const LIGHT_RULES: [RegExp, string][] = [
  [/ational$/, 'ate'],
  [/ization$/, 'ize'],
  [/ations?$/, 'ate'],
  [/(ness|ments?)$/, ''],
  [/ies$/, 'y'],
  [/sses$/, 'ss'],
  [/([^su])s$/, '$1'],
];

/** The fallback: plural, -ing, -ed, -ation forms and a final e fold together. */
export function lightStem(word: string): string {
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

const memo = new Map<string, string>();
/** Most distinct words kept in the memo (tool catalogues have a few thousand). */
const MEMO_LIMIT = 50_000;

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
    s = porter2 ? porter2(word) : lightStem(word);
  } catch {
    s = lightStem(word);
  }
  if (!s) s = word;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(word, s);
  return s;
}
