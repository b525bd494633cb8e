/**
 * ToolSearch ranking on LiveMCPBench: each annotated task step whose numbered gold tool lines up with it
 * (tasks with as many steps as tools) is one query, searched over the whole catalogue (LiveMCPBench 527 +
 * GitHub MCP 117 tools). tabcode's ranking vs plain BM25 and a regex baseline, in the same run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rankTools } from '../src/tools/tool-search/ranking.ts';
import { toolSearchDoc } from '../src/tools/tool-search/tool-search.ts';
import { type CatalogueEntry, loadCatalogue, requireData, toMcpTool } from './mcp-catalogue.ts';
import { table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title = 'ToolSearch on LiveMCPBench task steps over 644 tools: tabcode ranking vs BM25 vs regex';

interface Task {
  Question: string;
  'Annotator Metadata': { Steps: string; Tools: string };
}

interface Query {
  text: string;
  /** Gold tool names as the server lists them (any server's tool of that name counts). */
  gold: string[];
}

const numbered = (s: string) =>
  s
    .split('\n')
    .filter((l) => /^\s*\d+\./.test(l))
    .map((l) => l.replace(/^\s*\d+\.\s*/, '').trim());

/** Step queries: tasks whose step list and tool list have the same length, paired in order. */
function stepQueries(tasks: Task[], known: Set<string>): { queries: Query[]; skipped: number } {
  const queries: Query[] = [];
  let skipped = 0;
  for (const t of tasks) {
    const steps = numbered(t['Annotator Metadata'].Steps);
    const tools = numbered(t['Annotator Metadata'].Tools);
    if (steps.length !== tools.length) continue;
    steps.forEach((text, i) => {
      if (known.has(tools[i])) queries.push({ text, gold: [tools[i]] });
      else skipped++;
    });
  }
  return { queries, skipped };
}

// ----- baselines -----------------------------------------------------------------------------------

const plainTokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

function docText(e: CatalogueEntry): string {
  const props = (e.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
  const params = Object.entries(props).map(
    ([k, v]) => `${k} ${typeof v?.description === 'string' ? v.description : ''}`,
  );
  return `${e.tool} ${e.server} ${e.description} ${params.join(' ')}`;
}

/** Plain BM25 (k1 1.2, b 0.75) over one bag of words: name, server, description, parameter names and descriptions. */
function bm25Ranker(entries: CatalogueEntry[]): (q: string) => CatalogueEntry[] {
  const docs = entries.map((e) => {
    const toks = plainTokens(docText(e));
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { e, tf, len: toks.length };
  });
  const avg = docs.reduce((s, d) => s + d.len, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return (q) => {
    const qt = [...new Set(plainTokens(q))];
    return docs
      .map((d, order) => {
        let s = 0;
        for (const t of qt) {
          const tf = d.tf.get(t);
          if (!tf) continue;
          const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
          s += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.len) / avg));
        }
        return { e: d.e, s, order };
      })
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || a.order - b.order)
      .map((x) => x.e);
  };
}

const REGEX_STOP = new Set(
  'the and for with from into that this then than are was were use using via all any its'.split(' '),
);

/**
 * Regex baseline (as a model drives a regex tool search): the query's words of 3+ letters as one
 * case-insensitive alternation over name and description; tools ranked by how many distinct words match.
 */
function regexRanker(entries: CatalogueEntry[]): (q: string) => CatalogueEntry[] {
  const texts = entries.map((e) => `${e.tool} ${e.description}`);
  return (q) => {
    const ws = [...new Set(plainTokens(q).filter((w) => w.length >= 3 && !REGEX_STOP.has(w)))];
    if (ws.length === 0) return [];
    const re = new RegExp(ws.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
    return entries
      .map((e, order) => {
        const hits = new Set((texts[order].match(re) ?? []).map((m) => m.toLowerCase()));
        return { e, s: hits.size, order };
      })
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || a.order - b.order)
      .map((x) => x.e);
  };
}

// ----- metrics -------------------------------------------------------------------------------------

interface Metrics {
  r1: number;
  r5: number;
  mrr: number;
}

function evaluate(queries: Query[], rank: (q: string) => CatalogueEntry[]): Metrics {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  for (const q of queries) {
    const list = rank(q.text);
    const pos = list.findIndex((e) => q.gold.includes(e.tool));
    if (pos === 0) r1++;
    if (pos >= 0 && pos < 5) r5++;
    if (pos >= 0) mrr += 1 / (pos + 1);
  }
  const n = queries.length;
  return { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
}

/** Whole-task questions: share of the gold tool set found in the top 10. */
function taskRecall(tasks: Task[], known: Set<string>, rank: (q: string) => CatalogueEntry[]): number {
  let found = 0;
  let total = 0;
  for (const t of tasks) {
    const gold = [...new Set(numbered(t['Annotator Metadata'].Tools))].filter((g) => known.has(g));
    if (gold.length === 0) continue;
    const top = new Set(
      rank(t.Question)
        .slice(0, 10)
        .map((e) => e.tool),
    );
    total += gold.length;
    found += gold.filter((g) => top.has(g)).length;
  }
  return found / total;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export async function run(ctx: BenchContext): Promise<string[]> {
  const dataDir = requireData(ctx.dataDir);
  const entries = loadCatalogue(dataDir);
  const tasks = JSON.parse(readFileSync(join(dataDir, 'livemcpbench', 'tasks.json'), 'utf8')) as Task[];
  const known = new Set(entries.map((e) => e.tool));
  const { queries, skipped } = stepQueries(tasks, known);

  // tabcode: the ToolSearch tool's own documents of MCP-shaped Tools.
  const docs = entries.map((e) => ({ ...toolSearchDoc(toMcpTool(e)), entry: e }));
  const tabcode = (q: string) => rankTools(q, docs).map((r) => r.doc.entry);
  const rankers: [string, (q: string) => CatalogueEntry[]][] = [
    ['tabcode (BM25F, stems, name coverage)', tabcode],
    ['plain BM25', bm25Ranker(entries)],
    ['regex (word alternation)', regexRanker(entries)],
  ];
  const t0 = performance.now();
  const results = rankers.map(([name, fn]) => ({
    name,
    m: evaluate(queries, fn),
    task: taskRecall(tasks, known, fn),
  }));
  const ms = performance.now() - t0;
  const base = results[1].m;
  return [
    `${queries.length} step queries from ${tasks.length} tasks (${skipped} skipped: gold tool not in the catalogue), ${entries.length} tools`,
    ...table(
      ['ranking', 'recall@1', 'recall@5', 'MRR', 'task questions: gold recall@10'],
      results.map((r) => [r.name, pct(r.m.r1), pct(r.m.r5), r.m.mrr.toFixed(3), pct(r.task)]),
    ),
    `tabcode vs plain BM25: recall@1 ${(results[0].m.r1 / base.r1).toFixed(2)}×, recall@5 ${(results[0].m.r5 / base.r5).toFixed(2)}×, MRR ${(results[0].m.mrr / base.mrr).toFixed(2)}×; beats BM25 on all three: ${
      results[0].m.r1 > base.r1 && results[0].m.r5 > base.r5 && results[0].m.mrr > base.mrr ? 'yes' : 'NO'
    } (all rankings: ${ms.toFixed(0)} ms)`,
  ];
}
