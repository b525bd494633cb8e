/**
 * The loop with deferred tools, ToolSearch, portable fallback, spilled results and cache breakpoints,
 * on the real SDK against the mock Messages API (which refuses a scripted call of a tool the model
 * could not see). MCP-shaped tools come and go through the tools provider between and during queries.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { BashTool } from '../tools/bash/bash.ts';
import { ReadTool } from '../tools/read/read.ts';
import { assembleToolPool } from '../tools/registry.ts';
import { ToolSearchTool } from '../tools/tool-search/tool-search.ts';
import { createSchemaCache, type SchemaCache } from './api-schema.ts';
import { createToolUseContext, type ToolUseContext } from './context.ts';
import {
  createDeferredToolsState,
  DEFERRED_TOOLS_ADDED_HEADER,
  DEFERRED_TOOLS_HEADER,
  DEFERRED_TOOLS_REMOVED_HEADER,
  type DeferredToolsState,
} from './deferred-tools.ts';
import type { MessageParam } from './messages.ts';
import { createAnthropicClient } from './model/anthropic.ts';
import { type QueryOutcome, type QueryParams, query } from './query.ts';
import { createIdbStore } from './storage.ts';
import { type AnyTool, buildTool, textResult } from './tool.ts';
import { createResultSpiller, createSpillStore, spilledPathIn } from './tool-results.ts';

function mcpTool(server: string, name: string, output: (input: Record<string, unknown>) => string): AnyTool {
  return buildTool({
    name: `mcp__${server}__${name}`,
    inputSchema: z.looseObject({}),
    inputJSONSchema: { type: 'object', properties: { q: { type: 'string', description: `${name} input` } } },
    description: () => `${name.replaceAll('_', ' ')} on ${server}`,
    isMcp: true,
    mcpInfo: { serverName: server, toolName: name },
    isConcurrencySafe: () => true,
    checkPermissions: async () => ({ behavior: 'allow' }),
    call: async (input) => ({ data: output(input as Record<string, unknown>) }),
    mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
  });
}

const GH = [
  mcpTool('gh', 'create_issue', (i) => `created issue "${String(i.q)}"`),
  mcpTool('gh', 'list_issues', () => '#1 open'),
];
const FS = [mcpTool('fs', 'read_file', () => 'file text')];
const BUILT_INS = [BashTool, ReadTool, ToolSearchTool];

let api: MockApi;
let sandbox: Sandbox;
let context: ToolUseContext;
let schemaCache: SchemaCache;
let deferral: DeferredToolsState;
let mcp: AnyTool[];

beforeAll(async () => {
  api = await startMockApi({ checkToolVisibility: true });
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, `file ${i}\n`]));
  sandbox = await createJustBashSandbox({ files });
  context = createToolUseContext({ sandbox });
  schemaCache = createSchemaCache();
  deferral = createDeferredToolsState();
  mcp = [];
});
afterEach(() => sandbox.dispose());

async function run(
  messages: MessageParam[],
  extra: Partial<QueryParams> & { baseURL?: string } = {},
): Promise<QueryOutcome> {
  const client = createAnthropicClient({ apiKey: 'test', baseURL: extra.baseURL ?? api.url, maxRetries: 0 });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages,
    getTools: () => assembleToolPool(BUILT_INS, mcp),
    context,
    schemaCache,
    deferredTools: deferral,
    ...extra,
  });
  let step = await gen.next();
  while (!step.done) step = await gen.next();
  context = { ...step.value.context, abortController: new AbortController() };
  return step.value;
}

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const lastText = (m: MessageParam | undefined) => {
  const blocks = !m || typeof m.content === 'string' ? [] : m.content;
  const b = blocks[blocks.length - 1];
  return b?.type === 'text' ? b.text : '';
};
const toolsOf = (i: number) => JSON.stringify(api.requests[i].body.tools);
const call = (name: string, input: Record<string, unknown>, id?: string) => ({
  content: [{ type: 'tool_use' as const, name, input, ...(id ? { id } : {}) }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

describe('deferred MCP tools in the loop', () => {
  it('announces servers as they come and go, loads a tool through ToolSearch, keeps tools and system bytes', async () => {
    api.script([say('No tools yet.')]);
    let messages = (await run([user('hello')])).messages;
    expect(lastText(api.requests[0].body.messages[0] as MessageParam)).toBe('hello');

    mcp = [...GH];
    api.script([
      call('ToolSearch', { query: 'create issue' }),
      (req) => {
        expect(req.visibleTools).toContain('mcp__gh__create_issue');
        return call('mcp__gh__create_issue', { q: 'crash on start' }, 'toolu_ci');
      },
      say('Filed.'),
    ]);
    messages = (await run([...messages, user('file a bug')])).messages;
    expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const announced = lastText(api.requests[1].body.messages.at(-1) as MessageParam);
    expect(announced).toBe(
      `<system-reminder>\n${DEFERRED_TOOLS_HEADER}\nmcp__gh__: create_issue, list_issues\n</system-reminder>`,
    );
    // The server's arrival changed no tool bytes; the discovered tool is appended, deferred.
    expect(toolsOf(1)).toBe(toolsOf(0));
    // The search found both gh tools ("issue"), best first; they are appended, deferred.
    const loaded = api.requests[2].body.tools ?? [];
    expect(JSON.stringify(loaded.slice(0, 3))).toBe(toolsOf(0));
    expect(loaded.slice(3)).toMatchObject([
      { name: 'mcp__gh__create_issue', defer_loading: true },
      { name: 'mcp__gh__list_issues', defer_loading: true },
    ]);
    expect(JSON.stringify(messages)).toContain('created issue \\"crash on start\\"');

    // gh leaves, fs arrives mid-session: a delta, and the loaded gh tool stays defined for its reference.
    mcp = [...FS];
    api.script([say('Noted.')]);
    await run([...messages, user('and now?')]);
    const delta = lastText(api.requests[4].body.messages.at(-1) as MessageParam);
    expect(delta).toBe(
      `<system-reminder>\n${DEFERRED_TOOLS_ADDED_HEADER}\nmcp__fs__: read_file\n${DEFERRED_TOOLS_REMOVED_HEADER}\nmcp__gh__: create_issue, list_issues\n</system-reminder>`,
    );
    expect(api.requests[4].status).toBe(200);
    expect(toolsOf(4)).toBe(toolsOf(3));
    expect(new Set(api.requests.map((r) => JSON.stringify(r.body.system))).size).toBe(1);
    // Every later request read the tools and system prefix from the cache.
    for (const r of api.requests.slice(1))
      expect(r.response?.usage.cache_read_input_tokens).toBeGreaterThan(1024);
  });

  it('falls back to portable mode when the endpoint rejects tool_reference, and the model still calls the tool', async () => {
    const plain = await startMockApi({ toolReference: false, checkToolVisibility: true });
    try {
      mcp = [...GH];
      plain.script([
        call('ToolSearch', { query: 'select:mcp__gh__list_issues' }),
        (req) => {
          expect(req.visibleTools).toContain('mcp__gh__list_issues');
          return call('mcp__gh__list_issues', {});
        },
        say('One open issue.'),
      ]);
      const outcome = await run([user('issues?')], { baseURL: plain.url });
      expect(outcome.reason).toBe('end_turn');
      expect(plain.requests.map((r) => r.status)).toEqual([200, 400, 200, 200]);
      expect(plain.requests[1].error).toMatch(/tool_reference/);
      expect(deferral.mode).toBe('portable');
      const json = JSON.stringify(outcome.messages);
      expect(json).not.toContain('tool_reference');
      expect(json).toContain(
        '<function>{\\"description\\":\\"list issues on gh\\",\\"name\\":\\"mcp__gh__list_issues\\"',
      );
      expect(plain.requests[2].body.tools?.at(-1)).toMatchObject({ name: 'mcp__gh__list_issues' });
      expect(plain.requests[2].body.tools?.at(-1)).not.toHaveProperty('defer_loading');
      // Next query: results of ToolSearch come as text straight away.
      plain.script([call('ToolSearch', { query: 'mcp__gh__create_issue' }), say('ok')]);
      await run([...outcome.messages, user('more')], { baseURL: plain.url });
      expect(plain.requests.slice(4).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await plain.close();
    }
  });

  it('spills a large result to IndexedDB and the model reads it back with Read', async () => {
    const store = createSpillStore({ kv: createIdbStore('query-spill-test') });
    context = { ...context, resultStore: store };
    const big = Array.from({ length: 4000 }, (_, i) => `row ${i + 1}: ${'v'.repeat(30)}`).join('\n');
    mcp = [mcpTool('db', 'dump', () => big), ...GH];
    api.script([
      call('ToolSearch', { query: 'select:mcp__db__dump' }),
      call('mcp__db__dump', {}, 'toolu_dump'),
      (req) => {
        const last = JSON.stringify(req.body.messages.at(-1));
        expect(last).toContain('<persisted-output>');
        return call('Read', { file_path: spilledPathIn(last), offset: 3999, limit: 5 });
      },
      say('Read the tail.'),
    ]);
    const outcome = await run([user('dump the table')], { resultSpiller: createResultSpiller({ store }) });
    expect(outcome.reason).toBe('end_turn');
    const read = JSON.stringify(api.requests[3].body.messages.at(-1));
    expect(read).toContain(`  3999\\trow 3999: ${'v'.repeat(30)}\\n  4000\\trow 4000`);
    expect(context.contentReplacementState.decisions.get('toolu_dump')).toContain('<persisted-output>');
  });

  it('reads the previous turn from the cache even when a turn adds more than 20 blocks', async () => {
    const reads = Array.from({ length: 12 }, (_, i) => ({
      type: 'tool_use' as const,
      name: 'Read',
      input: { file_path: `f${i}.txt` },
    }));
    api.script([{ content: reads }, say('Read them all.')]);
    await run([user('read every file')]);
    const [first, second] = api.requests.map((r) => r.response?.usage);
    const firstTotal =
      (first?.input_tokens ?? 0) +
      (first?.cache_creation_input_tokens ?? 0) +
      (first?.cache_read_input_tokens ?? 0);
    // 12 tool_use + 12 tool_result blocks since the last breakpoint: the lookback alone would miss.
    expect(second?.cache_read_input_tokens).toBe(firstTotal);
  });
});
