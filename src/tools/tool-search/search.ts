/**
 * What a ToolSearch query finds, and the notes the model gets with it. Query forms:
 * - `select:A,B` loads exact names (notes for names that do not exist or are already loaded);
 * - one exact tool name loads that tool;
 * - `mcp__<server>` (or `mcp__<server>__<start of a tool name>`) lists that server's deferred tools,
 *   matching the `mcp__<server>__` prefix exactly (so `mcp__git` never lists github's tools); a server
 *   still connecting, or one that does not exist, is said so (never a keyword search instead);
 * - anything else is keywords, ranked by ./ranking.ts with server evidence (./server-score.ts), plus the
 *   words its paths and URLs imply (./entities.ts) and the semantic stage's expansions when given.
 * The same tool offered by two servers (same tool name and input schema) takes one slot: the best-ranked
 * copy is loaded and a note names the others. Pure; never throws.
 */
import { isDeferredTool } from '../../core/deferred-tools.ts';
import { hashString } from '../../core/hash.ts';
import type { AnyTool } from '../../core/tool.ts';
import { withEntityWords } from './entities.ts';
import { type Glossary, glossOf, hasHan } from './glossary.ts';
import {
  buildSearchIndex,
  type Expansions,
  hasOwn,
  parseKeywordQuery,
  rankIndex,
  type SearchDoc,
  type SearchIndex,
} from './ranking.ts';
import { mixSentenceScores, SENTENCE_GATE, SENTENCE_LEXICAL_DEPTH, type SentenceGate } from './sentence.ts';
import { rankWithServers } from './server-score.ts';
import { docTerms } from './tokenize.ts';

/** Longest query ranked; a longer one is cut (and the answer says so). */
export const TOOL_SEARCH_MAX_QUERY_CHARS = 1000;
/** Candidates ranked before duplicates are grouped (enough to fill max_results after grouping). */
const GROUPING_HEADROOM = 3;

export interface SearchOutcome {
  /** Deferred tools to load, best first. */
  matches: string[];
  /** What the model should know besides the matches (always sent, matches or not). */
  notes: string[];
  /** The query form that answered. */
  form: 'select' | 'name' | 'server' | 'keywords';
}

export interface SearchOptions {
  /** MCP servers still connecting (their tools are not in the pool yet). */
  connecting?: readonly string[];
  /** Semantic expansions of the query's words (./semantic.ts). */
  expansions?: Expansions;
  /** Cosines of the query's sentence embedding with each deferred tool's, by tool name (./sentence.ts). */
  sentence?: ReadonlyMap<string, number>;
  /** The Chinese-English glossary, once loaded (./glossary.ts): Chinese text also ranks by its English. */
  glossary?: Glossary;
}

const docs = new WeakMap<AnyTool, SearchDoc>();
const glossedDocs = new WeakMap<AnyTool, { glossary: Glossary; doc: SearchDoc }>();

/**
 * What ToolSearch indexes for a tool: name parts, server, searchHint, description, parameters; with a
 * glossary, also the English words for the Chinese in its description (`translation`).
 */
export function toolSearchDoc(tool: AnyTool, glossary?: Glossary): SearchDoc {
  const plain = plainDoc(tool);
  if (!glossary || !hasHan(plain.description)) return plain;
  const known = glossedDocs.get(tool);
  if (known?.glossary === glossary) return known.doc;
  const translation = glossOf(plain.description, glossary);
  const doc = translation ? { ...plain, translation } : plain;
  glossedDocs.set(tool, { glossary, doc });
  return doc;
}

function plainDoc(tool: AnyTool): SearchDoc {
  let doc = docs.get(tool);
  if (doc) return doc;
  const props = (tool.inputJSONSchema?.properties ?? {}) as Record<string, { description?: unknown }>;
  let description = '';
  try {
    description = tool.description();
  } catch {
    description = '';
  }
  doc = {
    name: tool.name,
    toolName: tool.mcpInfo?.toolName ?? tool.name,
    server: tool.mcpInfo?.serverName,
    searchHint: tool.searchHint,
    description: typeof description === 'string' ? description : '',
    params: Object.entries(props).map(([name, p]) => ({
      name,
      description: typeof p?.description === 'string' ? p.description : undefined,
    })),
  };
  docs.set(tool, doc);
  return doc;
}

let lastIndex:
  | {
      tools: readonly AnyTool[];
      glossary: Glossary | undefined;
      index: SearchIndex<SearchDoc & { tool: AnyTool }>;
    }
  | undefined;

/**
 * The index of these deferred tools, rebuilt only when the list changes (one index per catalogue) or a
 * glossary arrives.
 */
export function indexFor(
  tools: readonly AnyTool[],
  glossary?: Glossary,
): SearchIndex<SearchDoc & { tool: AnyTool }> {
  const prev = lastIndex;
  if (
    prev &&
    prev.glossary === glossary &&
    prev.tools.length === tools.length &&
    prev.tools.every((t, i) => t === tools[i])
  ) {
    return prev.index;
  }
  const index = buildSearchIndex(tools.map((tool) => ({ ...toolSearchDoc(tool, glossary), tool })));
  lastIndex = { tools: [...tools], glossary, index };
  return index;
}

/**
 * The query as ranked: with the words its paths and URLs imply, and the English for the Chinese runs of
 * it that no tool's text has (a run the catalogue has matches as it is; its English would only add noise:
 * 八字 "birthdate characters" pulls character tools).
 */
function rankedQuery(query: string, index: SearchIndex, glossary: Glossary | undefined): string {
  const q = withEntityWords(query);
  if (!glossary || !hasHan(query)) return q;
  const unmatched = (query.match(/\p{Script=Han}+/gu) ?? []).filter(
    (run) => !docTerms(run).some((t) => hasOwn(index, t)),
  );
  const english = glossOf(unmatched.join(' '), glossary);
  return english ? `${q} ${english}` : q;
}

const duplicateKeys = new WeakMap<AnyTool, string>();
/** Tools with the same key are one tool served twice: same own name, same input schema. */
function duplicateKey(tool: AnyTool): string {
  let key = duplicateKeys.get(tool);
  if (key === undefined) {
    let schema = '';
    try {
      schema = JSON.stringify(tool.inputJSONSchema ?? {});
    } catch {
      schema = tool.name;
    }
    key = `${tool.mcpInfo?.toolName ?? tool.name}\u0000${hashString(schema)}`;
    duplicateKeys.set(tool, key);
  }
  return key;
}

/** `ranked` with later copies of a tool folded into the first; notes name the copies. */
export function groupDuplicates(ranked: readonly AnyTool[]): {
  tools: AnyTool[];
  copies: Map<string, string[]>;
} {
  const first = new Map<string, AnyTool>();
  const copies = new Map<string, string[]>();
  const tools: AnyTool[] = [];
  for (const t of ranked) {
    const key = duplicateKey(t);
    const head = first.get(key);
    if (!head) {
      first.set(key, t);
      tools.push(t);
    } else if (head.name !== t.name) {
      const list = copies.get(head.name) ?? [];
      list.push(t.name);
      copies.set(head.name, list);
    }
  }
  return { tools, copies };
}

function duplicateNotes(copies: Map<string, string[]>): string[] {
  return [...copies].map(
    ([name, others]) =>
      `${name} is also offered as ${others.join(', ')} (same tool and schema); loaded once, call ${name}.`,
  );
}

/** Finds a tool by exact name, then case-insensitively. */
function byName(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === name.toLowerCase());
}

/** The server names of the deferred MCP tools, sorted. */
function serversOf(deferred: readonly AnyTool[]): string[] {
  const set = new Set<string>();
  for (const t of deferred) {
    const m = /^mcp__(.+?)__/.exec(t.name);
    if (m) set.add(m[1]);
  }
  return [...set].sort();
}

const sameServer = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function serverQuery(
  q: string,
  deferred: readonly AnyTool[],
  maxResults: number,
  connecting: readonly string[],
): Omit<SearchOutcome, 'form'> {
  const rest = q.slice('mcp__'.length);
  const sep = rest.indexOf('__');
  const server = (sep >= 0 ? rest.slice(0, sep) : rest).replace(/_+$/, '');
  const toolStart = sep >= 0 ? rest.slice(sep + 2) : '';
  const prefix = `mcp__${server}__`.toLowerCase();
  const ofServer = deferred.filter((t) => t.name.toLowerCase().startsWith(prefix));
  if (ofServer.length === 0) {
    if (connecting.some((c) => sameServer(c, server))) {
      return {
        matches: [],
        notes: [
          `MCP server ${server} is still connecting: its tools are not listed yet. Search again once they are announced.`,
        ],
      };
    }
    const known = serversOf(deferred);
    return {
      matches: [],
      notes: [
        `No MCP server named ${server}. ${known.length ? `Servers with deferred tools: ${known.join(', ')}.` : 'No MCP server has deferred tools.'}${connecting.length ? ` Still connecting: ${connecting.join(', ')}.` : ''}`,
      ],
    };
  }
  const wanted = ofServer
    .filter((t) => t.name.toLowerCase().startsWith(`${prefix}${toolStart.toLowerCase()}`))
    .map((t) => t.name)
    .sort();
  if (wanted.length === 0) {
    return { matches: [], notes: [`No tool of MCP server ${server} starts with ${toolStart}.`] };
  }
  const notes: string[] = [];
  if (wanted.length > maxResults) {
    notes.push(`${wanted.length - maxResults} more tools match ${q}; raise max_results or add keywords.`);
  }
  return { matches: wanted.slice(0, maxResults), notes };
}

/** One result slot of a keyword search: a tool, and the same tool offered by other servers. */
export interface RankedGroup {
  tool: AnyTool;
  copies: AnyTool[];
}

/**
 * Keyword ranking over deferred tools, duplicates grouped into one slot, at most `limit` slots. The query
 * is ranked with the words its paths and URLs imply (./entities.ts). `sentence`: the cosine between the
 * query's sentence embedding and each tool's (by tool name), mixed in by ./sentence.ts; a tool no query
 * word matches ranks by meaning alone when it passes `gate`.
 */
export function rankDeferred(
  deferred: readonly AnyTool[],
  query: string,
  limit: number,
  expansions?: Expansions,
  sentence?: ReadonlyMap<string, number>,
  gate: SentenceGate = SENTENCE_GATE,
  glossary?: Glossary,
): RankedGroup[] {
  const index = indexFor(deferred, glossary);
  const q = rankedQuery(query, index, glossary);
  let order: AnyTool[];
  if (sentence?.size) {
    const ranked = rankWithServers(index, q, SENTENCE_LEXICAL_DEPTH, expansions);
    const byName = new Map(deferred.map((t) => [t.name, t]));
    // With +required words, only the tools that have them may rank (rankIndex of those words alone).
    const required = parseKeywordQuery(q).required;
    const allowed = required.length
      ? new Set(rankIndex(index, required.map((w) => `+${w}`).join(' ')).map((r) => r.doc.tool.name))
      : undefined;
    const names = mixSentenceScores(
      ranked.map((r) => ({ key: r.doc.tool.name, score: r.score })),
      allowed ? new Map([...sentence].filter(([n]) => allowed.has(n))) : sentence,
      undefined,
      gate,
    );
    order = names
      .slice(0, limit * GROUPING_HEADROOM)
      .map((n) => byName.get(n))
      .filter((t): t is AnyTool => t !== undefined);
  } else {
    order = rankWithServers(index, q, limit * GROUPING_HEADROOM, expansions).map((r) => r.doc.tool);
  }
  const byName = new Map(order.map((t) => [t.name, t]));
  const { tools, copies } = groupDuplicates(order);
  return tools.slice(0, limit).map((tool) => ({
    tool,
    copies: (copies.get(tool.name) ?? [])
      .map((n) => byName.get(n))
      .filter((t): t is AnyTool => t !== undefined),
  }));
}

/** True when `query` is ranked by keywords (not select:, an exact name or an mcp__ server prefix). */
export function isKeywordQuery(pool: readonly AnyTool[], query: string): boolean {
  const q = query.trim().slice(0, TOOL_SEARCH_MAX_QUERY_CHARS);
  if (q === '' || /^select:/i.test(q) || /^mcp__[^\s]+$/i.test(q)) return false;
  return /\s/.test(q) || !byName(pool, q);
}

/** Runs a query over `pool` (its deferred tools are the catalogue). Pure; exported for tests and benchmarks. */
export function searchTools(
  pool: readonly AnyTool[],
  query: string,
  maxResults: number,
  options: SearchOptions = {},
): SearchOutcome {
  const deferred = pool.filter(isDeferredTool);
  const connecting = options.connecting ?? [];
  let q = query.trim();
  const notes: string[] = [];
  if (q.length > TOOL_SEARCH_MAX_QUERY_CHARS) {
    q = q.slice(0, TOOL_SEARCH_MAX_QUERY_CHARS);
    notes.push(`The query was cut to its first ${TOOL_SEARCH_MAX_QUERY_CHARS} characters.`);
  }

  const pick = (names: string[], form: 'select' | 'name'): SearchOutcome => {
    const found: AnyTool[] = [];
    for (const raw of names) {
      const tool = byName(pool, raw);
      if (!tool) {
        const server = /^mcp__(.+?)__/.exec(raw)?.[1];
        const waiting = server !== undefined && connecting.some((c) => sameServer(c, server));
        notes.push(
          waiting
            ? `No tool named ${raw} yet: MCP server ${server} is still connecting. Search again once its tools are announced.`
            : `No tool named ${raw}.`,
        );
      } else if (!isDeferredTool(tool)) notes.push(`${tool.name} is already loaded; call it directly.`);
      else if (!found.includes(tool)) found.push(tool);
    }
    const { tools, copies } = groupDuplicates(found);
    return { matches: tools.map((t) => t.name), notes: [...notes, ...duplicateNotes(copies)], form };
  };

  if (/^select:/i.test(q)) {
    return pick(
      q
        .slice('select:'.length)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      'select',
    );
  }
  if (!/\s/.test(q) && byName(pool, q)) return pick([q], 'name');
  if (/^mcp__[^\s]+$/i.test(q)) {
    const out = serverQuery(q, deferred, maxResults, connecting);
    return { matches: out.matches, notes: [...notes, ...out.notes], form: 'server' };
  }
  const groups = rankDeferred(
    deferred,
    q,
    maxResults,
    options.expansions,
    options.sentence,
    SENTENCE_GATE,
    options.glossary,
  );
  const copies = new Map(
    groups.filter((g) => g.copies.length).map((g) => [g.tool.name, g.copies.map((c) => c.name)]),
  );
  const matches = groups.map((g) => g.tool);
  notes.push(...duplicateNotes(copies));
  if (connecting.length) {
    notes.push(
      `MCP servers still connecting: ${connecting.join(', ')}. Their tools are not searchable yet; search again once they are announced.`,
    );
  }
  return { matches: matches.map((t) => t.name), notes, form: 'keywords' };
}
