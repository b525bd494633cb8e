/**
 * ReadMcpResource against a real MCP server over HTTP on loopback (e2e/mcp/rich-server.ts) through the
 * real McpManager, run through the core's tool-call path: text, an image, a binary blob, a template
 * filled in, and the errors a model can act on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHost, startMcpHttpHost } from '../../../e2e/mcp/http-host.ts';
import { TINY_PNG } from '../../../e2e/mcp/quirky-server.ts';
import { createRichServer } from '../../../e2e/mcp/rich-server.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../../core/tool-execution.ts';
import { createMcpManager, type McpManager } from '../../mcp/manager.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { createReadMcpResourceTool } from './read-mcp-resource.ts';

let host: McpHttpHost;
let manager: McpManager;
let ctx: ToolUseContext;

beforeAll(async () => {
  const rich = createRichServer();
  host = await startMcpHttpHost({ createServer: () => rich.createServer() });
  manager = createMcpManager();
  await manager.addServer({ type: 'http', name: 'rich', url: host.url });
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});
afterAll(async () => {
  await manager?.dispose();
  await host?.close();
});

async function read(input: unknown) {
  const tool = createReadMcpResourceTool(manager);
  const prepared = await prepareCall({ type: 'tool_use', id: 'toolu_read', name: tool.name, input }, [tool]);
  return (await runToolCall(prepared, ctx, { tools: [tool], canUseTool: defaultCanUseTool, emit: () => {} }))
    .block;
}

describe('ReadMcpResource', () => {
  it('reads text, images, templates filled in; other binaries are described', async () => {
    expect(await read({ server: 'rich', uri: 'memo://notes/1' })).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_read',
      content: '[Resource memo://notes/1 (text/markdown)]\n# Note 1\nBuy milk.',
    });
    expect((await read({ server: 'rich', uri: 'memo://notes/42' })).content).toBe(
      '[Resource memo://notes/42 (text/markdown)]\n# Note 42',
    );
    expect((await read({ server: 'rich', uri: 'memo://logo.png' })).content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG } },
    ]);
    expect((await read({ server: 'rich', uri: 'memo://data.bin' })).content).toBe(
      '[Binary resource memo://data.bin (application/octet-stream, 5 B) not shown: its bytes are not text]',
    );
  });

  it('errors say what to fix', async () => {
    expect(await read({ server: 'nope', uri: 'memo://notes/1' })).toMatchObject({
      is_error: true,
      content: expect.stringContaining('There is no MCP server named "nope". Servers: rich.'),
    });
    expect(await read({ server: 'rich', uri: 'memo://missing' })).toMatchObject({
      is_error: true,
      content: expect.stringMatching(
        /Reading memo:\/\/missing from the MCP server rich failed: .*no resource memo:\/\/missing/,
      ),
    });
    expect(await read({ server: 'rich' })).toMatchObject({ is_error: true });
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(
      JSON.stringify(createReadMcpResourceTool(manager).inputJSONSchema, null, 2),
    ).toMatchFileSnapshot('./__snapshots__/read-mcp-resource.schema.json');
  });
});
