/**
 * A misbehaving MCP server for bad-input tests, on the real SDK's low-level `Server` (which, unlike
 * McpServer, sends tools/list entries as given, so malformed schemas reach the client):
 *
 * - good tools: `echo`, `slow` (sleeps `ms`, honours cancellation), `huge` (a text of `chars`
 *   characters), `flaky` (answers isError), `broken` (a JSON-RPC error), `media` (an image, a resource
 *   link, an embedded text resource, an embedded blob and an audio clip), `structured` (only
 *   structuredContent), `dotted.name` (a name the API would reject as is);
 * - malformed tools, skipped by the client: a string schema, no schema, properties not an object, a
 *   property that is not a schema, required not a list, no name, and `echo` listed a second time.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A 1×1 red PNG. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const obj = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

export const GOOD_TOOLS: unknown[] = [
  {
    name: 'echo',
    description: 'Echoes its text back.',
    inputSchema: obj({ text: { type: 'string' } }, ['text']),
    annotations: { readOnlyHint: true },
  },
  {
    name: 'slow',
    description: 'Waits ms milliseconds, then answers.',
    inputSchema: obj({ ms: { type: 'integer' } }, ['ms']),
    annotations: { readOnlyHint: true },
  },
  {
    name: 'huge',
    description: 'Returns a very long text.',
    inputSchema: obj({ chars: { type: 'integer' } }, ['chars']),
  },
  { name: 'flaky', description: 'Always reports a tool error.', inputSchema: obj() },
  { name: 'broken', description: 'Fails with a protocol error.', inputSchema: obj() },
  {
    name: 'media',
    description: 'Returns every kind of content.',
    inputSchema: obj(),
    annotations: { readOnlyHint: true, destructiveHint: false },
  },
  { name: 'structured', description: 'Returns only structured content.', inputSchema: obj() },
  {
    name: 'dotted.name',
    description: 'A tool whose name has a dot.',
    inputSchema: obj(),
    annotations: { destructiveHint: true },
  },
];

export const MALFORMED_TOOLS: unknown[] = [
  { name: 'string_schema', description: 'Bad', inputSchema: { type: 'string' } },
  { name: 'no_schema', description: 'Bad' },
  { name: 'bad_properties', description: 'Bad', inputSchema: { type: 'object', properties: 'nope' } },
  { name: 'bad_property', description: 'Bad', inputSchema: { type: 'object', properties: { a: 42 } } },
  { name: 'bad_required', description: 'Bad', inputSchema: { type: 'object', required: 'a' } },
  { description: 'No name at all', inputSchema: obj() },
  { name: 'echo', description: 'A duplicate', inputSchema: obj() },
];

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new Error('cancelled'));
      },
      { once: true },
    );
  });

export interface QuirkyServer {
  createServer(): Server;
  /** Calls of `slow` the client cancelled (notifications/cancelled reached the server). */
  cancelled: string[];
}

export function createQuirkyServer(): QuirkyServer {
  const cancelled: string[] = [];
  return {
    cancelled,
    createServer() {
      const server = new Server({ name: 'quirky', version: '0.0.1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [...GOOD_TOOLS, ...MALFORMED_TOOLS] as never,
      }));
      server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
        const args = (req.params.arguments ?? {}) as Record<string, unknown>;
        switch (req.params.name) {
          case 'echo':
            return { content: [{ type: 'text', text: `echo: ${String(args.text)}` }] };
          case 'slow':
            try {
              await sleep(Number(args.ms ?? 0), extra.signal);
            } catch {
              cancelled.push(String(extra.requestId));
              throw new Error('cancelled');
            }
            return { content: [{ type: 'text', text: `waited ${Number(args.ms)} ms` }] };
          case 'huge': {
            const line = 'x'.repeat(99);
            const n = Number(args.chars ?? 0);
            const text = `${line}\n`.repeat(Math.ceil(n / 100)).slice(0, n);
            return { content: [{ type: 'text', text }] };
          }
          case 'flaky':
            return { content: [{ type: 'text', text: 'the upstream service is down' }], isError: true };
          case 'broken':
            throw new Error('database exploded');
          case 'media':
            return {
              content: [
                { type: 'text', text: 'Here is everything:' },
                { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
                { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
                {
                  type: 'resource_link',
                  uri: 'file:///notes/todo.md',
                  name: 'todo.md',
                  mimeType: 'text/markdown',
                  description: 'The to-do list',
                },
                {
                  type: 'resource',
                  resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'memo body' },
                },
                {
                  type: 'resource',
                  resource: { uri: 'blob://1', mimeType: 'application/zip', blob: 'UEsDBA==' },
                },
                { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
              ],
            };
          case 'structured':
            return { content: [], structuredContent: { temperature: 21, unit: 'C' } };
          case 'dotted.name':
            return { content: [{ type: 'text', text: 'dotted ok' }] };
          default:
            return { content: [{ type: 'text', text: `Unknown tool ${req.params.name}` }], isError: true };
        }
      });
      return server;
    },
  };
}
