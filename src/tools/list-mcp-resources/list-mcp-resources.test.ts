/**
 * ListMcpResources against a real MCP server over HTTP on loopback (e2e/mcp/rich-server.ts) through
 * the real McpManager, run through the core's tool-call path as the loop runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../../e2e/mcp/http-host.ts';
import { createRichServer } from '../../../e2e/mcp/rich-server.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { isDeferredTool } from '../../core/deferred-tools.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../../core/tool-execution.ts';
import { createMcpManager, type McpManager } from '../../mcp/manager.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { getAllBaseTools, getTools } from '../registry.ts';
import { createListMcpResourcesTool } from './list-mcp-resources.ts';

let host: McpHttpHost;
let manager: McpManager;
let ctx: ToolUseContext;

beforeAll(async () => {
  const rich = createRichServer();
  host = await startMcpHttpHost({ createServer: () => rich.createServer() });
  manager = createMcpManager();
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});
afterAll(async () => {
  await manager?.dispose();
  await host?.close();
});

async function run(input: unknown) {
  const tool = createListMcpResourcesTool(manager);
  const prepared = await prepareCall({ type: 'tool_use', id: 'toolu_list', name: tool.name, input }, [tool]);
  return (await runToolCall(prepared, ctx, { tools: [tool], canUseTool: defaultCanUseTool, emit: () => {} }))
    .block;
}

describe('ListMcpResources', () => {
  it('is offered (deferred) only while a connected server has resources', async () => {
    const names = () => getTools([], getAllBaseTools({ mcpResources: manager })).map((t) => t.name);
    expect(names()).not.toContain('ListMcpResources');
    await manager.addServer({ type: 'http', name: 'rich', url: host.url });
    expect(names()).toEqual(expect.arrayContaining(['ListMcpResources', 'ReadMcpResource']));
    const tool = createListMcpResourcesTool(manager);
    expect(isDeferredTool(tool)).toBe(true);
    expect(tool.isReadOnly()).toBe(true);
    expect(getAllBaseTools().map((t) => t.name)).not.toContain('ListMcpResources');
  });

  it('lists resources and templates, for every server or one', async () => {
    const all = await run({});
    expect(all.content).toBe(
      [
        'rich: memo://notes/1 — First note (text/markdown)',
        'rich: memo://logo.png — logo (image/png)',
        'rich: memo://data.bin — data (application/octet-stream)',
        'rich: memo://notes/{id} (template) — note : A note by id',
      ].join('\n'),
    );
    expect((await run({ server: 'rich' })).content).toBe(all.content);
    const unknown = await run({ server: 'nope' });
    expect(unknown).toMatchObject({
      is_error: true,
      content: expect.stringContaining('There is no MCP server named "nope". Servers: rich.'),
    });
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    const tool = createListMcpResourcesTool(manager);
    expect(tool.prompt?.()).toContain('At most 200 resources');
    await expect(JSON.stringify(tool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/list-mcp-resources.schema.json',
    );
  });
});
