/**
 * Words and search terms of tool text and queries. One linear pass: a Unicode word regex (letters and
 * digits of any script), then camelCase splitting inside each word by a scan. Rules:
 * - snake_case, kebab-case, dots and spaces separate words; camelCase and PascalCase words are split into
 *   their parts AND kept whole ("GitHub" → github, git, hub; "getFileContents" → get, file, contents, …),
 *   so a query can use either form (a query's own compound is used whole when the catalogue knows it,
 *   see ./ranking.ts, so "GitHub" finds github and not git);
 * - accents are folded (NFKD, marks dropped), text is lower-cased;
 * - runs of CJK characters (Han, kana, Hangul) become character bigrams (a lone character stays), since
 *   those scripts do not separate words;
 * - single letters (what the apostrophe of "what's" or "don't" leaves) and stop words are not terms;
 * - English a–z words are stemmed (./stem.ts).
 * Pure functions, never throw.
 */
import { stem } from './stem.ts';

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to in on for with and or by from as at is are be been being was were this that these those ' +
    'it its into onto using use used via per each any all some such than then there their them they we you ' +
    'your our i me my can could should would will shall may might must do does did done has have had not no ' +
    'yes if so up out about over under also only just more most other which what when where who whom how why ' +
    'please etc e g ie eg based given within without between both let lets want need needs like help ' +
    'something anything someone thing things way am im ive id youre dont doesnt cant wont whats hows'
  ).split(' '),
);

/** Separators: anything that is not a letter or digit of some script. Splitting is linear. */
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;
const NON_ASCII = /[^\p{ASCII}]/u;

/** True for a word of a–z only (a plain scan: hot path). */
export function isAz(w: string): boolean {
  if (w.length === 0) return false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** True when every character is ASCII (a plain scan: hot path). */
function isAscii(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) > 127) return false;
  return true;
}

/** True when `w` may hold CJK characters (none below U+2E80); the regex runs only then. */
function hasCjk(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) >= 0x2e80) return CJK_CHAR.test(w);
  return false;
}

/** A word of the text: its lower-case form and, for a camelCase word, its lower-case parts. */
export interface Token {
  word: string;
  /** Present when the word splits into two or more camelCase parts. */
  parts?: string[];
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** camelCase parts of an ASCII word by one scan: aB → a|B, ABc → A|Bc, HTMLParser → HTML|Parser. */
function camelParts(w: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 1; i < w.length; i++) {
    const prev = w.charCodeAt(i - 1);
    const cur = w.charCodeAt(i);
    const next = i + 1 < w.length ? w.charCodeAt(i + 1) : 0;
    if ((isLower(prev) || isDigit(prev)) && isUpper(cur)) {
      parts.push(w.slice(start, i));
      start = i;
    } else if (isUpper(prev) && isUpper(cur) && isLower(next)) {
      parts.push(w.slice(start, i));
      start = i;
    }
  }
  parts.push(w.slice(start));
  return parts;
}

/** Folds accents: é → e, ü → u (NFKD, combining marks dropped). */
function fold(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKD').replace(MARKS, '') : text;
}

/** The tokens of `text` (see the module comment), in order. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const raw of fold(text).split(SEPARATORS)) {
    if (!raw) continue;
    if (hasCjk(raw)) {
      for (const piece of raw.split(CJK_RUNS)) {
        if (!piece) continue;
        if (!hasCjk(piece)) pushWord(out, piece);
        else if (piece.length === 1) out.push({ word: piece });
        else for (let i = 0; i < piece.length - 1; i++) out.push({ word: piece.slice(i, i + 2) });
      }
      continue;
    }
    pushWord(out, raw);
  }
  return out;
}

function pushWord(out: Token[], raw: string): void {
  if (raw.length < 2) return;
  const word = raw.toLowerCase();
  if (raw !== word && raw.length <= 64 && isAscii(raw)) {
    const parts = camelParts(raw)
      .map((p) => p.toLowerCase())
      .filter((p) => p.length > 0);
    if (parts.length > 1) {
      out.push({ word, parts });
      return;
    }
  }
  out.push({ word });
}

/** The lower-case words of `text`: camelCase words as their parts (the form names and parameters use). */
export function words(text: string): string[] {
  return tokenize(text).flatMap((t) => t.parts ?? [t.word]);
}

/** A search term of a word: null for stop words and single letters, else its stem. */
export function termOf(word: string): string | null {
  if (STOP_WORDS.has(word)) return null;
  if (word.length < 2 && !hasCjk(word)) return null;
  return stem(word);
}

/**
 * The terms a document indexes for `text`: every word's term, and for a camelCase word both the whole
 * word and its parts (in order: whole first).
 */
export function docTerms(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    const whole = termOf(t.word);
    if (whole) out.push(whole);
    if (t.parts) {
      for (const p of t.parts) {
        const term = termOf(p);
        if (term) out.push(term);
      }
    }
  }
  return out;
}

/** Search terms of `text` (words without stop words, stemmed; camelCase words as their parts). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    const t = termOf(w);
    if (t) out.push(t);
  }
  return out;
}
