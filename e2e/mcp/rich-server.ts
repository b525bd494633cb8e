/**
 * An MCP server that uses everything a server can send a client, on the SDK's low-level `Server`, for
 * tests of the client's side of each: instructions, resources (text, a binary image, a template),
 * prompts with arguments, logging, progress, elicitation (a form with defaults), sampling, roots,
 * list_changed storms, and every content kind in tool results (audience annotations, resource links,
 * structured content, an empty error, an oversized image).
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { TINY_PNG } from './quirky-server.ts';

export const RICH_INSTRUCTIONS = 'Call whoami before anything else. Notes live under memo://notes/.';

/** A form of every field kind, with defaults. */
export const PROFILE_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', default: 'Ada' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 36 },
    email: { type: 'string', format: 'email', description: 'Where to send the report' },
    plan: { type: 'string', enum: ['free', 'pro'], enumNames: ['Free', 'Pro'], default: 'free' },
    subscribe: { type: 'boolean', default: true },
  },
  required: ['name', 'email'],
} as const;

const obj = (properties: Record<string, object> = {}, required: string[] = []) => ({
  type: 'object' as const,
  properties,
  required,
});

const BASE_TOOLS: Tool[] = [
  {
    name: 'whoami',
    description: 'Says who you are.',
    inputSchema: obj(),
    annotations: { readOnlyHint: true },
  },
  { name: 'ask_profile', description: 'Asks the user for their profile (elicitation).', inputSchema: obj() },
  {
    name: 'long_task',
    description: 'Works in steps, reporting progress.',
    inputSchema: obj({ steps: { type: 'integer' }, ms: { type: 'integer' } }, ['steps', 'ms']),
  },
  { name: 'log_some', description: 'Writes log messages.', inputSchema: obj() },
  { name: 'make_link', description: 'Returns a link to a note.', inputSchema: obj() },
  {
    name: 'for_user',
    description: 'Returns content for the user only and for the model only.',
    inputSchema: obj(),
  },
  { name: 'structured', description: 'Returns text and structured content.', inputSchema: obj() },
  { name: 'empty_error', description: 'Fails with no content.', inputSchema: obj() },
  { name: 'huge_image', description: 'Returns an 8 MB PNG.', inputSchema: obj() },
  { name: 'big_photo', description: 'Returns a real 2000×1400 PNG of about 7 MB.', inputSchema: obj() },
  { name: 'ask_model', description: 'Asks the client to sample the model.', inputSchema: obj() },
  { name: 'list_roots', description: "Lists the client's roots.", inputSchema: obj() },
  { name: 'add_note', description: 'Adds a note resource (resources/list_changed).', inputSchema: obj() },
  {
    name: 'storm',
    description: 'Sends many tools/list_changed notifications (and adds one tool).',
    inputSchema: obj({ count: { type: 'integer' } }, ['count']),
  },
];

const NOTE = '# Note 1\nBuy milk.';

/**
 * A real PNG of `width`×`height` (a smooth gradient) carrying `padBytes` of random bytes in a private
 * ancillary chunk, which decoders skip: megabytes on the wire, a small image once decoded and drawn.
 */
export function paddedPng(width: number, height: number, padBytes: number): string {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * row + 1 + x * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = 128;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    // Ancillary ('p' lower case), private, safe to copy: every decoder ignores it.
    chunk('pdAt', randomBytes(padBytes)),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}

let photo: string | undefined;

/** An 8 MB base64 payload that starts like a PNG: too large for the model, whatever it holds. */
function hugePng(): string {
  const head = Buffer.from(TINY_PNG, 'base64');
  return Buffer.concat([head, Buffer.alloc(8 * 1024 * 1024, 7)]).toString('base64');
}

export interface RichServer {
  createServer(): Server;
  /** Answers elicitations got back, per call. */
  elicited: unknown[];
  /** Roots each list_roots call got. */
  roots: unknown[];
  /** Number of tools/list requests served. */
  listings(): number;
}

export function createRichServer(options: { instructions?: string } = {}): RichServer {
  const elicited: unknown[] = [];
  const roots: unknown[] = [];
  let listings = 0;
  let extraTools: Tool[] = [];
  let notes = 1;
  const sessions = new Set<Server>();
  return {
    elicited,
    roots,
    listings: () => listings,
    createServer() {
      const server = new Server(
        { name: 'rich', version: '1.0.0' },
        {
          capabilities: {
            tools: { listChanged: true },
            resources: { listChanged: true },
            prompts: { listChanged: true },
            logging: {},
          },
          instructions: options.instructions ?? RICH_INSTRUCTIONS,
        },
      );
      sessions.add(server);
      server.onclose = () => sessions.delete(server);
      server.setRequestHandler(ListToolsRequestSchema, async () => {
        listings++;
        return { tools: [...BASE_TOOLS, ...extraTools] };
      });
      server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
        const args = (req.params.arguments ?? {}) as Record<string, unknown>;
        switch (req.params.name) {
          case 'whoami': {
            const bearer = /^Bearer /.test(String(extra.requestInfo?.headers?.authorization ?? ''));
            return { content: [{ type: 'text', text: `you are ${bearer ? 'signed in' : 'a guest'}` }] };
          }
          case 'ask_profile': {
            const answer = await extra.sendRequest(
              {
                method: 'elicitation/create',
                params: { message: 'Who are you?', requestedSchema: PROFILE_SCHEMA },
              },
              ElicitResultSchema,
            );
            elicited.push(answer);
            return { content: [{ type: 'text', text: `elicitation: ${JSON.stringify(answer)}` }] };
          }
          case 'long_task': {
            const steps = Number(args.steps ?? 3);
            const token = req.params._meta?.progressToken;
            for (let i = 1; i <= steps; i++) {
              await new Promise((r) => setTimeout(r, Number(args.ms ?? 100)));
              if (token !== undefined) {
                await extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
                });
              }
            }
            return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
          }
          case 'log_some':
            await server.sendLoggingMessage({ level: 'info', logger: 'rich', data: 'starting <b>work</b>' });
            await server.sendLoggingMessage({
              level: 'error',
              data: { failed: '<img src=x onerror=alert(1)>' },
            });
            return { content: [{ type: 'text', text: 'logged' }] };
          case 'make_link':
            return {
              content: [
                {
                  type: 'resource_link',
                  uri: 'memo://notes/1',
                  name: 'note-1',
                  mimeType: 'text/markdown',
                  description: 'The first note',
                },
              ],
            };
          case 'for_user':
            return {
              content: [
                { type: 'text', text: 'shown to the user only', annotations: { audience: ['user'] } },
                { type: 'text', text: 'for the model', annotations: { audience: ['assistant'] } },
                { type: 'text', text: 'for both' },
              ],
            };
          case 'structured':
            return {
              content: [{ type: 'text', text: 'It is 21 degrees.' }],
              structuredContent: { temperature: 21, unit: 'C' },
            };
          case 'empty_error':
            return { content: [], isError: true };
          case 'huge_image':
            return { content: [{ type: 'image', data: hugePng(), mimeType: 'image/png' }] };
          case 'big_photo':
            photo ??= paddedPng(2000, 1400, 7 * 1024 * 1024);
            return { content: [{ type: 'image', data: photo, mimeType: 'image/png' }] };
          case 'ask_model': {
            const res = await extra.sendRequest(
              {
                method: 'sampling/createMessage',
                params: {
                  messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
                  maxTokens: 50,
                },
              },
              CreateMessageResultSchema,
            );
            return { content: [{ type: 'text', text: `model said: ${JSON.stringify(res.content)}` }] };
          }
          case 'list_roots': {
            const res = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
            roots.push(res.roots);
            return { content: [{ type: 'text', text: JSON.stringify(res.roots) }] };
          }
          case 'add_note':
            notes++;
            await server.sendResourceListChanged();
            return { content: [{ type: 'text', text: `note ${notes} added` }] };
          case 'storm': {
            extraTools = [{ name: 'after_storm', description: 'Added by the storm.', inputSchema: obj() }];
            const count = Number(args.count ?? 100);
            for (let i = 0; i < count; i++) await server.sendToolListChanged();
            return { content: [{ type: 'text', text: `sent ${count}` }] };
          }
          default:
            return { content: [{ type: 'text', text: `unknown tool ${req.params.name}` }], isError: true };
        }
      });
      server.setRequestHandler(ListResourcesRequestSchema, async () => ({
        resources: [
          { uri: 'memo://notes/1', name: 'note-1', title: 'First note', mimeType: 'text/markdown' },
          ...Array.from({ length: notes - 1 }, (_, i) => ({
            uri: `memo://notes/${i + 2}`,
            name: `note-${i + 2}`,
            mimeType: 'text/markdown',
          })),
          { uri: 'memo://logo.png', name: 'logo', mimeType: 'image/png' },
          { uri: 'memo://data.bin', name: 'data', mimeType: 'application/octet-stream' },
        ],
      }));
      server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
        resourceTemplates: [{ uriTemplate: 'memo://notes/{id}', name: 'note', description: 'A note by id' }],
      }));
      server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
        const uri = req.params.uri;
        if (uri === 'memo://logo.png') return { contents: [{ uri, mimeType: 'image/png', blob: TINY_PNG }] };
        if (uri === 'memo://data.bin')
          return { contents: [{ uri, mimeType: 'application/octet-stream', blob: 'AAECAwQ=' }] };
        const m = /^memo:\/\/notes\/(\d+)$/.exec(uri);
        if (m)
          return {
            contents: [{ uri, mimeType: 'text/markdown', text: m[1] === '1' ? NOTE : `# Note ${m[1]}` }],
          };
        throw new Error(`no resource ${uri}`);
      });
      server.setRequestHandler(ListPromptsRequestSchema, async () => ({
        prompts: [
          {
            name: 'review',
            description: 'Reviews a file.',
            arguments: [
              { name: 'file', description: 'The file', required: true },
              { name: 'tone', description: 'How to say it' },
            ],
          },
        ],
      }));
      server.setRequestHandler(GetPromptRequestSchema, async (req) => {
        const a = req.params.arguments ?? {};
        if (req.params.name !== 'review') throw new Error(`no prompt ${req.params.name}`);
        return {
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: `Review ${a.file} in a ${a.tone ?? 'neutral'} tone.` },
            },
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: { uri: 'memo://notes/1', mimeType: 'text/markdown', text: NOTE },
              },
            },
          ],
        };
      });
      return server;
    },
  };
}
