/**
 * A server whose tools/list (and resources/list, prompts/list) answers one page of 250,000 entries (the
 * SDK's low-level Server, in the page): the lists are taken without overflowing the call stack, the first
 * MCP_MAX_TOOLS_PER_SERVER tools are kept, and the tools work.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, it } from 'vitest';
import { MCP_MAX_TOOLS_PER_SERVER } from '../core/constants.ts';
import { createToolUseContext } from '../core/context.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { inPageServer } from './in-page.ts';
import { createMcpManager, type McpManager } from './manager.ts';

const COUNT = 250_000;

function hugeServer(): Server {
  const server = new Server(
    { name: 'huge', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: Array.from({ length: COUNT }, (_, i) => ({ uri: `mem://r/${i}`, name: `r${i}` })),
  }));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: Array.from({ length: COUNT }, (_, i) => ({ name: `p${i}` })),
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Array.from({ length: COUNT }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool number ${i}.`,
      inputSchema: { type: 'object' as const, properties: {} },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => ({
    content: [{ type: 'text', text: `ran ${req.params.name}` }],
  }));
  return server;
}

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

it('a page of 250,000 tools connects with the first MCP_MAX_TOOLS_PER_SERVER of them, and they work', async () => {
  manager = createMcpManager();
  const state = await manager.addServer(inPageServer('huge', (t) => hugeServer().connect(t)));
  expect(state).toMatchObject({ status: 'connected', toolCount: MCP_MAX_TOOLS_PER_SERVER });
  const tools = manager.tools();
  expect(tools).toHaveLength(MCP_MAX_TOOLS_PER_SERVER);
  const tool = tools.find((t) => t.name === 'mcp__huge__tool_7');
  if (!tool) throw new Error('tool_7 missing');
  const ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  const r = await tool.call({}, ctx);
  expect(tool.mapToolResultToToolResultBlockParam(r.data, 't1').content).toBe('ran tool_7');
  // Its resource and prompt lists, as long, are listed without overflowing the call stack either.
  expect(manager.resources().length).toBeGreaterThan(0);
  expect(manager.prompts().length).toBeGreaterThan(0);
}, 60_000);
