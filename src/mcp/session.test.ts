/**
 * MCP tools in a real agent session: the real SDK talks to the mock Messages API, the session reads
 * the manager's tools at every turn, and the model calls them. Servers that fail never stop the turn.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { ALWAYS_LOAD_TOOL, createManyToolsServer } from '../../e2e/mcp/many-tools-server.ts';
import { createQuirkyServer } from '../../e2e/mcp/quirky-server.ts';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import type { AgentSession, SessionEvent } from '../agent/types.ts';
import { announcedDeferredTools } from '../core/deferred-tools.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createMcpManager, type McpManager } from './manager.ts';

let api: MockApi;
let manyHost: McpHttpHost;
let quirkyHost: McpHttpHost;
let manager: McpManager;
let session: AgentSession;
const events: SessionEvent[] = [];

beforeAll(async () => {
  api = await startMockApi();
  const many = createManyToolsServer();
  manyHost = await startMcpHttpHost({ createServer: () => many.createServer() });
  const quirky = createQuirkyServer();
  quirkyHost = await startMcpHttpHost({ createServer: () => quirky.createServer() });
});

afterAll(async () => {
  await Promise.all([api?.close(), manyHost?.close(), quirkyHost?.close()]);
});

beforeEach(async () => {
  api.reset();
  events.length = 0;
  manager = createMcpManager();
  session = await createAgentSession({
    settings: { apiKey: 'test', baseURL: api.url, model: 'claude-test' },
    sandbox: await createJustBashSandbox({ files: {} }),
    mcp: manager,
  });
  session.subscribe((e) => {
    events.push(e);
    // The user allows every call the permission engine asks about (MCP tools ask in the default mode).
    if (e.type === 'permission-request') e.respond({ decision: 'allow-once' });
  });
});

afterEach(async () => {
  await session.dispose();
  await manager.dispose();
});

const toolNames = (i: number) => (api.requests[i].body.tools ?? []).map((t) => ('name' in t ? t.name : ''));
function resultFor(i: number, id: string) {
  for (const m of api.requests[i].body.messages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result' && b.tool_use_id === id) return b;
  }
  return undefined;
}

describe('MCP tools in an agent session', () => {
  it('servers added between turns join the next request; the model calls an MCP tool', async () => {
    api.script([{ content: [{ type: 'text', text: 'No MCP yet.' }] }]);
    await session.send('hello');
    expect(session.mcp).toBe(manager);
    expect(toolNames(0).some((n) => n.startsWith('mcp__'))).toBe(false);

    await manager.addServer({ type: 'http', name: 'many', url: manyHost.url });
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_fc',
            name: `mcp__many__${ALWAYS_LOAD_TOOL}`,
            input: { city: 'Porto' },
          },
        ],
      },
      { content: [{ type: 'text', text: 'Sunny in Porto.' }] },
    ]);
    await session.send('Weather in Porto?');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(toolNames(1)).toContain(`mcp__many__${ALWAYS_LOAD_TOOL}`);
    const result = resultFor(2, 'toolu_fc');
    expect(result?.is_error).toBeUndefined();
    expect(result?.content).toBe(
      'Forecast for Porto:\nday 1: 23°C, clear\nday 2: 24°C, clear\nday 3: 18°C, clear',
    );
    expect(events.some((e) => e.type === 'error')).toBe(false);

    // The server leaves: the next turn has no tools of it, and an old call to it fails cleanly.
    await manager.removeServer('many');
    api.script([
      {
        content: [{ type: 'tool_use', id: 'toolu_gone', name: `mcp__many__${ALWAYS_LOAD_TOOL}`, input: {} }],
      },
      { content: [{ type: 'text', text: 'That tool is gone.' }] },
    ]);
    await session.send('Again?');
    expect(toolNames(3).some((n) => n.startsWith('mcp__many__'))).toBe(false);
    const gone = resultFor(4, 'toolu_gone');
    expect(gone?.is_error).toBe(true);
    expect(String(gone?.content)).toContain('No such tool available');
  });

  it('deferred MCP tools load through ToolSearch; a down server, malformed schemas, tool errors and huge results do not stop the session', async () => {
    const [down, quirky] = await Promise.all([
      manager.addServer({ type: 'http', name: 'down', url: 'http://127.0.0.1:9/mcp' }),
      manager.addServer({ type: 'http', name: 'quirky', url: quirkyHost.url }),
    ]);
    expect(down.status).toBe('failed');
    expect(quirky.skipped).toHaveLength(7);
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_search',
            name: 'ToolSearch',
            input: { query: 'select:mcp__quirky__flaky,mcp__quirky__broken,mcp__quirky__huge' },
          },
        ],
      },
      {
        content: [
          { type: 'tool_use', id: 'toolu_flaky', name: 'mcp__quirky__flaky', input: {} },
          { type: 'tool_use', id: 'toolu_broken', name: 'mcp__quirky__broken', input: {} },
          { type: 'tool_use', id: 'toolu_huge', name: 'mcp__quirky__huge', input: { chars: 120_000 } },
        ],
      },
      { content: [{ type: 'text', text: 'Done despite everything.' }] },
    ]);
    await session.send('Try the quirky tools.');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);

    // First request: MCP tools are deferred, announced by name; skipped and dead servers' tools are not.
    expect(toolNames(0)).toContain('ToolSearch');
    expect(toolNames(0).some((n) => n.startsWith('mcp__'))).toBe(false);
    const announced = [...announcedDeferredTools(api.requests[0].body.messages as never)];
    expect(announced).toContain('mcp__quirky__echo');
    expect(announced).toContain('mcp__quirky__dotted_name');
    expect(announced).not.toContain('mcp__quirky__string_schema');
    expect(announced.filter((n) => n.startsWith('mcp__down__'))).toEqual([]);

    // ToolSearch loaded the three tools; they are sent from then on.
    const search = resultFor(1, 'toolu_search');
    expect(search?.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__quirky__flaky' },
      { type: 'tool_reference', tool_name: 'mcp__quirky__broken' },
      { type: 'tool_reference', tool_name: 'mcp__quirky__huge' },
    ]);
    expect(toolNames(1)).toEqual(expect.arrayContaining(['mcp__quirky__flaky', 'mcp__quirky__huge']));

    expect(resultFor(2, 'toolu_flaky')).toMatchObject({
      is_error: true,
      content: 'the upstream service is down',
    });
    expect(resultFor(2, 'toolu_broken')).toMatchObject({ is_error: true });
    expect(String(resultFor(2, 'toolu_broken')?.content)).toContain('database exploded');
    // The huge result is over maxResultSizeChars: the model sees a spilled preview, not 120,000 characters.
    const huge = resultFor(2, 'toolu_huge');
    expect(huge?.is_error).toBeUndefined();
    const hugeText = typeof huge?.content === 'string' ? huge.content : JSON.stringify(huge?.content);
    expect(hugeText).toContain('<persisted-output>');
    expect(hugeText.length).toBeLessThan(10_000);
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toContain('Done despite everything.');
  });
});

describe('the default session manager', () => {
  it('is created, persisted in IndexedDB and disposed with the session', async () => {
    const s = await createAgentSession({ sandbox: await createJustBashSandbox({ files: {} }) });
    expect(s.mcp).toBeDefined();
    expect(s.mcp?.servers()).toEqual([]);
    const state = await s.mcp?.addServer({ type: 'http', name: 'quirky', url: quirkyHost.url });
    expect(state?.status).toBe('connected');
    await s.dispose();
    expect(s.mcp?.tools()).toEqual([]);

    // A new default session reconnects the saved server by itself.
    const again = await createAgentSession({ sandbox: await createJustBashSandbox({ files: {} }) });
    await expect.poll(() => again.mcp?.server('quirky')?.status).toBe('connected');
    await again.mcp?.removeServer('quirky');
    await again.dispose();
  });
});
