/**
 * Labelled queries for the ToolSearch benchmark, split into a tuning part and a test part BEFORE any
 * tuning, plus the two baselines (plain BM25, regex) and the metrics.
 *
 * The split is code, not data: a query's part is fixed by a hash of a stable key (the LiveMCPBench
 * task id, so the steps of one task never straddle the parts; the MetaTool query text), so it is the
 * same on every machine and for every ranking. Rankings are tuned on `tune` only; the benchmark reports
 * `test` only (TOOL_SEARCH_SPLIT=tune prints the tuning part, for tuning runs).
 *
 * Sources (../shared/bench-data; tool names are never used as queries):
 * - `livemcpbench-steps`: each annotated step of a task whose step list and tool list line up, one gold tool;
 * - `livemcpbench-tasks`: the whole task question, gold = the task's tool set;
 * - `metatool`: MetaTool's labelled queries over its own 199 tools (name + description, no schemas).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashString } from '../src/core/hash.ts';
import type { CatalogueEntry } from './mcp-catalogue.ts';

export type Split = 'tune' | 'test';
/** Share of each source in the tuning part (by hash); the rest is the test part. */
export const TUNE_SHARE = 0.4;

/** The part a key falls in: the top 32 bits of its FNV-1a hash, as a fraction of 2^32. */
export function splitOf(key: string): Split {
  const h = Number.parseInt(hashString(`tool-search-split:${key}`).slice(0, 8), 16) / 2 ** 32;
  return h < TUNE_SHARE ? 'tune' : 'test';
}

export interface LabelledQuery {
  source: string;
  text: string;
  /** Gold tool names as the server lists them (any server's tool of that name counts). */
  gold: string[];
  split: Split;
  /**
   * A LiveMCPBench step paired with its tool by position in a task that also has a step needing no tool
   * ("write a report"): the lists line up in length but the pairs may be shifted (TASK_REPORT_STEP).
   */
  pairingSuspect?: boolean;
}

/**
 * A step that needs no tool (the answer itself: a report, a summary, a recommendation), unless it names a
 * file to write. A task with one and as many tools as steps has at least one tool paired with the wrong
 * step (e.g. "Get cashflow, income statement" / "Get news" / "make a report" against get_income_statement
 * / get_cashflow / get_news).
 */
export const TASK_REPORT_STEP =
  /\b(write|make|create|generate|give|prepare|compose|draft)\b.{0,30}\b(report|summary|analysis|explanation)\b|^(summari[sz]e|explain|recommend|answer)\b/i;
const reportStep = (step: string) => TASK_REPORT_STEP.test(step) && !/\/|\.\w{2,4}\b/.test(step);

interface Task {
  task_id: string;
  Question: string;
  'Annotator Metadata': { Steps: string; Tools: string };
}

const numbered = (s: string) =>
  s
    .split('\n')
    .filter((l) => /^\s*\d+\./.test(l))
    .map((l) => l.replace(/^\s*\d+\.\s*/, '').trim());

/** LiveMCPBench steps and whole tasks whose gold tools are in the catalogue. */
export function liveMcpBenchQueries(dataDir: string, known: ReadonlySet<string>): LabelledQuery[] {
  const tasks = JSON.parse(readFileSync(join(dataDir, 'livemcpbench', 'tasks.json'), 'utf8')) as Task[];
  const out: LabelledQuery[] = [];
  for (const t of tasks) {
    const split = splitOf(`livemcpbench:${t.task_id}`);
    const steps = numbered(t['Annotator Metadata'].Steps);
    const tools = numbered(t['Annotator Metadata'].Tools);
    if (steps.length === tools.length) {
      const pairingSuspect = steps.some(reportStep);
      steps.forEach((text, i) => {
        if (known.has(tools[i]))
          out.push({ source: 'livemcpbench-steps', text, gold: [tools[i]], split, pairingSuspect });
      });
    }
    const gold = [...new Set(tools)].filter((g) => known.has(g));
    if (gold.length) out.push({ source: 'livemcpbench-tasks', text: t.Question, gold, split });
  }
  return out;
}

/** MetaTool's catalogue (199 tools, no schemas) as entries of one server, `metatool`. */
export function metaToolCatalogue(dataDir: string): CatalogueEntry[] {
  const des = JSON.parse(readFileSync(join(dataDir, 'metatool', 'plugin_des.json'), 'utf8')) as Record<
    string,
    string
  >;
  return Object.entries(des).map(([tool, description]) => ({
    server: 'metatool',
    tool,
    description,
    inputSchema: { type: 'object', properties: {} },
  }));
}

/** A minimal CSV reader for MetaTool's two-column file (quoted fields, doubled quotes). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

/** MetaTool's labelled queries (a query labelled with several tools has them all as gold). */
export function metaToolQueries(dataDir: string): LabelledQuery[] {
  const rows = csvRows(readFileSync(join(dataDir, 'metatool', 'all_clean_data.csv'), 'utf8')).slice(1);
  const byQuery = new Map<string, Set<string>>();
  for (const [query, tool] of rows) {
    if (!query || !tool) continue;
    const q = query.trim();
    let gold = byQuery.get(q);
    if (!gold) {
      gold = new Set();
      byQuery.set(q, gold);
    }
    gold.add(tool.trim());
  }
  return [...byQuery].map(([text, gold]) => ({
    source: 'metatool',
    text,
    gold: [...gold],
    split: splitOf(`metatool:${text.toLowerCase()}`),
  }));
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

export type Ranker = (query: string) => CatalogueEntry[];

/** Plain BM25 (k1 1.2, b 0.75) over one bag of words: name, server, description, parameter names and descriptions. */
export function bm25Ranker(entries: CatalogueEntry[]): Ranker {
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
export function regexRanker(entries: CatalogueEntry[]): Ranker {
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

export interface Metrics {
  n: number;
  /** Share of the gold set found at rank 1 / in the top 5 (one gold tool: hit or miss). */
  r1: number;
  r5: number;
  /** Reciprocal rank of the first gold tool within the top 10. */
  mrr10: number;
}

/**
 * Scores ranked lists. A ranked list holds tool names per slot (a slot may group the same tool from
 * two servers, so it holds several names); a gold tool counts once, at its first slot.
 */
export function evaluate(queries: readonly LabelledQuery[], rank: (q: string) => string[][]): Metrics {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  for (const q of queries) {
    const slots = rank(q.text);
    const at = (k: number) => {
      const top = new Set(slots.slice(0, k).flat());
      return q.gold.filter((g) => top.has(g)).length / Math.min(q.gold.length, k);
    };
    r1 += at(1);
    r5 += at(5);
    const first = slots.slice(0, 10).findIndex((s) => s.some((n) => q.gold.includes(n)));
    if (first >= 0) mrr += 1 / (first + 1);
  }
  const n = queries.length || 1;
  return { n: queries.length, r1: r1 / n, r5: r5 / n, mrr10: mrr / n };
}
