/**
 * The Chinese-English glossary of ToolSearch: English words for the Chinese in a tool's description or
 * a query, so an English query finds a tool described in Chinese ("get the picture of the card" →
 * 通过卡牌ID获取游戏王卡牌的图片) and a Chinese query finds a tool described in English. No keyword or
 * English sentence encoder can bridge that gap: the two texts share no word.
 *
 * The table (./glossary/zh-en.txt.gz, built by ./glossary/build-glossary.ts from CC-CEDICT) holds one
 * headword per line, a tab, then the English words of its first senses. Text is segmented by greedy
 * longest match against the headwords (the way CC-CEDICT tokenizers do it), and a word's English words
 * are its gloss. Loaded lazily (only a catalogue or query with Chinese in it needs it) through
 * ./glossary-stage.ts. Pure functions; never throw.
 *
 * How the index uses it (./ranking.ts): a translation is a field of its own (weight 1, like a
 * description, its length measured against other translations), and it adds matches, not statistics
 * (IDF and "the catalogue has this word" stay the tools' own text's). A query's Chinese is glossed only
 * where no tool's own text has it. The sentence encoder reads a tool's description without its Chinese
 * plus the translation, and a query with its English added.
 * Measured (`npm run bench -- --only tool-search`; TOOL_SEARCH_SPLIT=tune for the tuning split,
 * TOOL_SEARCH_GLOSSARY=0 without the glossary), recall@1 / @5 / MRR@10, encoder ready, tuning split:
 * steps 0.593 / 0.815 / 0.688 → 0.556 / 0.815 / 0.667, tasks 0.474 / 0.447 / 0.543 → 0.500 / 0.486 /
 * 0.585 (with the encoder reading the untranslated text instead: steps as without, tasks 0.447 / 0.480 /
 * 0.556). Test split: steps 0.500 / 0.691 / 0.587 → 0.500 / 0.691 / 0.589, tasks 0.411 / 0.508 / 0.567 →
 * 0.464 / 0.514 / 0.597; MetaTool has no Chinese. The test split's steps whose gold tool is described in
 * Chinese stay 5 of 12: what they miss is mostly which of several news or trending tools a step meant.
 */

/** A decoded glossary: headword → its English words (space-separated), and the longest headword. */
export interface Glossary {
  words: ReadonlyMap<string, string>;
  /** Longest headword, in characters (the segmenter tries no longer match). */
  maxLength: number;
  /** Size of the table it was decoded from, in bytes (for the UI and the benchmark). */
  bytes: number;
}

const HAN = /\p{Script=Han}/u;
const HAN_RUNS = /\p{Script=Han}+/gu;

/** True when `text` holds a Han character (a plain scan below U+2E80 first: hot path). */
export function hasHan(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x2e80) return HAN.test(text);
  return false;
}

/** Decodes the table (UTF-8 text: `headword\twords` per line; lines without a tab are skipped). */
export function decodeGlossary(table: Uint8Array | string): Glossary {
  const text = typeof table === 'string' ? table : new TextDecoder().decode(table);
  const words = new Map<string, string>();
  let maxLength = 1;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', start);
    if (tab > start && tab < end) {
      const head = text.slice(start, tab);
      // An empty gloss is a word whose senses are all stop words (什么 "what?"): still a word to cut at.
      words.set(head, text.slice(tab + 1, end).trim());
      if (head.length > maxLength) maxLength = head.length;
    }
    start = end + 1;
  }
  return {
    words,
    maxLength,
    bytes: typeof table === 'string' ? new TextEncoder().encode(table).length : table.length,
  };
}

/** Most English words taken from one text (a long description is glossed from its start). */
export const MAX_GLOSS_WORDS = 400;

/** A run cut greedily from the start (`backward` false) or the end: the longest headword each time. */
function greedyCut(run: string, glossary: Glossary, backward: boolean): string[] {
  const cut: string[] = [];
  let i = backward ? run.length : 0;
  while (backward ? i > 0 : i < run.length) {
    let n = Math.min(glossary.maxLength, backward ? i : run.length - i);
    for (; n > 1; n--) {
      if (glossary.words.has(backward ? run.slice(i - n, i) : run.slice(i, i + n))) break;
    }
    const piece = backward ? run.slice(i - n, i) : run.slice(i, i + n);
    cut.push(piece);
    i += backward ? -n : n;
  }
  return backward ? cut.reverse() : cut;
}

/**
 * A Han run cut into words by bidirectional maximum matching: the greedy cuts from both ends, the one
 * with fewer words, then fewer one-character words, then the backward one (which errs less in Chinese:
 * 以上海时区 is 以 / 上海 / 时区 "by Shanghai's time zone", not 以上 "above" / 海 / 时区).
 */
export function cutWords(run: string, glossary: Glossary): string[] {
  const forward = greedyCut(run, glossary, false);
  const backward = greedyCut(run, glossary, true);
  const singles = (cut: string[]) => cut.filter((w) => w.length === 1).length;
  if (forward.length !== backward.length) return forward.length < backward.length ? forward : backward;
  return singles(forward) < singles(backward) ? forward : backward;
}

/**
 * The English words for the Chinese in `text`, in text order, each at most once: every Han run is cut
 * into the glossary's headwords (./cutWords; a character it lacks is skipped). '' when `text` has no
 * Chinese or the glossary knows none of it.
 */
export function glossOf(text: string, glossary: Glossary): string {
  if (!hasHan(text)) return '';
  const out: string[] = [];
  const seen = new Set<string>();
  for (const run of text.match(HAN_RUNS) ?? []) {
    for (const word of cutWords(run, glossary)) {
      for (const w of glossary.words.get(word)?.split(' ') ?? []) {
        if (w && !seen.has(w)) {
          seen.add(w);
          out.push(w);
        }
      }
      if (out.length >= MAX_GLOSS_WORDS) return out.slice(0, MAX_GLOSS_WORDS).join(' ');
    }
  }
  return out.join(' ');
}

/** `text`, then the English for its Chinese (what an English-only sentence encoder reads of a query). */
export function withEnglish(text: string, glossary: Glossary | undefined): string {
  const english = glossary ? glossOf(text, glossary) : '';
  return english ? `${text} ${english}` : text;
}
