/**
 * ToolSearch on bad input, through the real tool-call path (prepare → authorize → execute → map): an
 * empty query, a 10,000-character query, other scripts, 5,000 tools, and a semantic stage that fails.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { QueryEvent } from '../../core/events.ts';
import type { AnyTool } from '../../core/tool.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../../core/tool-execution.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { fakeMcpTool } from '../../testing/mcp-tool.ts';
import { createInProcessSemanticStage } from './semantic-stage.ts';
import { tokenize } from './tokenize.ts';
import { createToolSearchTool, type ToolSearchOutput } from './tool-search.ts';

const mcp = fakeMcpTool;

const CATALOGUE = [
  mcp('weather', 'forecast', 'Weather forecast for a city'),
  mcp('bing-cn', 'web_search', '使用必应搜索网页，返回搜索结果'),
  mcp('yandex', 'translate', 'Перевод текста с одного языка на другой'),
  mcp('fs', 'read_file', 'Read a file from disk'),
];

let sandbox: Sandbox;
let ctx: ToolUseContext;
beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: {} });
});
afterEach(() => sandbox.dispose());

/** One ToolSearch call through the loop's own stages; the tool_result the model gets. */
async function viaLoop(tool: AnyTool, pool: AnyTool[], input: unknown) {
  ctx = createToolUseContext({ sandbox, options: { tools: [tool, ...pool] } });
  const events: QueryEvent[] = [];
  const block = { type: 'tool_use' as const, id: 'toolu_x', name: 'ToolSearch', input };
  const call = await prepareCall(block, [tool, ...pool]);
  const out = await runToolCall(call, ctx, {
    tools: [tool, ...pool],
    canUseTool: defaultCanUseTool,
    emit: (e) => events.push(e),
  });
  return { block: out.block, events };
}

const lexical = createToolSearchTool({ semantic: null });
const textOf = (content: unknown) =>
  typeof content === 'string'
    ? content
    : (content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');

describe('bad input', () => {
  it('an empty or blank query is a clear is_error the model can act on', async () => {
    for (const query of ['', '   \n\t']) {
      const { block } = await viaLoop(lexical, CATALOGUE, { query });
      expect(block.is_error).toBe(true);
      expect(textOf(block.content)).toMatch(/query|select:/i);
    }
    const { block } = await viaLoop(lexical, CATALOGUE, { query: '  ' });
    expect(textOf(block.content)).toContain(
      'The query is empty. Give keywords ("create issue"), "select:<exact tool name>", or "mcp__<server>".',
    );
  });

  it('a 10,000-character query is cut, still answered, and says it was cut', async () => {
    const query = `weather forecast ${'lorem ipsum dolor '.repeat(600)}`.slice(0, 10_000);
    expect(query.length).toBe(10_000);
    const { block } = await viaLoop(lexical, CATALOGUE, { query });
    expect(block.is_error).toBeFalsy();
    expect(block.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__weather__forecast' },
      { type: 'text', text: 'The query was cut to its first 1000 characters.' },
    ]);
    // One token of 10,000 letters: read once, not stemmed, no match.
    expect(tokenize('x'.repeat(10_000))).toEqual([{ word: 'x'.repeat(10_000) }]);
  });

  it('CJK and Cyrillic queries match descriptions in those scripts, and say so clearly otherwise', async () => {
    expect((await viaLoop(lexical, CATALOGUE, { query: '网页搜索' })).block.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__bing-cn__web_search' },
    ]);
    expect((await viaLoop(lexical, CATALOGUE, { query: 'перевод текста' })).block.content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__yandex__translate' },
    ]);
    const none = await viaLoop(lexical, CATALOGUE, { query: 'погода завтра' });
    expect(none.block.is_error).toBeFalsy();
    expect(textOf(none.block.content)).toMatch(
      /^No deferred tools match "погода завтра" \(4 deferred tools are available\)/,
    );
  });

  it('a pool of 5,000 tools still answers, best first', async () => {
    const big = Array.from({ length: 5000 }, (_, i) =>
      mcp(`srv${i % 50}`, `tool_${i}`, `Does task number ${i} with widgets and gadgets`),
    );
    big.push(mcp('maps', 'geocode_address', 'Convert a street address into coordinates'));
    const { block } = await viaLoop(lexical, big, { query: 'geocode a street address' });
    expect((block.content as { tool_name?: string }[])[0]).toEqual({
      type: 'tool_reference',
      tool_name: 'mcp__maps__geocode_address',
    });
    const server = await viaLoop(lexical, big, { query: 'mcp__srv7', max_results: 25 });
    expect(textOf(server.block.content)).toContain('75 more tools match mcp__srv7');
  });

  it('a semantic stage that fails to load: lexical results, and the result card says why', async () => {
    const broken = createInProcessSemanticStage(async () => {
      throw new Error('HTTP 404 for /assets/word-vectors.bin');
    });
    const tool = createToolSearchTool({ semantic: broken });
    ctx = createToolUseContext({ sandbox, options: { tools: [tool, ...CATALOGUE] } });
    const out = await tool.call({ query: 'weather in my town' }, ctx);
    expect(out.data.matches).toEqual(['mcp__weather__forecast']);
    expect(out.data.semantic).toBe(
      'lexical only: the semantic stage failed (the word-vector table did not load (HTTP 404 for /assets/word-vectors.bin))',
    );
    expect(broken.status()).toEqual({
      state: 'failed',
      reason: 'the word-vector table did not load (HTTP 404 for /assets/word-vectors.bin)',
    });
    const card = tool.renderToolResultMessage?.(out.data as ToolSearchOutput, {
      query: 'weather in my town',
    });
    expect(card).toEqual({
      kind: 'text',
      text: 'Loaded: mcp__weather__forecast\nSemantic stage: lexical only: the semantic stage failed (the word-vector table did not load (HTTP 404 for /assets/word-vectors.bin))',
    });
    // What the model gets is the same as without the stage.
    expect(tool.mapToolResultToToolResultBlockParam(out.data, 'toolu_1').content).toEqual([
      { type: 'tool_reference', tool_name: 'mcp__weather__forecast' },
    ]);
  });
});
