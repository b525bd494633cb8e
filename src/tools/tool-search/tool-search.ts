/**
 * ToolSearch: loads deferred tools (MCP tools unless alwaysLoad, `shouldDefer` built-ins). The pool of
 * the current request (`ctx.options.tools`) is its catalogue. Query forms: `select:A,B`, one exact name,
 * an `mcp__<server>` prefix, or keywords (`+term` required in the name) ranked by ./ranking.ts.
 *
 * Its result is one `tool_reference` block per loaded tool (native mode); the loop turns those into
 * full schemas as text when the session runs in portable mode. With no match it says so, and names the
 * MCP servers still connecting (their tools are not in the catalogue yet).
 *
 * Always in the pool, even with no deferred tool: adding it when the first MCP server connects would
 * change `tools` and bust the prompt cache of everything after it; it costs a few hundred cached tokens.
 */
import { z } from 'zod';
import {
  TOOL_SEARCH_DEFAULT_MAX_RESULTS,
  TOOL_SEARCH_MAX_RESULTS_LIMIT,
  TOOL_SEARCH_TOOL_NAME,
} from '../../core/constants.ts';
import { isDeferredTool, toolReferenceBlock } from '../../core/deferred-tools.ts';
import { type AnyTool, buildTool, textResult } from '../../core/tool.ts';
import promptText from './prompt.md?raw';
import { rankTools, type SearchDoc } from './ranking.ts';

const PROMPT = promptText
  .replaceAll('{{DEFAULT_MAX_RESULTS}}', String(TOOL_SEARCH_DEFAULT_MAX_RESULTS))
  .replaceAll('{{MAX_RESULTS_LIMIT}}', String(TOOL_SEARCH_MAX_RESULTS_LIMIT))
  .trim();

const inputSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .describe(
      'What to load: "select:<name>[,<name>...]", one exact tool name, "mcp__<server>", or keywords (prefix a word with + to require it in the name)',
    ),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(TOOL_SEARCH_MAX_RESULTS_LIMIT)
    .optional()
    .describe(`Most tools to return (default ${TOOL_SEARCH_DEFAULT_MAX_RESULTS})`),
});

export type ToolSearchInput = z.infer<typeof inputSchema>;

export interface ToolSearchOutput {
  query: string;
  /** Deferred tools loaded by this search, best first. */
  matches: string[];
  /** Deferred tools in the catalogue. */
  totalDeferred: number;
  /** MCP servers still connecting when the search ran. */
  connecting: string[];
  /** Names asked for with select: (or exactly) that are already loaded or do not exist. */
  notes: string[];
}

const docs = new WeakMap<AnyTool, SearchDoc>();

/** What ToolSearch indexes for a tool: name parts, server, searchHint, description, parameters. */
export function toolSearchDoc(tool: AnyTool): SearchDoc {
  let doc = docs.get(tool);
  if (doc) return doc;
  const props = (tool.inputJSONSchema.properties ?? {}) as Record<string, { description?: unknown }>;
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
    description,
    params: Object.entries(props).map(([name, p]) => ({
      name,
      description: typeof p?.description === 'string' ? p.description : undefined,
    })),
  };
  docs.set(tool, doc);
  return doc;
}

/** Finds a tool by exact name, then case-insensitively. */
function byName(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === name.toLowerCase());
}

/** Runs a query over `pool`. Pure; exported for tests and benchmarks. */
export function searchTools(
  pool: readonly AnyTool[],
  query: string,
  maxResults: number = TOOL_SEARCH_DEFAULT_MAX_RESULTS,
): { matches: string[]; notes: string[] } {
  const deferred = pool.filter(isDeferredTool);
  const q = query.trim();
  const notes: string[] = [];

  const pick = (names: string[]) => {
    const matches: string[] = [];
    for (const raw of names) {
      const tool = byName(pool, raw);
      if (!tool) notes.push(`No tool named ${raw}.`);
      else if (!isDeferredTool(tool)) notes.push(`${tool.name} is already loaded; call it directly.`);
      else if (!matches.includes(tool.name)) matches.push(tool.name);
    }
    return { matches, notes };
  };

  if (/^select:/i.test(q)) {
    return pick(
      q
        .slice('select:'.length)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  }
  if (!/\s/.test(q) && byName(pool, q)) return pick([q]);
  if (/^mcp__[^\s]+$/.test(q)) {
    const prefix = q.replace(/_+$/, '');
    const server = deferred
      .filter((t) => t.name === prefix || t.name.startsWith(`${prefix}__`) || t.name.startsWith(prefix))
      .map((t) => t.name)
      .sort();
    if (server.length > 0) {
      if (server.length > maxResults) {
        notes.push(`${server.length - maxResults} more tools match ${q}; raise max_results or add keywords.`);
      }
      return { matches: server.slice(0, maxResults), notes };
    }
  }
  const ranked = rankTools(q, deferred.map(toolSearchDoc), maxResults);
  return { matches: ranked.map((r) => r.doc.name), notes };
}

/** The text the model sees when nothing matched. */
export function noMatchText(output: ToolSearchOutput): string {
  const lines = [
    output.totalDeferred === 0
      ? `No deferred tools match "${output.query}": none are available${output.connecting.length ? ' yet' : ''}.`
      : `No deferred tools match "${output.query}" (${output.totalDeferred} deferred tools are available). Try other keywords, "select:<exact name>" for a name from the announcements, or "mcp__<server>" to list a server's tools.`,
    ...output.notes,
  ];
  if (output.connecting.length) {
    lines.push(
      `MCP servers still connecting: ${output.connecting.join(', ')}. Their tools are not listed yet; search again once they are announced.`,
    );
  }
  return lines.join('\n');
}

export interface ToolSearchOptions {
  /** Names of MCP servers still connecting (their tools are not in the pool yet). */
  connectingServers?: () => readonly string[];
}

/** A ToolSearch tool; `connectingServers` lets a no-match answer name servers still connecting. */
export function createToolSearchTool(options: ToolSearchOptions = {}) {
  return buildTool<typeof inputSchema, ToolSearchOutput>({
    name: TOOL_SEARCH_TOOL_NAME,
    searchHint: 'find load deferred mcp tools schema',
    inputSchema,
    maxResultSizeChars: Number.POSITIVE_INFINITY,

    userFacingName: () => 'ToolSearch',
    description: () => 'Load deferred (MCP) tools by name, server or keywords so they can be called.',
    prompt: () => PROMPT,

    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    checkPermissions: async () => ({ behavior: 'allow' }),

    async call(input, ctx) {
      const pool = ctx.options.tools;
      const { matches, notes } = searchTools(pool, input.query, input.max_results);
      let connecting: string[] = [];
      try {
        connecting = [...(options.connectingServers?.() ?? [])];
      } catch {
        connecting = [];
      }
      return {
        data: {
          query: input.query,
          matches,
          totalDeferred: pool.filter(isDeferredTool).length,
          connecting,
          notes,
        },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId) {
      if (output.matches.length === 0) return textResult(toolUseId, noMatchText(output));
      return {
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: output.matches.map(toolReferenceBlock) as never,
      };
    },

    renderToolUseMessage(input) {
      return {
        title: 'ToolSearch',
        ...(input.query !== undefined ? { subtitle: input.query } : {}),
        body: { kind: 'none' },
      };
    },

    renderToolResultMessage(output) {
      if (output.matches.length === 0) return { kind: 'text', text: noMatchText(output) };
      return { kind: 'text', text: `Loaded: ${output.matches.join(', ')}` };
    },

    toAutoClassifierInput: (input) => input.query,
  });
}

/** The registry's ToolSearch (no connecting-servers provider; the session makes its own). */
export const ToolSearchTool = createToolSearchTool();
