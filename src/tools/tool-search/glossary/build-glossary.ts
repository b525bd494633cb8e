/**
 * Builds ./zh-en.txt.gz, ToolSearch's Chinese-English glossary (../glossary.ts reads it), from a CC-CEDICT
 * file (`cedict_ts.u8`: `Traditional Simplified [pin1 yin1] /sense/sense/`). Per headword (simplified
 * and traditional both), the English words of its first MAX_SENSES senses, lower case, without stop
 * words and without the senses that say nothing about meaning (classifiers, "surname X", "variant of",
 * "see ..."), at most MAX_WORDS (none for a word like 什么 "what?", kept so text is still cut at it). Headwords of MAX_HEADWORD characters at most. Sorted, so a rebuild
 * from the same file gives the same bytes.
 *
 *   npx tsx src/tools/tool-search/glossary/build-glossary.ts <cedict_ts.u8> <stopwords-iso.json>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { STOP_WORDS } from '../tokenize.ts';

/** Senses kept per headword: a single character has many, its first ones are its common ones. */
const MAX_SENSES = 3;
const MAX_SENSES_ONE_CHAR = 2;
const MAX_WORDS = 10;
const MAX_HEADWORD = 6;
const SKIP_SENSE =
  /^(CL:|surname |(old |archaic )?variant of|see |also written|also pr\.|Taiwan pr\.|abbr\. for [^a-z]*$|used in |\(Tw\)$|\(old\)$)/i;
const FILLER = new Set([
  'sth',
  'sb',
  'someone',
  'somebody',
  'one',
  'oneself',
  'etc',
  'esp',
  'abbr',
  'lit',
  'fig',
  'pr',
]);

const [source, stopSource] = process.argv.slice(2);
if (!source || !stopSource) {
  console.error('usage: build-glossary.ts <cedict_ts.u8> <stopwords-iso.json>');
  process.exit(2);
}
/**
 * The words of each reading of a headword. Of several readings (的 de5 "possessive particle", di4
 * "aim"), the one with the most senses is kept: the common reading is the one the dictionary says most
 * about; a reading that only points elsewhere ("variant of", "see") counts after the others, and of two
 * alike the one where the headword is the simplified form (榜 "notice, list", not 榜 as the traditional
 * form of 搒 "to row").
 */
const readings = new Map<
  string,
  { words: string[]; senses: number; reference: boolean; simplified: boolean }[]
>();
let license = '';
for (const line of readFileSync(source, 'utf8').split('\n')) {
  if (line.startsWith('#')) {
    if (/^#! (license|date)=/.test(line)) license += `${line.slice(3)}\n`;
    continue;
  }
  const m = /^(\S+) (\S+) \[[^\]]*\] \/(.*)\/\s*$/.exec(line);
  if (!m) continue;
  const all = m[3].split('/');
  const senses = all.filter((s) => !SKIP_SENSE.test(s));
  const words: string[] = [];
  for (const sense of senses.slice(0, m[2].length === 1 ? MAX_SENSES_ONE_CHAR : MAX_SENSES)) {
    const plain = sense
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/[^\p{ASCII}]/gu, ' ')
      .toLowerCase();
    for (const w of plain.split(/[^a-z]+/)) {
      if (w.length > 1 && !STOP_WORDS.has(w) && !FILLER.has(w) && !words.includes(w)) words.push(w);
    }
  }
  const reference = all.length > 0 && SKIP_SENSE.test(all[0]);
  for (const head of new Set([m[2], m[1]])) {
    if (head.length > MAX_HEADWORD || !/\p{Script=Han}/u.test(head)) continue;
    const reading = { words, senses: senses.length, reference, simplified: head === m[2] };
    readings.set(head, [...(readings.get(head) ?? []), reading]);
  }
}
const entries = new Map<string, string[]>();
for (const [head, list] of readings) {
  const best = [...list].sort(
    (a, b) =>
      Number(a.reference) - Number(b.reference) ||
      b.senses - a.senses ||
      Number(b.simplified) - Number(a.simplified),
  )[0];
  entries.set(head, best.words);
}
// Chinese stop words (stopwords-iso's zh list): cut as words, with no English (的, 以及, 一些).
const stop = (JSON.parse(readFileSync(stopSource, 'utf8')) as Record<string, string[]>).zh ?? [];
for (const w of stop) if (/^\p{Script=Han}+$/u.test(w) && w.length <= MAX_HEADWORD) entries.set(w, []);
const lines = [...entries]
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([head, words]) => `${head}\t${words.slice(0, MAX_WORDS).join(' ')}`);
const text = Buffer.from(`${lines.join('\n')}\n`);
const out = resolve(import.meta.dirname, 'zh-en.txt.gz');
// gzip's header time is 0 in Node: the same input gives the same bytes.
writeFileSync(out, gzipSync(text, { level: 9 }));
console.log(
  `${lines.length} headwords, ${text.length} bytes (${readFileSync(out).length} gzip) → ${out}\n${license}`,
);
