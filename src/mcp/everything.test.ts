/**
 * The MCP reference test server, `@modelcontextprotocol/server-everything`, started in Streamable
 * HTTP mode on loopback as a child process, through the manager and the real SDK client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EverythingServer, startEverythingServer } from '../../e2e/mcp/everything.ts';
import { createToolUseContext, type ToolUseContext } from '../core/context.ts';
import type { AnyTool } from '../core/tool.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createMcpManager, type McpManager } from './manager.ts';

let everything: EverythingServer;
let manager: McpManager;
let ctx: ToolUseContext;

beforeAll(async () => {
  everything = await startEverythingServer();
  manager = createMcpManager();
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});

afterAll(async () => {
  await manager?.dispose();
  await everything?.close();
});

function tool(name: string): AnyTool {
  const t = manager.tools().find((x) => x.name === `mcp__everything__${name}`);
  if (!t)
    throw new Error(
      `no tool ${name}; have ${manager
        .tools()
        .map((x) => x.name)
        .join(', ')}`,
    );
  return t;
}

async function run(name: string, input: Record<string, unknown>) {
  const t = tool(name);
  const result = await t.call(input, { ...ctx, abortController: new AbortController() });
  return t.mapToolResultToToolResultBlockParam(result.data, `toolu_${name}`);
}

describe('server-everything over Streamable HTTP', () => {
  it('connects and lists its tools with their annotations', async () => {
    const state = await manager.addServer({ type: 'http', name: 'everything', url: everything.url });
    expect(state).toMatchObject({
      status: 'connected',
      transport: 'streamable-http',
      // The one tool that needs the experimental tasks feature is not offered, and says why.
      skipped: [{ name: 'simulate-research-query', reason: expect.stringMatching(/can only run as a task/) }],
    });
    expect(state.serverInfo?.name).toMatch(/everything/);
    const names = manager.tools().map((t) => t.name);
    const offered = ['echo', 'get-sum', 'get-tiny-image', 'get-resource-links', 'get-structured-content'];
    // Declared capabilities (elicitation, roots) make the server show the tools that use them.
    for (const n of [...offered, 'get-roots-list', 'trigger-elicitation-request']) {
      expect(names).toContain(`mcp__everything__${n}`);
    }
    // Sampling is offered only once the session gives the manager a model; URL elicitation never.
    expect(names).not.toContain('mcp__everything__trigger-sampling-request');
    expect(names).not.toContain('mcp__everything__trigger-url-elicitation');
    expect(state.resourceCount).toBeGreaterThan(0);
    expect(state.promptCount).toBeGreaterThan(0);
    expect(state.toolCount).toBe(names.length);
    expect(tool('echo').isReadOnly()).toBe(true);
    expect(tool('echo').isConcurrencySafe()).toBe(true);
    expect(tool('echo').inputJSONSchema).toMatchObject({ type: 'object', properties: { message: {} } });
  });

  it('runs tools: text, numbers, an image, resource links', async () => {
    expect(await run('echo', { message: 'hello mcp' })).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_echo',
      content: 'Echo: hello mcp',
    });
    expect(String((await run('get-sum', { a: 2, b: 40 })).content)).toContain('42');

    const image = await run('get-tiny-image', {});
    const blocks = image.content as Array<{ type: string; source?: { media_type: string; data: string } }>;
    expect(blocks.map((b) => b.type)).toContain('image');
    const img = blocks.find((b) => b.type === 'image');
    expect(img?.source?.media_type).toBe('image/png');
    expect(img?.source?.data.startsWith('iVBOR')).toBe(true);

    const links = await run('get-resource-links', { count: 2 });
    expect(String(links.content)).toMatch(/\[Resource link: .+ <demo:\/\/resource\//);
    expect(String(links.content)).toContain('Read it with ReadMcpResource {"server": "everything"');

    // Roots are the workspace; a form request is answered from the interactions queue.
    expect(String((await run('get-roots-list', {})).content)).toContain('file:///home/user/project');
    const off = manager.onChange(() => {
      const ask = manager.interactions()[0];
      if (ask?.kind === 'elicitation') {
        off();
        manager.answer(ask.id, { action: 'decline' });
      }
    });
    expect(String((await run('trigger-elicitation-request', {})).content)).toMatch(/declin/i);
  });

  it('a bad input is answered by the server as a tool error; the connection stays up', async () => {
    const bad = await run('get-sum', { a: 'two' });
    expect(bad.is_error).toBe(true);
    expect(String(bad.content)).toMatch(/valid|expected/i);
    expect(String((await run('echo', { message: 'still up' })).content)).toBe('Echo: still up');
    expect(manager.server('everything')?.status).toBe('connected');
  });

  it('disconnects and reconnects on demand', async () => {
    expect(await manager.removeServer('everything')).toBe(true);
    expect(manager.tools()).toEqual([]);
    const again = await manager.addServer({ type: 'http', name: 'everything', url: everything.url });
    expect(again.status).toBe('connected');
    expect(String((await run('echo', { message: 'back' })).content)).toBe('Echo: back');
  });
});
