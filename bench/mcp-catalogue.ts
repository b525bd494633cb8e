/**
 * The MCP tool catalogue of ../shared/bench-data (LiveMCPBench's 70 servers / 527 tools and the GitHub MCP
 * server's 117 tools) as tabcode Tools, shaped the way the MCP adapters make them: `isMcp`, `mcpInfo`,
 * name `mcp__<server>__<tool>`, the input JSON schema as given. Benchmarks only: tests never read it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type AnyTool, buildTool, type ToolInputJSONSchema, textResult } from '../src/core/tool.ts';
import type { SearchDoc } from '../src/tools/tool-search/ranking.ts';

export interface CatalogueEntry {
  server: string;
  /** The tool's own name, as the server lists it. */
  tool: string;
  description: string;
  inputSchema: ToolInputJSONSchema;
}

/** `mcp__<server>__<tool>` with characters the API refuses replaced by `_` (the MCP adapters' rule). */
export function mcpName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `mcp__${clean(server)}__${clean(tool)}`.slice(0, 64);
}

interface LiveServerEntry {
  tools: Record<
    string,
    { tools: { name: string; description?: string; inputSchema: ToolInputJSONSchema }[] }
  >;
}

/** Throws a readable error when the data folder is absent (benchmarks print it and skip). */
export function requireData(dataDir: string | undefined): string {
  if (!dataDir || !existsSync(join(dataDir, 'livemcpbench', 'tools.json'))) {
    throw new Error(
      `bench data not found (${dataDir ?? '../shared/bench-data'}): this benchmark needs livemcpbench/ and github-mcp-server/; pass --data DIR`,
    );
  }
  return dataDir;
}

export function loadLiveMcpBench(dataDir: string): CatalogueEntry[] {
  const raw = JSON.parse(
    readFileSync(join(dataDir, 'livemcpbench', 'tools.json'), 'utf8'),
  ) as LiveServerEntry[];
  const out: CatalogueEntry[] = [];
  for (const entry of raw) {
    for (const [server, list] of Object.entries(entry.tools)) {
      for (const t of list.tools) {
        out.push({ server, tool: t.name, description: t.description ?? '', inputSchema: t.inputSchema });
      }
    }
  }
  return out;
}

export function loadGitHubMcp(dataDir: string): CatalogueEntry[] {
  const dir = join(dataDir, 'github-mcp-server');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const t = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        name: string;
        description?: string;
        inputSchema: ToolInputJSONSchema;
      };
      return { server: 'github', tool: t.name, description: t.description ?? '', inputSchema: t.inputSchema };
    });
}

/** Both catalogues, names made unique (a later duplicate is dropped, as the pool would). */
export function loadCatalogue(dataDir: string): CatalogueEntry[] {
  const seen = new Set<string>();
  return [...loadLiveMcpBench(dataDir), ...loadGitHubMcp(dataDir)].filter((e) => {
    const name = mcpName(e.server, e.tool);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

/** An MCP-shaped Tool for a catalogue entry; `call` answers with a short canned text. */
export function toMcpTool(
  e: CatalogueEntry,
  opts: { alwaysLoad?: boolean; description?: () => string; result?: string } = {},
): AnyTool {
  return buildTool({
    name: mcpName(e.server, e.tool),
    inputSchema: z.looseObject({}),
    inputJSONSchema: e.inputSchema,
    description: opts.description ?? (() => e.description),
    isMcp: true,
    mcpInfo: { serverName: e.server, toolName: e.tool },
    ...(opts.alwaysLoad ? { alwaysLoad: true } : {}),
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    checkPermissions: async () => ({ behavior: 'allow' }),
    call: async () => ({ data: opts.result ?? `${e.tool}: ok` }),
    mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
  });
}

/** The search document of a catalogue entry (what ToolSearch indexes for an MCP tool). */
export function toSearchDoc(e: CatalogueEntry): SearchDoc & { entry: CatalogueEntry } {
  const props = (e.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
  return {
    entry: e,
    name: mcpName(e.server, e.tool),
    toolName: e.tool,
    server: e.server,
    description: e.description,
    params: Object.entries(props).map(([name, p]) => ({
      name,
      description: typeof p?.description === 'string' ? p.description : undefined,
    })),
  };
}

/** The reference servers' captured `tools/list` (filesystem, memory, legacy github, puppeteer, fetch, cloudflare). */
export function loadReferenceServers(dataDir: string): CatalogueEntry[] {
  const dir = join(dataDir, 'reference-servers');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const server = f.replace(/\.json$/, '');
      const snap = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        tools: { name: string; description?: string; inputSchema: ToolInputJSONSchema }[];
      };
      return snap.tools.map((t) => ({
        server,
        tool: t.name,
        description: t.description ?? '',
        inputSchema: t.inputSchema,
      }));
    });
}

/** LiveMCPBench + GitHub MCP + the reference servers (727 tools), names made unique as the pool would. */
export function loadFullCatalogue(dataDir: string): CatalogueEntry[] {
  const seen = new Set<string>();
  return [...loadLiveMcpBench(dataDir), ...loadGitHubMcp(dataDir), ...loadReferenceServers(dataDir)].filter(
    (e) => {
      const name = mcpName(e.server, e.tool);
      if (seen.has(name)) return false;
      seen.add(name);
      return true;
    },
  );
}
