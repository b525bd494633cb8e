/**
 * MCP sessions: connect time (initialize + tools/list, for 1 and for 10 servers at once) of tabcode's
 * McpManager next to a bare SDK client in the same run, and a list_changed storm (100 notifications
 * and one real change): tools blocks rebuilt and changes to the request's `tools` bytes (prompt-cache
 * breaks), tabcode vs a naive client that refetches on every notification and sends MCP tools eagerly.
 * Real servers on loopback (e2e/mcp), started and stopped here.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startMcpHttpHost } from '../e2e/mcp/http-host.ts';
import { createManyToolsServer } from '../e2e/mcp/many-tools-server.ts';
import { createRichServer } from '../e2e/mcp/rich-server.ts';
import { createSchemaCache } from '../src/core/api-schema.ts';
import { createToolUseContext } from '../src/core/context.ts';
import { buildRequestBody } from '../src/core/request.ts';
import { createMcpManager } from '../src/mcp/manager.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import { assembleToolPool, getAllBaseTools } from '../src/tools/registry.ts';
import { median, ms, ratio, table } from './stats.ts';

export const title =
  'MCP: connect time (1 and 10 servers) and a list_changed storm, tabcode vs a bare SDK client';

const RUNS = 5;
const STORM = 100;

async function tabcodeConnect(url: string, servers: number): Promise<number> {
  const m = createMcpManager();
  const t0 = performance.now();
  const states = await Promise.all(
    Array.from({ length: servers }, (_, i) => m.addServer({ type: 'http', name: `s${i}`, url })),
  );
  const elapsed = performance.now() - t0;
  if (states.some((s) => s.status !== 'connected'))
    throw new Error(`not connected: ${JSON.stringify(states[0])}`);
  await m.dispose();
  return elapsed;
}

async function sdkConnect(url: string, servers: number): Promise<number> {
  const t0 = performance.now();
  const clients = await Promise.all(
    Array.from({ length: servers }, async () => {
      const client = new Client({ name: 'bare', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        cursor = page.nextCursor;
      } while (cursor);
      return client;
    }),
  );
  const elapsed = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return elapsed;
}

/** The `tools` bytes a request would carry for this pool (the prompt-cache prefix). */
function toolsBytes(pool: Parameters<typeof buildRequestBody>[0]['tools']): string {
  const body = buildRequestBody({
    model: 'm',
    maxTokens: 1,
    systemPrompt: 's',
    tools: pool,
    messages: [{ role: 'user', content: 'hi' }],
    schemaCache: createSchemaCache(),
  });
  return JSON.stringify(body.tools ?? []);
}

async function stormTabcode(url: string) {
  const m = createMcpManager();
  await m.addServer({ type: 'http', name: 'rich', url });
  const builtIns = getAllBaseTools();
  const bytes = new Set([toolsBytes(assembleToolPool(builtIns, m.tools()))]);
  let rebuilds = 0;
  m.onChange((c) => {
    if (!c.toolsChanged) return;
    rebuilds++;
    bytes.add(toolsBytes(assembleToolPool(builtIns, m.tools())));
  });
  const storm = m.tools().find((t) => t.name === 'mcp__rich__storm');
  const ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  await storm?.call({ count: STORM }, { ...ctx, abortController: new AbortController() });
  const deadline = Date.now() + 5_000;
  while (!m.tools().some((t) => t.name === 'mcp__rich__after_storm') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300));
  await m.dispose();
  return { rebuilds, breaks: bytes.size - 1 };
}

/** A naive client: refetches on every notification and sends every MCP tool's schema in `tools`. */
async function stormNaive(url: string) {
  const client = new Client({ name: 'naive', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  let rebuilds = 0;
  let last = JSON.stringify((await client.listTools()).tools);
  let breaks = 0;
  const pending: Promise<void>[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    pending.push(
      client.listTools().then(({ tools }) => {
        rebuilds++;
        const next = JSON.stringify(tools);
        if (next !== last) breaks++;
        last = next;
      }),
    );
  });
  await client.callTool({ name: 'storm', arguments: { count: STORM } });
  await new Promise((r) => setTimeout(r, 500));
  await Promise.all(pending);
  await client.close();
  return { rebuilds, breaks };
}

export async function run(): Promise<string[]> {
  const many = createManyToolsServer();
  const manyHost = await startMcpHttpHost({ createServer: () => many.createServer() });
  // One server per storm: the storm changes the server's list for good.
  const rich = createRichServer();
  const richHost = await startMcpHttpHost({ createServer: () => rich.createServer() });
  const naiveRich = createRichServer();
  const naiveHost = await startMcpHttpHost({ createServer: () => naiveRich.createServer() });
  try {
    const rows: (string | number)[][] = [];
    for (const n of [1, 10]) {
      // One warm-up each (module loading, the schema validator), then the median of RUNS.
      await tabcodeConnect(manyHost.url, n);
      await sdkConnect(manyHost.url, n);
      const ours: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        ours.push(await tabcodeConnect(manyHost.url, n));
        bare.push(await sdkConnect(manyHost.url, n));
      }
      rows.push([
        `${n} server${n === 1 ? '' : 's'} × 240 tools`,
        ms(median(ours)),
        ms(median(bare)),
        ratio(median(ours), median(bare)),
      ]);
    }
    const ours = await stormTabcode(richHost.url);
    const ourListings = rich.listings();
    const naive = await stormNaive(naiveHost.url);
    const naiveListings = naiveRich.listings();
    return [
      ...table(['connect (initialize + tools/list)', 'tabcode', 'bare SDK client', 'tabcode / bare'], rows),
      '',
      ...table(
        [
          `list_changed storm (${STORM} notifications, 1 real change)`,
          'tools/list requests (first included)',
          'tools blocks rebuilt',
          '`tools` bytes changed',
        ],
        [
          ['tabcode (debounced, deferred MCP tools)', ourListings, ours.rebuilds, ours.breaks],
          ['naive client (refetch each, eager tools)', naiveListings, naive.rebuilds, naive.breaks],
        ],
      ),
      '(tabcode also lists resources and prompts, and checks every schema against JSON Schema 2020-12, when it connects.)',
    ];
  } finally {
    await Promise.all([manyHost.close(), richHost.close(), naiveHost.close()]);
  }
}
