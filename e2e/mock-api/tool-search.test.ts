/**
 * The mock's tool-search behaviour: tool_reference expansion (what the model sees, what the cache
 * counts), the 400s of misuse, endpoints without tool search, and the visibility check of scripted turns.
 */
import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estimateTokens, linearizePrompt, PromptCache } from './cache.ts';
import { type MockApi, startMockApi } from './server.ts';
import { TOOL_SEARCH_BETA, validateMessagesRequest, visibleToolNames } from './validate.ts';

type Params = Anthropic.MessageCreateParamsNonStreaming;
const tool = (name: string, extra: Record<string, unknown> = {}): Anthropic.Tool => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
  ...extra,
});
const reference = (name: string) => ({ type: 'tool_reference', tool_name: name }) as never;
/** A conversation where ToolSearch returned references to `names`. */
function searched(names: string[], tools: Anthropic.Tool[]): Params {
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    tools,
    messages: [
      { role: 'user', content: 'find the issue tool' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: {} }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: names.map(reference) }],
      },
    ],
  };
}
const TOOLS = [tool('ToolSearch'), tool('mcp__gh__create_issue', { defer_loading: true })];
/** The Claude API's tool-search beta: requests with deferred tools or references need it. */
const BETA = { 'anthropic-beta': TOOL_SEARCH_BETA };

describe('tool_reference expansion', () => {
  it('makes a referenced deferred tool visible, and only that one', () => {
    const body = searched(
      ['mcp__gh__create_issue'],
      [...TOOLS, tool('mcp__gh__close_issue', { defer_loading: true })],
    );
    expect(validateMessagesRequest(body)).toBeNull();
    expect(visibleToolNames(body)).toEqual(['ToolSearch', 'mcp__gh__create_issue']);
    expect(visibleToolNames({ ...body, messages: body.messages.slice(0, 1) })).toEqual(['ToolSearch']);
  });

  it('counts the expanded definition where it is referenced, and deferred tools nowhere else', () => {
    const body = searched(['mcp__gh__create_issue'], TOOLS);
    const blocks = linearizePrompt(body as never);
    expect(blocks.filter((b) => b.section === 'tools')).toHaveLength(1);
    const result = blocks[blocks.length - 1];
    const definition = JSON.stringify(tool('mcp__gh__create_issue', { defer_loading: true }));
    expect(result.tokens).toBeGreaterThan(estimateTokens(definition));
    // Adding more deferred tools changes no prompt block: the cache prefix stays.
    const more = searched(['mcp__gh__create_issue'], [...TOOLS, tool('mcp__x__y', { defer_loading: true })]);
    expect(linearizePrompt(more as never).map((b) => b.key)).toEqual(blocks.map((b) => b.key));
  });

  it('keeps the cache prefix when a discovered tool joins the request with defer_loading', () => {
    let now = 0;
    const cache = new PromptCache({ clock: () => now, minTokens: 1 });
    const big = 'x'.repeat(8000);
    const base = {
      model: 'm',
      max_tokens: 10,
      tools: [tool('ToolSearch', { cache_control: { type: 'ephemeral' } })],
      system: [{ type: 'text', text: big, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    };
    cache.account(base);
    now += 1000;
    const withDeferred = {
      ...base,
      tools: [...base.tools, tool('mcp__gh__create_issue', { defer_loading: true })],
    };
    const usage = cache.account(withDeferred);
    expect(usage.cache_read_input_tokens).toBeGreaterThan(estimateTokens(big));
    expect(usage.cache_creation_input_tokens).toBe(0);
  });
});

describe('tool search 400s on the server', () => {
  let api: MockApi;
  let noSearch: MockApi;
  let client: Anthropic;
  let plain: Anthropic;
  beforeAll(async () => {
    api = await startMockApi();
    noSearch = await startMockApi({ toolReference: false });
    client = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0, defaultHeaders: BETA });
    plain = new Anthropic({ apiKey: 'test', baseURL: noSearch.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await api.close();
    await noSearch.close();
  });
  beforeEach(() => {
    api.reset();
    noSearch.reset();
  });

  async function rejection(c: Anthropic, params: Params): Promise<string> {
    try {
      await c.messages.create(params);
    } catch (err) {
      expect((err as APIError).status).toBe(400);
      return ((err as APIError).error as { error: { message: string } }).error.message;
    }
    throw new Error('expected a 400');
  }

  it('accepts a resolved reference and rejects a reference outside tool_result content', async () => {
    api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
    const ok = await client.messages.create(searched(['mcp__gh__create_issue'], TOOLS));
    expect(ok.content[0]).toMatchObject({ text: 'ok' });
    expect(api.requests[0].visibleTools).toEqual(['ToolSearch', 'mcp__gh__create_issue']);
    const bare: Params = {
      ...searched([], TOOLS),
      messages: [{ role: 'user', content: [reference('mcp__gh__create_issue')] }],
    };
    expect(await rejection(client, bare)).toMatch(/^messages\.0\.content\.0: Input tag 'tool_reference'/);
  });

  it('needs the tool-search beta header for defer_loading and tool_reference, like the Claude API', async () => {
    const bare = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
    expect(
      await rejection(bare, { ...searched([], TOOLS), messages: [{ role: 'user', content: 'hi' }] }),
    ).toBe(
      `tools.1.custom.defer_loading: defer_loading requires the beta header 'anthropic-beta: ${TOOL_SEARCH_BETA}'`,
    );
    const referenceOnly = searched(
      ['mcp__gh__create_issue'],
      [tool('ToolSearch'), tool('mcp__gh__create_issue')],
    );
    expect(await rejection(bare, referenceOnly)).toMatch(
      /^messages\.2\.content\.0: tool_reference blocks require the beta header/,
    );
    // The SDK's beta interface sends it (with other betas, comma-separated).
    api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
    const params = {
      ...searched(['mcp__gh__create_issue'], TOOLS),
      betas: ['token-efficient-tools-2025-02-19', TOOL_SEARCH_BETA],
    } as unknown as Anthropic.Beta.MessageCreateParamsNonStreaming;
    const ok = await bare.beta.messages.create(params);
    expect(ok.content[0]).toMatchObject({ text: 'ok' });
    expect(api.requests.at(-1)?.headers['anthropic-beta']).toBe(
      `token-efficient-tools-2025-02-19,${TOOL_SEARCH_BETA}`,
    );
  });

  it('without tool search, rejects tool_reference and defer_loading as unknown', async () => {
    expect(
      await rejection(
        plain,
        searched(['mcp__gh__create_issue'], [tool('ToolSearch'), tool('mcp__gh__create_issue')]),
      ),
    ).toMatch(/^messages\.2\.content\.0\.content\.0: Input tag 'tool_reference' found/);
    expect(
      await rejection(plain, { ...searched([], TOOLS), messages: [{ role: 'user', content: 'hi' }] }),
    ).toBe('tools.1.custom.defer_loading: Extra inputs are not permitted');
    noSearch.script([{ content: [{ type: 'text', text: 'fine' }] }]);
    const ok = await plain.messages.create({
      model: 'm',
      max_tokens: 10,
      tools: [tool('ToolSearch')],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ok.content[0]).toMatchObject({ text: 'fine' });
  });

  it('with checkToolVisibility, refuses a scripted call of a tool the model cannot see', async () => {
    const strict = await startMockApi({ checkToolVisibility: true });
    try {
      const c = new Anthropic({ apiKey: 'test', baseURL: strict.url, maxRetries: 0, defaultHeaders: BETA });
      const call = (name: string) => ({ content: [{ type: 'tool_use' as const, name, input: {} }] });
      strict.script([call('mcp__gh__create_issue'), call('mcp__gh__create_issue')]);
      const hidden = { ...searched([], TOOLS), messages: [{ role: 'user' as const, content: 'go' }] };
      expect(await rejection(c, hidden)).toMatch(/^\[mock\] scripted tool_use of 'mcp__gh__create_issue'/);
      const seen = await c.messages.create(searched(['mcp__gh__create_issue'], TOOLS));
      expect(seen.content[0]).toMatchObject({ type: 'tool_use', name: 'mcp__gh__create_issue' });
    } finally {
      await strict.close();
    }
  });
});
