/**
 * The MCP features that reach the model, in a real agent session: the real SDK talks to the mock
 * Messages API, the MCP server (e2e/mcp/rich-server.ts) runs over HTTP on loopback. Server
 * instructions go into the context once, `/mcp__server__prompt` and `@server:uri` expand what the user
 * sends, ListMcpResources/ReadMcpResource are deferred like MCP tools, and sampling runs on the
 * session's model only after the user approves it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../e2e/mcp/http-host.ts';
import { createRichServer, RICH_INSTRUCTIONS } from '../../e2e/mcp/rich-server.ts';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createAgentSession } from '../agent/session.ts';
import type { AgentSession, SessionEvent } from '../agent/types.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createMcpManager, type McpManager } from './manager.ts';

let api: MockApi;
let host: McpHttpHost;
let manager: McpManager;
let session: AgentSession;
const events: SessionEvent[] = [];

beforeAll(async () => {
  api = await startMockApi();
  const rich = createRichServer();
  host = await startMcpHttpHost({ createServer: () => rich.createServer() });
});
afterAll(async () => {
  await Promise.all([api?.close(), host?.close()]);
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
    if (e.type === 'permission-request') e.respond({ decision: 'allow-once' });
  });
  await manager.addServer({ type: 'http', name: 'rich', url: host.url });
});
afterEach(async () => {
  await session.dispose();
  await manager.dispose();
});

const userTexts = (i: number): string[] =>
  api.requests[i].body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) =>
      typeof m.content === 'string'
        ? [m.content]
        : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])),
    );

describe('MCP in the session', () => {
  it('server instructions go into the context once; the resource tools are announced as deferred', async () => {
    api.script([
      { content: [{ type: 'text', text: 'ok' }] },
      { content: [{ type: 'text', text: 'ok again' }] },
    ]);
    await session.send('hello');
    await session.send('and again');
    const first = userTexts(0).join('\n');
    expect(first).toContain(
      `<system-reminder>\nThe MCP server "rich" (tools mcp__rich__*) gives these instructions for using it:\n${RICH_INSTRUCTIONS}\n</system-reminder>`,
    );
    expect(first).toContain('ListMcpResources');
    expect(first).toContain('ReadMcpResource');
    const names = (api.requests[0].body.tools ?? []).map((t) => ('name' in t ? t.name : ''));
    expect(names).not.toContain('ListMcpResources'); // deferred: loaded with ToolSearch
    const second = userTexts(1).join('\n');
    expect(second.split(RICH_INSTRUCTIONS).length - 1).toBe(1); // not repeated
  });

  it('a /prompt command and an @mention are expanded into the message the model gets', async () => {
    api.script([
      { content: [{ type: 'text', text: 'reviewed' }] },
      { content: [{ type: 'text', text: 'read' }] },
    ]);
    await session.send('/mcp__rich__review src/a.ts');
    expect(userTexts(0)).toEqual(
      expect.arrayContaining([
        'Review src/a.ts in a neutral tone.',
        '[Resource memo://notes/1 (text/markdown)]\n# Note 1\nBuy milk.',
      ]),
    );
    await session.send('Summarize @rich:memo://notes/3');
    expect(userTexts(1)).toEqual(
      expect.arrayContaining([
        'Summarize @rich:memo://notes/3',
        '[Resource memo://notes/3 (text/markdown)]\n# Note 3',
      ]),
    );
  });

  it('a prompt command that cannot run says why and sends nothing', async () => {
    await session.send('/mcp__rich__review');
    expect(api.requests).toHaveLength(0);
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      error: { message: '/mcp__rich__review needs file. Usage: /mcp__rich__review <file> [tone]' },
    });
  });

  it('sampling runs on the session model after the user approves, and the result reaches the server', async () => {
    // A fresh connection, made after the session gave the manager its model: sampling is declared.
    await manager.reconnect('rich');
    expect(manager.tools().map((t) => t.name)).toContain('mcp__rich__ask_model');
    manager.onChange(() => {
      const ask = manager.interactions()[0];
      if (ask?.kind === 'sampling') manager.answer(ask.id, { action: 'approve' });
    });
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_ask', name: 'mcp__rich__ask_model', input: {} }] },
      { content: [{ type: 'text', text: 'hello from the sampled model' }] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    await session.send('Ask the model through the server');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    // The second request is the sampling one: the server's message, its max_tokens, no tools.
    expect(api.requests[1].body).toMatchObject({
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }],
    });
    expect(api.requests[1].body.tools).toBeUndefined();
    const result = api.requests[2].body.messages
      .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
      .find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_ask');
    expect(result).toMatchObject({
      content: 'model said: {"type":"text","text":"hello from the sampled model"}',
    });
  });
});
