/**
 * An MCP server of our own with many generated tools (240 by default): 12 product domains × 5 objects
 * × 4 verbs, each with a description, a JSON input schema, annotations (get/list/search are read-only,
 * delete is destructive) and deterministic results. `weather_get_forecast` is marked
 * `_meta['anthropic/alwaysLoad']`. tools/list is paged (50 per page) to exercise cursors, and
 * `addTools`/`removeTools` send tools/list_changed to every connected session.
 *
 * Run it alone: `npx tsx e2e/mcp/many-tools-server.ts [port]` (Streamable HTTP on 127.0.0.1, CORS on).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { startMcpHttpHost } from './http-host.ts';

const DOMAINS: Record<string, { label: string; objects: string[] }> = {
  github: { label: 'GitHub', objects: ['issue', 'pull_request', 'branch', 'release', 'workflow'] },
  jira: { label: 'Jira', objects: ['ticket', 'sprint', 'board', 'epic', 'comment'] },
  slack: { label: 'Slack', objects: ['message', 'channel', 'reaction', 'reminder', 'user_group'] },
  calendar: { label: 'Calendar', objects: ['event', 'invite', 'room', 'availability', 'calendar'] },
  drive: { label: 'Drive', objects: ['file', 'folder', 'permission', 'revision', 'shortcut'] },
  crm: { label: 'CRM', objects: ['contact', 'deal', 'account', 'lead', 'note'] },
  billing: { label: 'Billing', objects: ['invoice', 'subscription', 'refund', 'coupon', 'customer'] },
  analytics: { label: 'Analytics', objects: ['report', 'dashboard', 'metric', 'segment', 'funnel'] },
  weather: { label: 'Weather', objects: ['forecast', 'alert', 'station', 'radar', 'history'] },
  maps: { label: 'Maps', objects: ['route', 'place', 'geocode', 'distance', 'traffic'] },
  docs: { label: 'Docs', objects: ['document', 'template', 'outline', 'suggestion', 'export'] },
  email: { label: 'Email', objects: ['draft', 'thread', 'label', 'filter', 'attachment'] },
};
const VERBS = ['get', 'list', 'search', 'delete', 'create', 'update', 'archive', 'export'] as const;
const VERB_TEXT: Record<string, string> = {
  get: 'Gets one',
  list: 'Lists',
  search: 'Searches',
  delete: 'Permanently deletes a',
  create: 'Creates a new',
  update: 'Updates an existing',
  archive: 'Archives a',
  export: 'Exports a',
};

/** The tool every generated catalogue marks alwaysLoad. */
export const ALWAYS_LOAD_TOOL = 'weather_get_forecast';
/** Tools per tools/list page. */
export const PAGE_SIZE = 50;

function generatedTool(domain: string, verb: string, object: string): Tool {
  const { label } = DOMAINS[domain];
  const words = object.replace(/_/g, ' ');
  const idName = `${object}_id`;
  const properties: Record<string, object> = {};
  const required: string[] = [];
  if (verb === 'list' || verb === 'search') {
    if (verb === 'search') {
      properties.query = { type: 'string', description: `Text to search ${label} ${words}s for` };
      required.push('query');
    }
    properties.limit = { type: 'integer', minimum: 1, maximum: 100, description: 'Most results returned' };
  } else if (verb === 'create') {
    properties.title = { type: 'string', description: `Title of the ${words}` };
    properties.body = { type: 'string', description: 'Optional longer text' };
    required.push('title');
  } else {
    properties[idName] = { type: 'string', description: `Identifier of the ${label} ${words}` };
    required.push(idName);
    if (verb === 'update') properties.fields = { type: 'object', description: 'Fields to change' };
  }
  if (domain === 'weather' || domain === 'maps') {
    properties.city = { type: 'string', description: 'City name, e.g. Lisbon' };
  }
  const readOnly = verb === 'get' || verb === 'list' || verb === 'search';
  return {
    name: `${domain}_${verb}_${object}`,
    description: `${VERB_TEXT[verb]} ${label} ${words}${verb === 'list' || verb === 'search' ? 's' : ''}.`,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    annotations: { readOnlyHint: readOnly, destructiveHint: verb === 'delete' },
  };
}

/** The generated catalogue: `count` tools (at most 480), sorted as generated. */
export function generateTools(count = 240): Tool[] {
  const tools: Tool[] = [];
  // Verbs outermost: the first 240 cover every domain and object with get, list, search and delete.
  for (const verb of VERBS) {
    for (const [domain, { objects }] of Object.entries(DOMAINS)) {
      for (const object of objects) tools.push(generatedTool(domain, verb, object));
    }
  }
  const out = tools.slice(0, count);
  const forecast = out.find((t) => t.name === ALWAYS_LOAD_TOOL);
  if (forecast) {
    forecast.description =
      'Gets the weather forecast for a city: temperature and conditions for the next days.';
    forecast.inputSchema = {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Lisbon' },
        days: { type: 'integer', minimum: 1, maximum: 7, description: 'How many days (default 3)' },
      },
      required: ['city'],
      additionalProperties: false,
    };
    forecast._meta = { 'anthropic/alwaysLoad': true, 'anthropic/searchHint': 'temperature rain outlook' };
  }
  return out;
}

/** Deterministic answer of a generated tool. */
export function answer(name: string, args: Record<string, unknown>): CallToolResult {
  if (name === ALWAYS_LOAD_TOOL) {
    const city = String(args.city ?? '');
    if (!city) return { content: [{ type: 'text', text: 'city is required' }], isError: true };
    const days = Number(args.days ?? 3);
    const lines = Array.from(
      { length: days },
      (_, i) => `day ${i + 1}: ${18 + ((city.length + i) % 7)}°C, clear`,
    );
    return { content: [{ type: 'text', text: `Forecast for ${city}:\n${lines.join('\n')}` }] };
  }
  return { content: [{ type: 'text', text: `${name} ok ${JSON.stringify(args)}` }] };
}

export interface ManyToolsServer {
  /** A new Server object for one session (pass to an HTTP host or connect to an in-memory transport). */
  createServer(): Server;
  /** The current catalogue. */
  tools(): Tool[];
  /** Adds tools and notifies every connected session (tools/list_changed). */
  addTools(tools: Tool[]): Promise<void>;
  /** Removes tools by name and notifies. */
  removeTools(names: string[]): Promise<void>;
  /** Every tools/call seen: name and arguments. */
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** How many times a client read the whole list (its last page was served). */
  listings(): number;
}

export function createManyToolsServer(options: { count?: number } = {}): ManyToolsServer {
  let catalogue = generateTools(options.count ?? 240);
  const live = new Set<Server>();
  const calls: ManyToolsServer['calls'] = [];
  let listings = 0;
  const notify = async () => {
    await Promise.all([...live].map((s) => s.sendToolListChanged().catch(() => {})));
  };
  return {
    createServer() {
      const server = new Server(
        { name: 'many-tools', version: '1.0.0' },
        { capabilities: { tools: { listChanged: true } } },
      );
      server.setRequestHandler(ListToolsRequestSchema, async (req) => {
        const start = Number(req.params?.cursor ?? 0) || 0;
        const page = catalogue.slice(start, start + PAGE_SIZE);
        const next = start + PAGE_SIZE < catalogue.length ? String(start + PAGE_SIZE) : undefined;
        if (!next) listings++;
        return { tools: page, ...(next ? { nextCursor: next } : {}) };
      });
      server.setRequestHandler(CallToolRequestSchema, async (req) => {
        const args = (req.params.arguments ?? {}) as Record<string, unknown>;
        calls.push({ name: req.params.name, arguments: args });
        if (!catalogue.some((t) => t.name === req.params.name)) {
          return { content: [{ type: 'text', text: `Unknown tool: ${req.params.name}` }], isError: true };
        }
        return answer(req.params.name, args);
      });
      server.oninitialized = () => live.add(server);
      server.onclose = () => live.delete(server);
      return server;
    },
    tools: () => catalogue,
    async addTools(tools) {
      catalogue = [...catalogue, ...tools];
      await notify();
    },
    async removeTools(names) {
      catalogue = catalogue.filter((t) => !names.includes(t.name));
      await notify();
    },
    calls,
    listings: () => listings,
  };
}

// Standalone: npx tsx e2e/mcp/many-tools-server.ts [port]
if (import.meta.url === `file://${process.argv[1]}`) {
  const many = createManyToolsServer();
  const host = await startMcpHttpHost({
    createServer: () => many.createServer(),
    port: Number(process.argv[2] ?? 0),
  });
  console.log(`many-tools MCP server (${many.tools().length} tools) at ${host.url}`);
}
