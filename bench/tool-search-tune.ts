/**
 * Tuning runs for the ToolSearch ranking: the TUNING split only (./tool-search-eval.ts), each source, for
 * the ranking as configured now and for variants of RANKING_WEIGHTS given on the command line. It cannot
 * print the test split (the benchmark, ./tool-search.ts, reports that, once, after tuning).
 *
 *   npx tsx bench/tool-search-tune.ts                                  # the ranking as it is
 *   npx tsx bench/tool-search-tune.ts '{"nameBoost":0}' '{"denseWeight":0.5}'   # variants, side by side
 *   TOOL_SEARCH_MISSES=livemcpbench-steps npx tsx bench/tool-search-tune.ts   # also print that source's misses
 *
 * Runs without Vite (the ranking modules need no transform). Data: ../shared/bench-data or --data DIR.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AnyTool } from '../src/core/tool.ts';
import { decodeGlossary, type Glossary } from '../src/tools/tool-search/glossary.ts';
import { expandableWords, FIELD_WEIGHT, RANKING_WEIGHTS } from '../src/tools/tool-search/ranking.ts';
import { indexFor, rankDeferred } from '../src/tools/tool-search/search.ts';
import {
  decodeWordVectors,
  nearestWords,
  SEMANTIC_MAX_WORDS,
  SEMANTIC_MIN_SIMILARITY,
  SEMANTIC_NEIGHBOURS,
  type VocabularyMatrix,
  vocabularyMatrix,
} from '../src/tools/tool-search/semantic.ts';
import { SENTENCE_GATE } from '../src/tools/tool-search/sentence.ts';
import { loadFullCatalogue, requireData, toMcpTool } from './mcp-catalogue.ts';
import {
  bm25Ranker,
  evaluate,
  type LabelledQuery,
  liveMcpBenchQueries,
  metaToolCatalogue,
  metaToolQueries,
} from './tool-search-eval.ts';

const root = resolve(import.meta.dirname, '..');
const dataArg = process.argv.indexOf('--data');
const dataDir = requireData(dataArg >= 0 ? process.argv[dataArg + 1] : resolve(root, '../shared/bench-data'));
const variants = process.argv
  .slice(2)
  .filter((a, i, all) => a !== '--data' && all[i - 1] !== '--data')
  .map((a) => JSON.parse(a) as Record<string, number>);

const vectors = decodeWordVectors(
  new Uint8Array(readFileSync(join(root, 'src/tools/tool-search/vectors/word-vectors.bin'))),
);
const glossaryTable = decodeGlossary(
  new Uint8Array(gunzipSync(readFileSync(join(root, 'src/tools/tool-search/glossary/zh-en.txt.gz')))),
);
const ownName = (t: AnyTool) => t.mcpInfo?.toolName ?? t.name;

/**
 * Knobs of a variant besides RANKING_WEIGHTS (serverMix, softShare, ...): `field.<name>` sets
 * FIELD_WEIGHT; `neighbours` and `minSimilarity` the semantic stage's.
 */
interface Knobs {
  neighbours: number;
  minSimilarity: number;
  /** 0: no Chinese-English glossary. */
  glossary: number;
}

/** The ToolSearch keyword path, the stage's expansions computed here (so its knobs can vary). */
function search(
  tools: readonly AnyTool[],
  query: string,
  matrix: VocabularyMatrix,
  k: Knobs,
  glossary: Glossary | undefined,
): string[][] {
  const index = indexFor(tools, glossary);
  const words = expandableWords(index, query).slice(0, SEMANTIC_MAX_WORDS);
  const expansions = nearestWords(vectors, matrix, words, k.neighbours, k.minSimilarity);
  return rankDeferred(tools, query, 10, expansions, undefined, SENTENCE_GATE, glossary).map((g) =>
    [g.tool, ...g.copies].map(ownName),
  );
}

const full = loadFullCatalogue(dataDir);
const meta = metaToolCatalogue(dataDir);
const known = new Set(full.map((e) => e.tool));
const queries = [...liveMcpBenchQueries(dataDir, known), ...metaToolQueries(dataDir)].filter(
  (q) => q.split === 'tune',
);
const base = { ...RANKING_WEIGHTS };
const baseFields = { ...FIELD_WEIGHT };
const f3 = (x: number) => x.toFixed(3);
const missesOf = process.env.TOOL_SEARCH_MISSES;

for (const name of ['livemcpbench-steps', 'livemcpbench-tasks', 'metatool']) {
  const entries = name === 'metatool' ? meta : full;
  const qs: LabelledQuery[] = queries.filter((q) => q.source === name);
  const bm25 = bm25Ranker(entries);
  const bmm = evaluate(qs, (q) => bm25(q).map((e) => [e.tool]));
  const line = (label: string, m: { r1: number; r5: number; mrr10: number }) =>
    `${name.padEnd(20)} ${String(qs.length).padStart(5)}  ${label.padEnd(44)} r@1 ${f3(m.r1)}  r@5 ${f3(m.r5)}  mrr ${f3(m.mrr10)}`;
  console.log(line('plain BM25', bmm));
  for (const v of [{}, ...variants]) {
    Object.assign(RANKING_WEIGHTS, base);
    Object.assign(FIELD_WEIGHT, baseFields);
    const knobs: Knobs = {
      neighbours: SEMANTIC_NEIGHBOURS,
      minSimilarity: SEMANTIC_MIN_SIMILARITY,
      glossary: 1,
    };
    for (const [key, value] of Object.entries(v)) {
      if (key.startsWith('field.')) (FIELD_WEIGHT as Record<string, number>)[key.slice(6)] = value;
      else if (key in knobs) knobs[key as keyof Knobs] = value;
      else (RANKING_WEIGHTS as Record<string, number>)[key] = value;
    }
    // Fresh tools: a new index with these field weights.
    const pool = entries.map((e) => toMcpTool(e));
    const glossary = knobs.glossary ? glossaryTable : undefined;
    const matrix = vocabularyMatrix(vectors, indexFor(pool, glossary).vocabulary.keys());
    const got = new Map<string, string[][]>();
    for (const q of qs) got.set(q.text, search(pool, q.text, matrix, knobs, glossary));
    const m = evaluate(qs, (t) => got.get(t) ?? []);
    console.log(line(Object.keys(v).length ? JSON.stringify(v) : 'tabcode (as is)', m));
    if (missesOf === name && Object.keys(v).length === 0) {
      for (const q of qs) {
        const top = (got.get(q.text) ?? []).slice(0, 5).map((s) => s[0]);
        if (!q.gold.some((g) => top.includes(g))) {
          console.log(
            `  MISS ${JSON.stringify(q.text.slice(0, 160))} gold=${q.gold.join(',')} got=${top.join(',')}`,
          );
        }
      }
    }
  }
  Object.assign(FIELD_WEIGHT, baseFields);
  Object.assign(RANKING_WEIGHTS, base);
}
