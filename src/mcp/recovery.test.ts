/**
 * Sessions that survive real trouble, against real servers over HTTP on loopback: a server that
 * forgets the session (HTTP 404 → a new session, the call sent again), a server restarted on the same
 * port mid-session (reconnected with backoff, no user action), a call made while its server is down,
 * progress that keeps a long call alive past its timeout, logging, instructions, list_changed storms,
 * malformed JSON-RPC and huge tool lists.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHostileServer } from '../../e2e/mcp/hostile-server.ts';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { createQuirkyServer } from '../../e2e/mcp/quirky-server.ts';
import { createRichServer, RICH_INSTRUCTIONS, type RichServer } from '../../e2e/mcp/rich-server.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import type { QueryEvent } from '../core/events.ts';
import type { ToolResultBlockParam } from '../core/messages.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../core/tool-execution.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createMcpManager, type McpManager, type McpManagerOptions } from './manager.ts';

let ctx: ToolUseContext;
const managers: McpManager[] = [];
const hosts: McpHttpHost[] = [];

beforeAll(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

function manager(options: McpManagerOptions = {}): McpManager {
  const m = createMcpManager({ reconnect: { baseMs: 100, maxMs: 400 }, ...options });
  managers.push(m);
  return m;
}

async function host(
  rich: RichServer,
  port?: number,
  extra: Partial<Parameters<typeof startMcpHttpHost>[0]> = {},
) {
  const h = await startMcpHttpHost({
    createServer: () => rich.createServer(),
    ...(port ? { port } : {}),
    ...extra,
  });
  hosts.push(h);
  return h;
}

/** One tool_use through the core's tool-call path (as the loop runs it). */
async function run(m: McpManager, name: string, input: unknown = {}) {
  const events: QueryEvent[] = [];
  const tools = m.tools();
  const call = await prepareCall({ type: 'tool_use', id: `toolu_${name}`, name, input }, tools);
  const out = await runToolCall(
    call,
    { ...ctx, abortController: new AbortController() },
    { tools, canUseTool: defaultCanUseTool, emit: (e) => events.push(e) },
  );
  return { block: out.block, events };
}

const text = (b: ToolResultBlockParam) =>
  typeof b.content === 'string'
    ? b.content
    : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('recovery', () => {
  it('a server that forgot the session (404) gets a new one, and the call goes through once', async () => {
    const rich = createRichServer();
    const h = await host(rich);
    const m = manager();
    await m.addServer({ type: 'http', name: 'rich', url: h.url });
    const before = h.requests.filter((r) => r.method === 'POST').length;
    await h.dropSessions();
    const { block } = await run(m, 'mcp__rich__whoami');
    expect(text(block)).toBe('you are a guest');
    expect(h.sessionCount()).toBe(1);
    const posts = h.requests.filter((r) => r.method === 'POST').length - before;
    expect(posts).toBeGreaterThanOrEqual(4); // the refused call, initialize, initialized, the call again (+ lists)
    expect(m.server('rich')?.status).toBe('connected');
  });

  it('a server restarted on the same port mid-session is reconnected with backoff, without the user', async () => {
    const rich = createRichServer();
    const first = await host(rich);
    const port = first.port;
    const m = manager();
    await m.addServer({ type: 'http', name: 'rich', url: first.url });
    const tools = m.tools();
    await first.close();
    await expect.poll(() => m.server('rich')?.status, { timeout: 15_000 }).toBe('disconnected');
    expect(m.server('rich')?.reconnectAt).toBeGreaterThan(Date.now() - 1_000);
    await host(rich, port);
    await expect.poll(() => m.server('rich')?.status, { timeout: 15_000 }).toBe('connected');
    // Same catalogue after the restart: the very same Tool objects (tools bytes and cache unchanged).
    expect(m.tools()).toEqual(tools);
    expect(text((await run(m, 'mcp__rich__whoami')).block)).toBe('you are a guest');
  });

  it('a server being reconnected keeps its tools on offer, and the next turn calls it without the user', async () => {
    const rich = createRichServer();
    const first = await host(rich);
    // The next backoff step is a minute away: only the call itself can bring the server back in time.
    const m = manager({ reconnect: { baseMs: 60_000, maxMs: 60_000 } });
    await m.addServer({ type: 'http', name: 'rich', url: first.url });
    const tools = m.tools();
    await first.close();
    await expect.poll(() => m.server('rich')?.status, { timeout: 15_000 }).toBe('disconnected');
    // While it reconnects, the next request's tools block is the very same (nothing for the model to
    // lose, no cache break), as the session reads it at the start of a turn.
    expect(m.tools()).toBe(tools);
    expect(m.tools().some((t) => t.name === 'mcp__rich__whoami')).toBe(true);
    await host(rich, first.port);
    const { block } = await run(m, 'mcp__rich__whoami');
    expect(block.is_error).toBeUndefined();
    expect(text(block)).toBe('you are a guest');
    expect(m.server('rich')?.status).toBe('connected');
    expect(m.tools()).toBe(tools);
  });

  it('a call while its server is still down waits for the backoff steps, and works once it is back', async () => {
    const rich = createRichServer();
    const first = await host(rich);
    const m = manager({ reconnect: { baseMs: 200, maxMs: 200 } });
    await m.addServer({ type: 'http', name: 'rich', url: first.url });
    await first.close();
    await expect.poll(() => m.server('rich')?.status, { timeout: 15_000 }).toBe('disconnected');
    // The call starts while nothing listens on the port (its first attempt fails); the server comes
    // back once the call is waiting for a later step.
    const call = run(m, 'mcp__rich__whoami');
    await expect.poll(() => m.server('rich')?.error ?? '', { timeout: 10_000 }).not.toBe('');
    await host(rich, first.port);
    const { block } = await call;
    expect(text(block)).toBe('you are a guest');
  });

  it('a server that gave up reconnecting leaves the tools block; a call says it is not connected', async () => {
    const rich = createRichServer();
    const first = await host(rich);
    const m = manager({ reconnect: { baseMs: 50, maxMs: 50, maxAttempts: 1 } });
    await m.addServer({ type: 'http', name: 'rich', url: first.url });
    const tool = m.tools().find((t) => t.name === 'mcp__rich__whoami');
    await first.close();
    await expect
      .poll(
        () => m.server('rich')?.status === 'disconnected' && m.server('rich')?.reconnectAt === undefined,
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    expect(m.tools()).toEqual([]);
    await expect(tool?.call({}, { ...ctx, abortController: new AbortController() })).rejects.toThrow(
      /The MCP server rich is not connected/,
    );
  });

  it('progress shows on the call and keeps it alive past its timeout', async () => {
    const rich = createRichServer();
    const h = await host(rich);
    const m = manager();
    // Steps 5× shorter than the timeout (room for a loaded machine), all of them together longer.
    await m.addServer({ type: 'http', name: 'rich', url: h.url, toolTimeoutMs: 2_000 });
    const { block, events } = await run(m, 'mcp__rich__long_task', { steps: 6, ms: 400 });
    expect(block.is_error).toBeUndefined();
    expect(text(block)).toBe('done after 6 steps');
    const progress = events
      .filter((e) => e.type === 'tool-progress')
      .map((e) => (e.type === 'tool-progress' ? e.text : ''));
    expect(progress).toEqual([
      'Progress 1/6 17% — step 1',
      'Progress 2/6 33% — step 2',
      'Progress 3/6 50% — step 3',
      'Progress 4/6 67% — step 4',
      'Progress 5/6 83% — step 5',
      'Progress 6/6 100% — step 6',
    ]);
    // Without progress, a wait past the timeout times out.
    const quiet = await run(m, 'mcp__rich__long_task', { steps: 1, ms: 2_600 });
    expect(text(quiet.block)).toMatch(/did not answer long_task within 2,?000 ms/);
  });

  it('keeps the server log for the panel and gives the instructions to the model once', async () => {
    const rich = createRichServer();
    const h = await host(rich);
    const m = manager();
    await m.addServer({ type: 'http', name: 'rich', url: h.url });
    expect(m.server('rich')?.instructions).toBe(RICH_INSTRUCTIONS);
    expect(m.takeReminders()).toEqual([
      `The MCP server "rich" (tools mcp__rich__*) gives these instructions for using it:\n${RICH_INSTRUCTIONS}`,
    ]);
    expect(m.takeReminders()).toEqual([]);
    await run(m, 'mcp__rich__log_some');
    await expect.poll(() => m.logs('rich').length).toBe(2);
    expect(m.logs('rich').map((l) => [l.level, l.logger, l.text])).toEqual([
      ['info', 'rich', 'starting <b>work</b>'],
      ['error', undefined, '{"failed":"<img src=x onerror=alert(1)>"}'],
    ]);
  });

  it('long instructions are cut to the limit with a note', async () => {
    const rich = createRichServer({ instructions: 'x'.repeat(10_000) });
    const h = await host(rich);
    const m = manager();
    await m.addServer({ type: 'http', name: 'rich', url: h.url });
    const [reminder] = m.takeReminders();
    expect(reminder.length).toBeLessThan(2_200);
    expect(reminder).toMatch(/… \[instructions truncated\]$/);
  });

  it('a storm of 100 list_changed notifications costs one refetch and one change', async () => {
    const rich = createRichServer();
    const h = await host(rich);
    const m = manager();
    await m.addServer({ type: 'http', name: 'rich', url: h.url });
    const listingsBefore = rich.listings();
    let toolChanges = 0;
    m.onChange((c) => {
      if (c.toolsChanged) toolChanges++;
    });
    await run(m, 'mcp__rich__storm', { count: 100 });
    await expect.poll(() => m.tools().some((t) => t.name === 'mcp__rich__after_storm')).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(rich.listings() - listingsBefore).toBeLessThanOrEqual(2);
    expect(toolChanges).toBe(1);
  });
});

describe('bad servers', () => {
  it('malformed JSON-RPC answers become clear errors; the server stays usable', async () => {
    const quirky = createQuirkyServer();
    const h = await startMcpHttpHost({
      createServer: () => quirky.createServer(),
      rawAnswer: (body) => {
        const b = body as { method?: string; params?: { name?: string } } | undefined;
        if (b?.method === 'tools/call' && b.params?.name === 'flaky')
          return { status: 200, contentType: 'application/json', body: '{"jsonrpc":"2.0","id":' };
        if (b?.method === 'tools/call' && b.params?.name === 'broken')
          return { status: 200, contentType: 'application/json', body: '{"jsonrpc":"1.0","result":42}' };
        return undefined;
      },
    });
    hosts.push(h);
    const m = manager();
    await m.addServer({ type: 'http', name: 'q', url: h.url, toolTimeoutMs: 2_000 });
    const truncated = await run(m, 'mcp__q__flaky');
    expect(truncated.block.is_error).toBe(true);
    expect(text(truncated.block)).toMatch(/The MCP server q sent a malformed message: it is not JSON \(/);
    const wrong = await run(m, 'mcp__q__broken');
    expect(wrong.block.is_error).toBe(true);
    expect(text(wrong.block)).toMatch(/The MCP server q sent a malformed message: it is not a JSON-RPC 2\.0/);
    expect(text((await run(m, 'mcp__q__echo', { text: 'ok' })).block)).toBe('echo: ok');
  });

  it('a server whose initialize answer is not JSON-RPC fails with that reason', async () => {
    const h = await startMcpHttpHost({
      createServer: () => createQuirkyServer().createServer(),
      rawAnswer: () => ({ status: 200, contentType: 'application/json', body: '<html>not json</html>' }),
    });
    hosts.push(h);
    const m = manager();
    const state = await m.addServer({
      type: 'http',
      name: 'garbage',
      url: h.url,
      transport: 'streamable-http',
    });
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/^The MCP server garbage sent a malformed message: it is not JSON \(/);
  });

  it('a hostile catalogue: bad tools skipped with notes, the rest usable; 2,500 tools stay bounded', async () => {
    const hostile = createHostileServer({ extraTools: 2_500 });
    const h = await startMcpHttpHost({ createServer: () => hostile.createServer() });
    hosts.push(h);
    const m = manager();
    const state = await m.addServer({ type: 'http', name: 'h', url: h.url });
    expect(state.status).toBe('connected');
    expect(state.toolCount).toBe(1_000 - 2);
    expect(state.skipped.map((s) => s.name)).toEqual(['not_2020', 'task_only', '#1000…#2504']);
    const draft4 = await run(m, 'mcp__h__draft4', { n: 1 });
    expect(text(draft4.block)).toBe('draft4 ran with {"n":1}');
    expect(m.tools().find((t) => t.name === 'mcp__h__draft4')?.inputJSONSchema).toMatchObject({
      properties: { n: { exclusiveMinimum: 0 } },
    });
  });
});
