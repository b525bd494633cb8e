/**
 * McpManager against real MCP servers (the SDK's Server) over HTTP on loopback, through the real SDK
 * client: many tools, tools/list_changed, SSE fallback, and bad input — a server that is down, slow,
 * sends malformed schemas, errors or huge results. Tool calls run through the core's runToolCall, as
 * the loop runs them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import {
  ALWAYS_LOAD_TOOL,
  createManyToolsServer,
  type ManyToolsServer,
} from '../../e2e/mcp/many-tools-server.ts';
import { createQuirkyServer, type QuirkyServer } from '../../e2e/mcp/quirky-server.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import type { QueryEvent } from '../core/events.ts';
import type { ToolResultBlockParam } from '../core/messages.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../core/tool-execution.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createDefaultMcpManager } from './index.ts';
import { createMcpManager, type McpChange, type McpManager } from './manager.ts';
import { createIdbConfigStore } from './storage.ts';

let many: ManyToolsServer;
let manyHost: McpHttpHost;
let quirky: QuirkyServer;
let quirkyHost: McpHttpHost;
let sseHost: McpHttpHost;
let slowHost: McpHttpHost;
let ctx: ToolUseContext;
const managers: McpManager[] = [];

beforeAll(async () => {
  many = createManyToolsServer();
  manyHost = await startMcpHttpHost({ createServer: () => many.createServer() });
  quirky = createQuirkyServer();
  quirkyHost = await startMcpHttpHost({ createServer: () => quirky.createServer() });
  sseHost = await startMcpHttpHost({ createServer: () => quirky.createServer(), mode: 'sse' });
  slowHost = await startMcpHttpHost({ createServer: () => quirky.createServer(), delayMs: 3_000 });
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});

afterAll(async () => {
  await Promise.all([manyHost, quirkyHost, sseHost, slowHost].map((h) => h?.close()));
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});

function manager(options?: Parameters<typeof createMcpManager>[0]): McpManager {
  const m = createMcpManager(options);
  managers.push(m);
  return m;
}

/** Runs one tool_use through the core's tool execution; returns the result block and events. */
async function runTool(
  m: McpManager,
  name: string,
  input: unknown,
  abort?: AbortController,
): Promise<{ block: ToolResultBlockParam; events: QueryEvent[] }> {
  const events: QueryEvent[] = [];
  const tools = m.tools();
  const call = await prepareCall({ type: 'tool_use', id: `toolu_${name}`, name, input }, tools);
  const out = await runToolCall(
    call,
    { ...ctx, abortController: abort ?? new AbortController() },
    { tools, canUseTool: defaultCanUseTool, emit: (e) => events.push(e) },
  );
  return { block: out.block, events };
}

const contentText = (b: ToolResultBlockParam): string =>
  typeof b.content === 'string'
    ? b.content
    : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('McpManager over Streamable HTTP', () => {
  it('connects to a 240-tool server (paged tools/list) and exposes sorted, stable tools', async () => {
    const m = manager();
    const changes: McpChange[] = [];
    m.onChange((c) => changes.push(c));
    const adding = m.addServer({ type: 'http', name: 'many', url: manyHost.url });
    expect(m.connectingServers()).toEqual(['many']);
    expect(m.server('many')?.status).toBe('connecting');
    const state = await adding;
    expect(state).toMatchObject({
      name: 'many',
      status: 'connected',
      transport: 'streamable-http',
      toolCount: 240,
      skipped: [],
      serverInfo: { name: 'many-tools', version: '1.0.0' },
      target: manyHost.url,
      source: 'settings',
    });
    expect(m.connectingServers()).toEqual([]);
    const tools = m.tools();
    expect(tools).toHaveLength(240);
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain(`mcp__many__${ALWAYS_LOAD_TOOL}`);
    expect(tools.filter((t) => t.alwaysLoad).map((t) => t.name)).toEqual([`mcp__many__${ALWAYS_LOAD_TOOL}`]);
    expect(m.tools()).toBe(tools); // same array until something changes
    expect(changes.map((c) => [c.state?.status, c.toolsChanged])).toEqual([
      ['connecting', false],
      ['connected', true],
    ]);
    const search = tools.find((t) => t.name === 'mcp__many__github_search_issue');
    expect(search?.isReadOnly()).toBe(true);
    expect(tools.find((t) => t.name === 'mcp__many__crm_delete_deal')?.isDestructive()).toBe(true);

    const { block } = await runTool(m, `mcp__many__${ALWAYS_LOAD_TOOL}`, { city: 'Lisbon', days: 2 });
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: `toolu_mcp__many__${ALWAYS_LOAD_TOOL}`,
      content: 'Forecast for Lisbon:\nday 1: 24°C, clear\nday 2: 18°C, clear',
    });
    expect(many.calls.at(-1)).toEqual({ name: ALWAYS_LOAD_TOOL, arguments: { city: 'Lisbon', days: 2 } });
  });

  it('refetches on tools/list_changed and tells listeners', async () => {
    const m = manager();
    await m.addServer({ type: 'http', name: 'many', url: manyHost.url });
    const before = m.tools();
    const changed = new Promise<McpChange>((resolve) => {
      const off = m.onChange((c) => {
        if (c.toolsChanged) {
          off();
          resolve(c);
        }
      });
    });
    await many.addTools([{ name: 'brand_new_tool', description: 'New.', inputSchema: { type: 'object' } }]);
    const change = await changed;
    expect(change.state?.toolCount).toBe(241);
    expect(m.tools()).not.toBe(before);
    expect(m.tools().map((t) => t.name)).toContain('mcp__many__brand_new_tool');

    const removed = new Promise<void>((resolve) => {
      const off = m.onChange((c) => {
        if (c.toolsChanged) {
          off();
          resolve();
        }
      });
    });
    await many.removeTools(['brand_new_tool']);
    await removed;
    expect(m.tools()).toHaveLength(240);
    expect(m.server('many')?.toolCount).toBe(240);
  });

  it('a server that is down fails with a reason; the others keep working', async () => {
    const m = manager();
    const [down, up] = await Promise.all([
      m.addServer({ type: 'http', name: 'down', url: 'http://127.0.0.1:9/mcp' }),
      m.addServer({ type: 'http', name: 'quirky', url: quirkyHost.url }),
    ]);
    expect(down.status).toBe('failed');
    expect(down.error).toMatch(
      /^Could not reach http:\/\/127\.0\.0\.1:9\/mcp \(.+\)\. Is the server running/,
    );
    expect(up.status).toBe('connected');
    expect(m.tools().every((t) => t.name.startsWith('mcp__quirky__'))).toBe(true);
    const { block } = await runTool(m, 'mcp__quirky__echo', { text: 'still here' });
    expect(block.content).toBe('echo: still here');
  });

  it('a slow server fails after the connect timeout instead of hanging', async () => {
    const m = manager();
    const started = Date.now();
    const state = await m.addServer({ type: 'http', name: 'slow', url: slowHost.url, connectTimeoutMs: 400 });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(state.status).toBe('failed');
    expect(state.error).toBe(`The server at ${slowHost.url} did not answer initialize within 400 ms.`);
    expect(m.tools()).toEqual([]);
  });

  it('falls back to SSE when Streamable HTTP gets a 4xx; explicit transports are honoured', async () => {
    const m = manager();
    const auto = await m.addServer({ type: 'http', name: 'legacy', url: sseHost.url });
    expect(auto).toMatchObject({ status: 'connected', transport: 'sse', toolCount: 8 });
    const { block } = await runTool(m, 'mcp__legacy__echo', { text: 'over sse' });
    expect(block.content).toBe('echo: over sse');

    const strict = await m.addServer({
      type: 'http',
      name: 'strict',
      url: sseHost.url,
      transport: 'streamable-http',
    });
    expect(strict.status).toBe('failed');
    expect(strict.error).toBe(
      `HTTP 405 from ${sseHost.url}: Streamable HTTP error: Error POSTing to endpoint: Method Not Allowed: this server speaks HTTP+SSE only`,
    );
    const sse = await m.addServer({ type: 'http', name: 'sse', url: sseHost.url, transport: 'sse' });
    expect(sse).toMatchObject({ status: 'connected', transport: 'sse' });
  });

  it('skips malformed tools with reasons and keeps the rest usable', async () => {
    const m = manager();
    const state = await m.addServer({ type: 'http', name: 'quirky', url: quirkyHost.url });
    expect(state.status).toBe('connected');
    expect(state.toolCount).toBe(8);
    expect(state.skipped.map((s) => s.name)).toEqual([
      'string_schema',
      'no_schema',
      'bad_properties',
      'bad_property',
      'bad_required',
      '#13',
      'echo',
    ]);
    expect(state.skipped.every((s) => s.reason.startsWith('Skipped: '))).toBe(true);
  });

  it('maps results and errors: isError, protocol errors, media, structured, huge, timeouts, aborts', async () => {
    const m = manager();
    await m.addServer({ type: 'http', name: 'q', url: quirkyHost.url, toolTimeoutMs: 500 });

    const flaky = await runTool(m, 'mcp__q__flaky', {});
    expect(flaky.block).toMatchObject({ is_error: true, content: 'the upstream service is down' });
    expect(flaky.events.at(-1)).toMatchObject({ type: 'tool-result', status: 'error', isError: true });

    const broken = await runTool(m, 'mcp__q__broken', {});
    expect(broken.block.is_error).toBe(true);
    expect(contentText(broken.block)).toBe(
      'Error: The MCP server q failed to run broken: MCP error -32603: database exploded',
    );

    const media = await runTool(m, 'mcp__q__media', {});
    expect(Array.isArray(media.block.content)).toBe(true);
    const kinds = (media.block.content as Array<{ type: string }>).map((c) => c.type);
    expect(kinds).toEqual(['text', 'image', 'text', 'text', 'text', 'text', 'text']);
    expect(contentText(media.block)).toContain(
      '[Resource link: todo.md <file:///notes/todo.md> (text/markdown)]',
    );
    const done = media.events.at(-1);
    expect(done?.type === 'tool-result' && done.view).toMatchObject({ kind: 'text' });

    const structured = await runTool(m, 'mcp__q__structured', {});
    expect(JSON.parse(contentText(structured.block))).toEqual({ temperature: 21, unit: 'C' });

    // A huge result comes back whole; the loop's spill step (maxResultSizeChars) decides what the model sees.
    const huge = await runTool(m, 'mcp__q__huge', { chars: 300_000 });
    expect(contentText(huge.block)).toHaveLength(300_000);
    expect(m.tools().find((t) => t.name === 'mcp__q__huge')?.maxResultSizeChars).toBe(50_000);

    const slow = await runTool(m, 'mcp__q__slow', { ms: 5_000 });
    expect(slow.block.is_error).toBe(true);
    expect(contentText(slow.block)).toBe(
      'Error: The MCP server q did not answer slow within 500 ms (timed out).',
    );

    // Esc: the call is interrupted at once and the server hears notifications/cancelled.
    const abort = new AbortController();
    const cancelledBefore = quirky.cancelled.length;
    setTimeout(() => abort.abort(), 100);
    const started = Date.now();
    const aborted = await runTool(m, 'mcp__q__slow', { ms: 400 }, abort);
    expect(Date.now() - started).toBeLessThan(350);
    expect(aborted.block.is_error).toBe(true);
    expect(aborted.events.at(-1)).toMatchObject({ status: 'interrupted' });
    await expect.poll(() => quirky.cancelled.length).toBe(cancelledBefore + 1);

    // The server is still fine afterwards.
    expect((await runTool(m, 'mcp__q__echo', { text: 'ok' })).block.content).toBe('echo: ok');
  });

  it('removes and replaces servers at any time', async () => {
    const m = manager();
    await m.addServer({ type: 'http', name: 'a', url: quirkyHost.url });
    await m.addServer({ type: 'http', name: 'b', url: manyHost.url });
    expect(m.servers().map((s) => s.name)).toEqual(['a', 'b']);
    expect(m.tools()).toHaveLength(248);
    const stale = m.tools().find((t) => t.name === 'mcp__a__echo');

    const changes: McpChange[] = [];
    m.onChange((c) => changes.push(c));
    expect(await m.removeServer('a')).toBe(true);
    expect(await m.removeServer('a')).toBe(false);
    expect(changes).toEqual([{ server: 'a', state: undefined, toolsChanged: true }]);
    expect(m.servers().map((s) => s.name)).toEqual(['b']);
    expect(m.tools()).toHaveLength(240);

    // A tool the model still holds from before the removal fails cleanly.
    const ctxCall = { ...ctx, abortController: new AbortController() };
    await expect(stale?.call({ text: 'x' }, ctxCall)).rejects.toThrow('The MCP server a is not connected.');

    // Same name again: replaced, not duplicated.
    await m.addServer({ type: 'http', name: 'b', url: quirkyHost.url });
    expect(m.servers()).toHaveLength(1);
    expect(m.tools().map((t) => t.name)).toContain('mcp__b__echo');
    expect(m.tools()).toHaveLength(8);

    expect(await m.reconnect('b')).toMatchObject({ status: 'connected', toolCount: 8 });
  });

  it('a server that goes away is shown disconnected, its tools kept while it reconnects; a failed reconnect removes them', async () => {
    const own = createManyToolsServer();
    const host = await startMcpHttpHost({ createServer: () => own.createServer() });
    const m = manager();
    await m.addServer({ type: 'http', name: 'gone', url: host.url });
    await m.addServer({ type: 'http', name: 'q', url: quirkyHost.url });
    expect(m.tools()).toHaveLength(248);
    await host.close();
    // The transport retries its event stream (about 2.5 s), then gives up.
    await expect.poll(() => m.server('gone')?.status, { timeout: 10_000 }).toBe('disconnected');
    expect(m.server('gone')?.error).toBe('Lost the connection: the server stopped answering.');
    expect(m.server('gone')?.reconnectAt).toBeGreaterThan(0);
    expect(m.tools()).toHaveLength(248);
    // Reconnecting by hand (the panel's button) reports why it fails, and the tools go.
    const again = await m.reconnect('gone');
    expect(again?.status).toBe('failed');
    expect(again?.error).toMatch(/^Could not reach/);
    expect(m.tools().map((t) => t.name.split('__')[1])).toEqual(Array(8).fill('q'));
  });

  it('rejects invalid configs', async () => {
    const m = manager();
    await expect(m.addServer({ type: 'http', name: '', url: manyHost.url })).rejects.toThrow(/server name/);
    await expect(m.addServer({ type: 'http', name: 'x', url: 'not a url' })).rejects.toThrow(/Invalid URL/);
    await expect(m.addServer({ type: 'http', name: 'x', url: 'ftp://host/mcp' })).rejects.toThrow(
      /http\(s\)/,
    );
    expect(m.servers()).toEqual([]);
  });
});

describe('persisted configs (idb-keyval on IndexedDB)', () => {
  it('saves settings servers, restores them in a new manager, forgets removed ones', async () => {
    const store = createIdbConfigStore(`tabcode-mcp-test-${crypto.randomUUID()}`);
    const first = manager({ store });
    await first.addServer({ type: 'http', name: 'many', url: manyHost.url, toolTimeoutMs: 9_000 });
    await first.addServer({ type: 'http', name: 'embedded', url: quirkyHost.url, source: 'embed' });
    await first.dispose();
    expect(await store.load()).toEqual([
      { type: 'http', name: 'many', url: manyHost.url, source: 'settings', toolTimeoutMs: 9_000 },
    ]);

    const second = manager({ store });
    await second.loadPersisted();
    expect(second.servers().map((s) => [s.name, s.status, s.toolCount])).toEqual([
      ['many', 'connected', 240],
    ]);
    await second.removeServer('many');
    expect(await store.load()).toEqual([]);
  });

  it('the default manager adds embed servers (never persisted) next to the saved ones', async () => {
    const embedded = createDefaultMcpManager([{ type: 'http', name: 'docs demo', url: quirkyHost.url }]);
    managers.push(embedded);
    await expect.poll(() => embedded.server('docs_demo')?.status).toBe('connected');
    expect(embedded.server('docs_demo')?.source).toBe('embed');
    expect(await createIdbConfigStore().load()).toEqual([]);
  });
});
