/**
 * ToolSearch ranking on labelled queries (./tool-search-eval.ts: LiveMCPBench steps and whole tasks over
 * the 727-tool catalogue, MetaTool's queries over its 199 tools), TEST part only: tabcode (the ToolSearch
 * keyword path: lexical stage, semantic expansions, the sentence encoder's cosines once it is ready,
 * duplicates grouped) vs plain BM25 vs a regex baseline,
 * in the same run. Then warm search latency over 1,000 and 5,000 tools, the cold cost of the semantic
 * stage, and memory.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AnyTool } from '../src/core/tool.ts';
import { decodeGlossary, type Glossary, withEnglish } from '../src/tools/tool-search/glossary.ts';
import { expandableWords } from '../src/tools/tool-search/ranking.ts';
import { indexFor, rankDeferred, toolSearchDoc } from '../src/tools/tool-search/search.ts';
import { SEMANTIC_MAX_WORDS, type SemanticStage } from '../src/tools/tool-search/semantic.ts';
import { createInProcessSemanticStage } from '../src/tools/tool-search/semantic-stage.ts';
import { SENTENCE_GATE, SENTENCE_QUERY_CHARS, sentenceToolText } from '../src/tools/tool-search/sentence.ts';
import { type StemFn, setStemmer } from '../src/tools/tool-search/stem.ts';
import { type CatalogueEntry, loadFullCatalogue, requireData, toMcpTool } from './mcp-catalogue.ts';
import { median, table } from './stats.ts';
import {
  bm25Ranker,
  evaluate,
  type LabelledQuery,
  liveMcpBenchQueries,
  type Metrics,
  metaToolCatalogue,
  metaToolQueries,
  type Ranker,
  regexRanker,
  type Split,
} from './tool-search-eval.ts';
import { cosine, embedAll, encoderCost } from './tool-search-use.ts';
import type { BenchContext } from './types.ts';

export const title =
  'ToolSearch ranking on the test split (LiveMCPBench, MetaTool): tabcode vs BM25 vs regex';

type Slots = string[][];

const asSlots =
  (r: Ranker) =>
  (q: string): Slots =>
    r(q).map((e) => [e.tool]);

const ownName = (t: AnyTool) => t.mcpInfo?.toolName ?? t.name;

/** The ToolSearch keyword path: the stage's expansions of the query words, then the grouped ranking. */
async function tabcodeSearch(
  tools: readonly AnyTool[],
  query: string,
  stage: SemanticStage | undefined,
  limit = 10,
  sentence?: ReadonlyMap<string, number>,
  glossary?: Glossary,
): Promise<Slots> {
  let expansions: Awaited<ReturnType<SemanticStage['expand']>>;
  if (stage) {
    const index = indexFor(tools, glossary);
    const words = expandableWords(index, query).slice(0, SEMANTIC_MAX_WORDS);
    if (words.length)
      expansions = await stage.expand(
        glossary ? 'bench-glossary' : 'bench',
        [...index.vocabulary.keys()],
        words,
        60_000,
      );
  }
  return rankDeferred(tools, query, limit, expansions, sentence, SENTENCE_GATE, glossary).map((g) =>
    [g.tool, ...g.copies].map(ownName),
  );
}

/**
 * The sentence encoder's cosines for each query over `tools` (by tool name), as the page's stage gives
 * them: the product's tool text and query cut, the npm package's model run in Node, embeddings cached in
 * os.tmpdir() between runs (./tool-search-use.ts embedAll).
 */
async function sentenceCosines(
  name: string,
  tools: readonly AnyTool[],
  queries: readonly string[],
  glossary: Glossary | undefined,
): Promise<Map<string, Map<string, number>>> {
  const texts = tools.map((t) => sentenceToolText(toolSearchDoc(t, glossary)));
  const toolVectors = await embedAll(`${name}-tools`, texts);
  const cut = (q: string) => withEnglish(q.slice(0, SENTENCE_QUERY_CHARS), glossary);
  const queryVectors = await embedAll(`${name}-queries`, queries.map(cut));
  const out = new Map<string, Map<string, number>>();
  for (const q of queries) {
    const v = queryVectors.get(cut(q))!;
    out.set(q, new Map(tools.map((t, i) => [t.name, cosine(v, toolVectors.get(texts[i])!)])));
  }
  return out;
}

/** The Porter2 stemmer of `wink-porter2-stemmer` when it is installed (or at TOOL_SEARCH_STEMMER_PATH). */
function porter2(root: string): StemFn | undefined {
  try {
    const req = createRequire(join(root, 'package.json'));
    const fn = req(process.env.TOOL_SEARCH_STEMMER_PATH ?? 'wink-porter2-stemmer') as unknown;
    return typeof fn === 'function' ? (fn as StemFn) : undefined;
  } catch {
    return undefined;
  }
}

/** The Chinese-English glossary the page loads when a catalogue or query has Chinese in it. */
function glossaryOf(root: string): Glossary | undefined {
  if (process.env.TOOL_SEARCH_GLOSSARY === '0') return undefined;
  return decodeGlossary(gunzipSync(readFileSync(join(root, 'src/tools/tool-search/glossary/zh-en.txt.gz'))));
}

/** The glossary's cold cost: its bytes, and gunzip + decode time in this process (best of 3). */
function glossaryCost(root: string, glossary: Glossary | undefined): string {
  if (!glossary) return 'Chinese glossary: off (TOOL_SEARCH_GLOSSARY=0).';
  const zipped = readFileSync(join(root, 'src/tools/tool-search/glossary/zh-en.txt.gz'));
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    decodeGlossary(gunzipSync(zipped));
    best = Math.min(best, performance.now() - t0);
  }
  return `Chinese glossary (loaded when a catalogue or query has Chinese in it): ${(zipped.length / 1e6).toFixed(2)} MB gzip, ${(glossary.bytes / 1e6).toFixed(2)} MB, ${glossary.words.size.toLocaleString('en-US')} headwords; gunzip + decode ${best.toFixed(0)} ms in Node (the page unzips in a worker). The tabcode rows above use it, except "lexical stage only" (nothing lazy loaded); TOOL_SEARCH_GLOSSARY=0 leaves it out.`;
}

function tableBytes(root: string): Uint8Array {
  return new Uint8Array(readFileSync(join(root, 'src/tools/tool-search/vectors/word-vectors.bin')));
}

const q3 = (x: number) => x.toFixed(3);
/** Runs per query in the latency part. */
const LATENCY_RUNS = 3;
const pctl = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

export async function run(ctx: BenchContext): Promise<string[]> {
  const dataDir = requireData(ctx.dataDir);
  const split = (process.env.TOOL_SEARCH_SPLIT === 'tune' ? 'tune' : 'test') as Split;
  const full = loadFullCatalogue(dataDir);
  const meta = metaToolCatalogue(dataDir);
  const known = new Set(full.map((e) => e.tool));
  const queries = [...liveMcpBenchQueries(dataDir, known), ...metaToolQueries(dataDir)];
  const lines: string[] = [
    `${split.toUpperCase()} split only (by hash of task id / query; tuning used the other part). Catalogues: ${full.length} MCP tools (LiveMCPBench + GitHub MCP + reference servers), MetaTool ${meta.length}.`,
  ];
  const p2 = porter2(ctx.root);
  lines.push(
    p2
      ? 'Stemmers: built-in light stemmer (tabcode rows), and Porter2 from wink-porter2-stemmer (its own row).'
      : 'Stemmer: built-in light stemmer (wink-porter2-stemmer is not installed: no Porter2 row).',
  );

  const glossary = glossaryOf(ctx.root);
  const rows: string[][] = [];
  const goals: string[] = [];
  const breakdown: string[] = [];
  for (const name of ['livemcpbench-steps', 'livemcpbench-tasks', 'metatool']) {
    const entries = name === 'metatool' ? meta : full;
    const qs = queries.filter((q) => q.source === name && q.split === split);
    const tools = entries.map((e) => toMcpTool(e));
    // One stage per catalogue, as a session has one per page (its vocabulary is prepared once).
    const stage = createInProcessSemanticStage(async () => tableBytes(ctx.root));
    const cosines = await sentenceCosines(
      name === 'metatool' ? 'metatool' : 'livemcpbench',
      tools,
      qs.map((q) => q.text),
      glossary,
    );
    const withSentence = new Map<string, Slots>();
    const withMeaning = new Map<string, Slots>();
    const lexical = new Map<string, Slots>();
    for (const q of qs) {
      withSentence.set(q.text, await tabcodeSearch(tools, q.text, stage, 10, cosines.get(q.text), glossary));
      withMeaning.set(q.text, await tabcodeSearch(tools, q.text, stage, 10, undefined, glossary));
      lexical.set(q.text, await tabcodeSearch(tools, q.text, undefined));
    }
    const results: [string, Metrics][] = [
      ['tabcode (sentence encoder ready)', evaluate(qs, (t) => withSentence.get(t) ?? [])],
      ['tabcode (word expansions; encoder loading)', evaluate(qs, (t) => withMeaning.get(t) ?? [])],
      ['tabcode, lexical stage only', evaluate(qs, (t) => lexical.get(t) ?? [])],
      ['plain BM25', evaluate(qs, asSlots(bm25Ranker(entries)))],
      ['regex', evaluate(qs, asSlots(regexRanker(entries)))],
    ];
    if (p2) {
      setStemmer(p2);
      const porterTools = tools.slice();
      const porterStage = createInProcessSemanticStage(async () => tableBytes(ctx.root));
      const withPorter = new Map<string, Slots>();
      for (const q of qs) withPorter.set(q.text, await tabcodeSearch(porterTools, q.text, porterStage));
      setStemmer(undefined);
      results.splice(1, 0, ['tabcode, Porter2 stemmer', evaluate(qs, (t) => withPorter.get(t) ?? [])]);
    }
    for (const [n, m] of results) rows.push([name, String(m.n), n, q3(m.r1), q3(m.r5), q3(m.mrr10)]);
    if (name === 'livemcpbench-steps')
      breakdown.push(...stepsBreakdown(qs, entries, withSentence, bm25Ranker(entries)));
    // TOOL_SEARCH_SPLIT=tune TOOL_SEARCH_MISSES=<source>: that source's tuning misses (never the test part's).
    if (split === 'tune' && process.env.TOOL_SEARCH_MISSES === name)
      breakdown.push(...missesOf(qs, withSentence));
    const bm25 = results.find(([n]) => n === 'plain BM25')?.[1] ?? results[0][1];
    const gain = results[0][1].r5 - bm25.r5;
    goals.push(
      `${name} ${gain >= 0 ? '+' : ''}${gain.toFixed(3)} (${gain >= 0.15 ? 'goal +0.15 met' : 'goal +0.15 NOT met'})`,
    );
  }
  lines.push(...table(['source', 'queries', 'ranking', 'recall@1', 'recall@5', 'MRR@10'], rows));
  lines.push(`recall@5, tabcode (sentence encoder ready) − plain BM25: ${goals.join('; ')}`);
  lines.push(...breakdown);
  lines.push(glossaryCost(ctx.root, glossary));
  if (encoderCost.texts) {
    lines.push(
      `Sentence encoder in Node this run: ${encoderCost.texts} texts embedded in ${(encoderCost.ms / 1000).toFixed(1)} s (the rest from the cache in os.tmpdir()); its cold cost in the page: npx tsx bench/tool-search-use.ts --page.`,
    );
  }
  lines.push(
    '',
    ...(await latency(
      ctx,
      full,
      meta,
      queries.filter((q) => q.split === split),
    )),
  );
  return lines;
}

/** The queries whose gold tool is not in the top 5, with what came instead. */
function missesOf(qs: readonly LabelledQuery[], got: ReadonlyMap<string, Slots>): string[] {
  return qs.flatMap((q) => {
    const top = (got.get(q.text) ?? []).slice(0, 5).map((s) => s[0]);
    return q.gold.some((g) => top.includes(g))
      ? []
      : [`  MISS ${JSON.stringify(q.text.slice(0, 160))} gold=${q.gold.join(',')} got=${top.join(',')}`];
  });
}

/** True when much of a description is in Chinese script (a fifth of its characters or more are Han; an empty one is not). */
const mostlyHan = (s: string) => {
  const han = s.match(/\p{Script=Han}/gu)?.length ?? 0;
  return han > 0 && han >= s.length * 0.2;
};

/**
 * The steps source by kind of query, for reading its figures (same queries, same rankings): steps whose
 * gold tool is described in Chinese (an English step shares no word with it but its name), steps of a
 * task whose pairing by position is suspect (LabelledQuery.pairingSuspect), and the rest.
 */
function stepsBreakdown(
  qs: readonly LabelledQuery[],
  entries: readonly CatalogueEntry[],
  tabcode: ReadonlyMap<string, Slots>,
  bm25: Ranker,
): string[] {
  const han = new Set(entries.filter((e) => mostlyHan(e.description)).map((e) => e.tool));
  const blank = new Set(entries.filter((e) => !e.description.trim()).map((e) => e.tool));
  const hanGold = (q: LabelledQuery) => q.gold.some((g) => han.has(g));
  const blankGold = (q: LabelledQuery) => !hanGold(q) && q.gold.some((g) => blank.has(g));
  const other = (q: LabelledQuery) => !hanGold(q) && !blankGold(q);
  const kinds: [string, (q: LabelledQuery) => boolean][] = [
    ['gold tool described in Chinese', hanGold],
    ['gold tool has no description (its name only)', blankGold],
    ['pairing suspect (task has a report step)', (q) => other(q) && !!q.pairingSuspect],
    ['the rest', (q) => other(q) && !q.pairingSuspect],
  ];
  const hits = (q: LabelledQuery, slots: Slots) =>
    slots.slice(0, 5).some((s) => s.some((n) => q.gold.includes(n)));
  return [
    'livemcpbench-steps by kind, recall@5 (hits / queries), tabcode (encoder ready) vs plain BM25:',
    ...kinds.map(([label, test]) => {
      const part = qs.filter(test);
      const t = part.filter((q) => hits(q, tabcode.get(q.text) ?? [])).length;
      const b = part.filter((q) =>
        hits(
          q,
          bm25(q.text).map((e) => [e.tool]),
        ),
      ).length;
      return `  ${label}: ${t} / ${part.length} vs ${b} / ${part.length}`;
    }),
  ];
}

/** A pool of `n` tools: the catalogues, repeated under renamed servers as needed. */
function poolOf(n: number, base: CatalogueEntry[]): AnyTool[] {
  const out: AnyTool[] = [];
  for (let copy = 0; out.length < n; copy++) {
    for (const e of base) {
      if (out.length >= n) break;
      out.push(
        toMcpTool(
          copy === 0
            ? e
            : { ...e, server: `${e.server}-${copy}`, description: `${e.description} (mirror ${copy})` },
        ),
      );
    }
  }
  return out;
}

async function latency(
  ctx: BenchContext,
  full: CatalogueEntry[],
  meta: CatalogueEntry[],
  queries: LabelledQuery[],
): Promise<string[]> {
  const texts = queries.filter((q) => q.source !== 'metatool').map((q) => q.text);
  texts.push(
    ...queries
      .filter((q) => q.source === 'metatool')
      .slice(0, 300)
      .map((q) => q.text),
  );
  const rows: string[][] = [];
  const cold: string[] = [];
  for (const n of [1000, 5000]) {
    const heap0 = process.memoryUsage().heapUsed;
    const pool = poolOf(n, [...full, ...meta]);
    let t = performance.now();
    indexFor(pool);
    const indexMs = performance.now() - t;
    const heapIndex = process.memoryUsage().heapUsed - heap0;
    const stage = createInProcessSemanticStage(async () => tableBytes(ctx.root));
    t = performance.now();
    await tabcodeSearch(pool, 'convert kroner into another currency', stage, 5);
    const firstSemanticMs = performance.now() - t;
    const status = stage.status();
    for (const [label, s] of [
      ['lexical stage only', undefined],
      ['lexical + semantic', stage],
    ] as const) {
      // Each query runs LATENCY_RUNS times: the first run's times, and each query's fastest run (which
      // leaves out the time slices other processes take on a shared machine).
      const first: number[] = [];
      const fastest: number[] = [];
      for (const q of texts) {
        let best = Number.POSITIVE_INFINITY;
        for (let r = 0; r < LATENCY_RUNS; r++) {
          const t0 = performance.now();
          await tabcodeSearch(pool, q, s, 5);
          const dt = performance.now() - t0;
          if (r === 0) first.push(dt);
          best = Math.min(best, dt);
        }
        fastest.push(best);
      }
      const f = (xs: number[]) => [
        `${median(xs).toFixed(2)} ms`,
        `${pctl(xs, 0.95).toFixed(2)} ms`,
        `${Math.max(...xs).toFixed(1)} ms`,
      ];
      rows.push([String(n), label, String(texts.length), ...f(fastest), ...f(first)]);
    }
    cold.push(
      `${n} tools: index build ${indexMs.toFixed(0)} ms (heap +${(heapIndex / 1e6).toFixed(1)} MB); first semantic query ${firstSemanticMs.toFixed(0)} ms` +
        (status.state === 'ready'
          ? ` (table ${(status.bytes / 1e6).toFixed(2)} MB, ${status.words.toLocaleString('en-US')} words, loaded + decoded in ${status.loadMs.toFixed(0)} ms)`
          : ` (stage ${status.state})`),
    );
  }
  return [
    `Warm search latency (index built; ${texts.length} test queries; the page runs the semantic part in a worker):`,
    ...table(
      [
        'tools',
        'stages',
        'queries',
        'p50 best of 3',
        'p95 best of 3',
        'max',
        'p50 first run',
        'p95 first run',
        'max',
      ],
      rows,
    ),
    `machine load average while measuring: ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
    'Cold cost:',
    ...cold,
    `process heap after the runs: ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  ];
}
