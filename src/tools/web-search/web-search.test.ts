/**
 * WebSearch on the real SDK against the mock Messages API streaming server tool blocks (server_tool_use,
 * web_search_tool_result) the way the API does: the card's status follows the stream, the model reads
 * the links and the summary; an endpoint without server tools turns the tool off for the session.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createSchemaCache } from '../../core/api-schema.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { createAnthropicClient } from '../../core/model/anthropic.ts';
import { ToolInputError, type ToolProgress } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { createServerToolSupport } from '../shared/server-tools.ts';
import { createWebSearchTool, formatSearch } from './web-search.ts';

let api: MockApi;
let bare: MockApi;
beforeAll(async () => {
  api = await startMockApi();
  bare = await startMockApi({ serverTools: false });
});
afterAll(async () => {
  await api.close();
  await bare.close();
});
beforeEach(() => {
  api.reset();
  bare.reset();
});

async function contextFor(url: string): Promise<ToolUseContext> {
  const ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
  const client = createAnthropicClient({ apiKey: 'test', baseURL: url, maxRetries: 0 });
  return {
    ...ctx,
    options: {
      ...ctx.options,
      runtime: {
        client,
        model: 'claude-test',
        maxTokens: 1024,
        systemPrompt: 's',
        schemaCache: createSchemaCache(),
      },
    },
  };
}

describe('WebSearch', () => {
  it('runs the server-side search, streams its progress, returns links and summary', async () => {
    api.script([
      (r) => {
        expect(r.body.tools).toEqual([
          { type: 'web_search_20250305', name: 'web_search', max_uses: 5, allowed_domains: ['vite.dev'] },
        ]);
        return {
          chunkDelayMs: 5,
          content: [
            { type: 'server_tool_use', name: 'web_search', input: { query: 'vite preview' } },
            {
              type: 'web_search_tool_result',
              content: [
                {
                  type: 'web_search_result',
                  title: 'Preview',
                  url: 'https://vite.dev/preview',
                  encrypted_content: 'x',
                },
                { type: 'web_search_result', title: '', url: 'https://vite.dev/b', encrypted_content: 'y' },
              ],
            },
            { type: 'text', text: 'Vite preview serves the build.' },
          ],
        };
      },
    ]);
    const tool = createWebSearchTool();
    const progress: ToolProgress[] = [];
    const ctx = await contextFor(api.url);
    const { data } = await tool.call({ query: 'vite preview', allowed_domains: ['vite.dev'] }, ctx, (p) =>
      progress.push(p),
    );
    expect(data.results).toEqual([
      { title: 'Preview', url: 'https://vite.dev/preview' },
      { title: 'https://vite.dev/b', url: 'https://vite.dev/b' },
    ]);
    expect(data.summary).toBe('Vite preview serves the build.');
    expect(data.searchCount).toBe(1);
    expect(progress.map((p) => p.text)).toEqual(
      expect.arrayContaining(['Searching: vite preview', 'Searching: vite preview · 2 results so far']),
    );
    expect(formatSearch(data)).toContain('- [Preview](https://vite.dev/preview)');
    // The result streamed as the API streams it: its start event carries the whole block.
    expect(api.requests[0].response?.content.map((b) => b.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
      'text',
    ]);
  });

  it('reports the search error block of the server', async () => {
    api.script([
      {
        content: [
          { type: 'server_tool_use', name: 'web_search', input: { query: 'x' } },
          {
            type: 'web_search_tool_result',
            content: { type: 'web_search_tool_result_error', error_code: 'too_many_requests' },
          },
        ],
      },
    ]);
    const { data } = await createWebSearchTool().call({ query: 'xx' }, await contextFor(api.url));
    expect(formatSearch(data)).toContain('The search reported: too_many_requests');
  });

  it('an endpoint without server tools: a clear error, and the tool is hidden for the session', async () => {
    const support = createServerToolSupport();
    const tool = createWebSearchTool(support);
    expect(tool.isEnabled?.()).toBe(true);
    const call = tool.call({ query: 'anything' }, await contextFor(bare.url));
    await expect(call).rejects.toBeInstanceOf(ToolInputError);
    await expect(call).rejects.toThrow(/does not offer the server-side web search tool/);
    expect(bare.requests[0].status).toBe(400);
    expect(tool.isEnabled?.()).toBe(false);
  });

  it('refuses bad input, and keeps its input JSON schema stable', async () => {
    const tool = createWebSearchTool();
    expect(tool.inputSchema.safeParse({ query: 'x' }).success).toBe(false);
    expect(
      tool.validateInput?.(
        { query: 'ab', allowed_domains: ['a.com'], blocked_domains: ['b.com'] },
        {} as never,
      ),
    ).toMatch(/not both/);
    await expect(JSON.stringify(tool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/web-search.schema.json',
    );
  });
});
