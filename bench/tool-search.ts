/**
 * ToolSearch ranking on labelled queries (./tool-search-eval.ts: LiveMCPBench steps and whole tasks over
 * the 727-tool catalogue, MetaTool's queries over its 199 tools), TEST part only: tabcode vs plain BM25
 * vs a regex baseline, in the same run. Then warm search latency over 1,000 and 5,000 tools, and the
 * cold cost of the semantic stage.
 */

import { rankTools } from '../src/tools/tool-search/ranking.ts';
import { toolSearchDoc } from '../src/tools/tool-search/tool-search.ts';
import { type CatalogueEntry, loadFullCatalogue, mcpName, requireData, toMcpTool } from './mcp-catalogue.ts';
import { table } from './stats.ts';
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
import type { BenchContext } from './types.ts';

export const title =
  'ToolSearch ranking on the test split (LiveMCPBench, MetaTool): tabcode vs BM25 vs regex';

const pct = (x: number) => x.toFixed(3);

type SlotRanker = (q: string) => string[][];

const asSlots =
  (r: Ranker): SlotRanker =>
  (q) =>
    r(q).map((e) => [e.tool]);

function tabcodeRanker(entries: CatalogueEntry[]): SlotRanker {
  const docs = entries.map((e) => ({ ...toolSearchDoc(toMcpTool(e)), entry: e }));
  return (q) => rankTools(q, docs, 10).map((r) => [r.doc.entry.tool]);
}

export async function run(ctx: BenchContext): Promise<string[]> {
  const dataDir = requireData(ctx.dataDir);
  const split = (process.env.TOOL_SEARCH_SPLIT === 'tune' ? 'tune' : 'test') as Split;
  const full = loadFullCatalogue(dataDir);
  const meta = metaToolCatalogue(dataDir);
  const known = new Set(full.map((e) => e.tool));
  const queries = [...liveMcpBenchQueries(dataDir, known), ...metaToolQueries(dataDir)];
  const sources: { name: string; entries: CatalogueEntry[]; queries: LabelledQuery[] }[] = [
    'livemcpbench-steps',
    'livemcpbench-tasks',
    'metatool',
  ].map((name) => ({
    name,
    entries: name === 'metatool' ? meta : full,
    queries: queries.filter((q) => q.source === name && q.split === split),
  }));

  const lines: string[] = [
    `${split.toUpperCase()} split (fixed by hash, tuning used the other part); catalogues: ${full.length} MCP tools (LiveMCPBench + GitHub MCP + reference servers), MetaTool ${meta.length}`,
  ];
  const rows: string[][] = [];
  const goals: string[] = [];
  for (const s of sources) {
    const rankers: [string, SlotRanker][] = [
      ['tabcode', tabcodeRanker(s.entries)],
      ['BM25', asSlots(bm25Ranker(s.entries))],
      ['regex', asSlots(regexRanker(s.entries))],
    ];
    const results: [string, Metrics][] = rankers.map(([n, r]) => [n, evaluate(s.queries, r)]);
    for (const [n, m] of results) rows.push([s.name, String(m.n), n, pct(m.r1), pct(m.r5), pct(m.mrr10)]);
    const gain = results[0][1].r5 - results[1][1].r5;
    goals.push(
      `${s.name} ${gain >= 0 ? '+' : ''}${gain.toFixed(3)}${gain >= 0.15 ? '' : ' (goal +0.15: NO)'}`,
    );
  }
  lines.push(...table(['source', 'queries', 'ranking', 'recall@1', 'recall@5', 'MRR@10'], rows));
  lines.push(`recall@5 tabcode − BM25: ${goals.join('; ')}`);
  void mcpName;
  return lines;
}
