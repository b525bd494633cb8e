/**
 * The tool-search beta on the wire: the real SDK through the loop against the mock Messages API, which
 * (like the Claude API) refuses `defer_loading` and `tool_reference` without
 * `anthropic-beta: advanced-tool-use-2025-11-20`.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockApi, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../../tools/read/read.ts';
import { assembleToolPool } from '../../tools/registry.ts';
import { createToolSearchTool } from '../../tools/tool-search/tool-search.ts';
import { createSchemaCache } from '../api-schema.ts';
import { createToolUseContext } from '../context.ts';
import { createDeferredToolsState, type ToolSearchSetting } from '../deferred-tools.ts';
import { query } from '../query.ts';
import { requestBetas, TOOL_SEARCH_BETA } from '../request.ts';
import { type AnyTool, buildTool, textResult } from '../tool.ts';
import { createAnthropicClient } from './anthropic.ts';
import { streamMessages } from './beta-stream.ts';

const issueTool: AnyTool = buildTool({
  name: 'mcp__gh__create_issue',
  inputSchema: z.looseObject({}),
  inputJSONSchema: { type: 'object', properties: { title: { type: 'string' } } },
  description: () => 'Create an issue',
  isMcp: true,
  mcpInfo: { serverName: 'gh', toolName: 'create_issue' },
  isConcurrencySafe: () => true,
  checkPermissions: async () => ({ behavior: 'allow' }),
  call: async () => ({ data: 'created #7' }),
  mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
});
const search = createToolSearchTool({ semantic: null });

let api: MockApi;
let sandbox: Sandbox;
beforeAll(async () => {
  api = await startMockApi({ checkToolVisibility: true });
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files: {} });
});
afterEach(() => sandbox.dispose());

async function runLoop(setting: ToolSearchSetting) {
  const client = createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 256,
    systemPrompt: 'test',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'file a bug' }] }],
    tools: assembleToolPool([ReadTool, search], [issueTool]),
    context: createToolUseContext({ sandbox }),
    schemaCache: createSchemaCache(),
    deferredTools: createDeferredToolsState(setting),
  });
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  return step.value;
}

describe('the tool-search beta header', () => {
  it('is sent with the request that defines a deferred tool, and only then', async () => {
    api.script([
      {
        content: [{ type: 'tool_use', name: 'ToolSearch', input: { query: 'select:mcp__gh__create_issue' } }],
      },
      { content: [{ type: 'tool_use', name: 'mcp__gh__create_issue', input: { title: 'crash' } }] },
      { content: [{ type: 'text', text: 'Filed.' }] },
    ]);
    const out = await runLoop('auto');
    expect(out.reason).toBe('end_turn');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    // First request: nothing deferred is defined yet, so a plain request.
    expect(api.requests[0].headers['anthropic-beta']).toBeUndefined();
    // After ToolSearch: the discovered tool goes with defer_loading, through the beta interface.
    for (const r of api.requests.slice(1)) {
      expect(r.body.tools?.some((t) => (t as { defer_loading?: boolean }).defer_loading === true)).toBe(true);
      expect(r.headers['anthropic-beta']).toBe(TOOL_SEARCH_BETA);
    }
  });

  it('is not sent in portable mode (full schemas, no defer_loading)', async () => {
    api.script([
      {
        content: [{ type: 'tool_use', name: 'ToolSearch', input: { query: 'select:mcp__gh__create_issue' } }],
      },
      { content: [{ type: 'text', text: 'Loaded.' }] },
    ]);
    const out = await runLoop('portable');
    expect(out.reason).toBe('end_turn');
    expect(api.requests.map((r) => r.headers['anthropic-beta'])).toEqual([undefined, undefined]);
    expect(JSON.stringify(api.requests[1].body.tools)).not.toContain('defer_loading');
  });

  it('streamMessages picks the interface from the betas; without the header the mock refuses defer_loading', async () => {
    const client = createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
    const body = {
      model: 'm',
      max_tokens: 10,
      stream: true as const,
      tools: [
        { name: 'ToolSearch', input_schema: { type: 'object' as const } },
        { name: 'mcp__gh__x', input_schema: { type: 'object' as const }, defer_loading: true },
      ],
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    expect(requestBetas(body)).toEqual([TOOL_SEARCH_BETA]);
    expect(requestBetas({ tools: [body.tools[0]] })).toEqual([]);
    api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
    const message = await streamMessages(client, body, requestBetas(body)).finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'ok' });
    await expect(streamMessages(client, body, []).finalMessage()).rejects.toMatchObject({ status: 400 });
    expect(api.requests.at(-1)?.error).toMatch(/defer_loading requires the beta header/);
  });
});
