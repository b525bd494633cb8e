import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_TTL_5M, estimateInputTokens, estimateTokens, linearizePrompt, PromptCache } from './cache.ts';
import { type MockApi, startMockApi } from './server.ts';

type Body = Record<string, unknown>;
type Block = Record<string, unknown>;

const cc = { type: 'ephemeral' };
const BIG = 'The quick brown fox jumps over the lazy dog. '.repeat(120); // ~5400 chars ≈ 1350 tokens
const tool = (name: string, extra: Block = {}): Block => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object', properties: {} },
  ...extra,
});
const text = (t: string, extra: Block = {}): Block => ({ type: 'text', text: t, ...extra });
const req = (over: Body = {}): Body => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  tools: [tool('Read'), tool('Bash', { cache_control: cc })],
  system: [text(BIG, { cache_control: cc })],
  messages: [{ role: 'user', content: [text('hello')] }],
  ...over,
});
/** A conversation of `turns` user/assistant pairs plus a last user message carrying the breakpoint. */
const conversation = (turns: number, lastCached = true): Body['messages'] => {
  const messages: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: [text(`question ${i}`)] });
    messages.push({ role: 'assistant', content: [text(`answer ${i}`)] });
  }
  messages.push({ role: 'user', content: [text('latest', lastCached ? { cache_control: cc } : {})] });
  return messages;
};

describe('prompt cache model', () => {
  let now = 0;
  let cache: PromptCache;
  beforeEach(() => {
    now = 1_000_000;
    cache = new PromptCache({ clock: () => now });
  });

  it('writes the prefix up to the breakpoints, then reads it back', () => {
    const body = req();
    const total = estimateInputTokens(body);
    const systemBlock = JSON.stringify(text(BIG));
    const first = cache.account(body);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(estimateTokens(systemBlock));
    expect(first.input_tokens).toBe(estimateTokens(JSON.stringify(text('hello'))));
    expect(first.input_tokens + first.cache_creation_input_tokens).toBe(total);
    expect(first.cache_creation.ephemeral_5m_input_tokens).toBe(first.cache_creation_input_tokens);

    const second = cache.account(req());
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(0);
    expect(second.input_tokens).toBe(first.input_tokens);
  });

  it('caches nothing below the minimum cacheable length', () => {
    const small = req({ system: [text('short system prompt', { cache_control: cc })] });
    expect(cache.account(small).cache_creation_input_tokens).toBe(0);
    const again = cache.account(small);
    expect(again.cache_read_input_tokens).toBe(0);
    expect(again.input_tokens).toBe(estimateInputTokens(small));
    expect(cache.size).toBe(0);
  });

  it('expires entries after 5 minutes on the injected clock, and a read refreshes the TTL', () => {
    const first = cache.account(req());
    now += CACHE_TTL_5M - 1;
    expect(cache.account(req()).cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    now += CACHE_TTL_5M - 1; // 10 min after the write, but under 5 min after the refreshing read
    expect(cache.account(req()).cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    now += CACHE_TTL_5M;
    const expired = cache.account(req());
    expect(expired.cache_read_input_tokens).toBe(0);
    expect(expired.cache_creation_input_tokens).toBe(first.cache_creation_input_tokens);
  });

  it('keeps 1h entries for an hour and reports them as 1h creation', () => {
    const body = req({
      system: [text(BIG, { cache_control: { type: 'ephemeral', ttl: '1h' } })],
      tools: [tool('Read')],
    });
    const first = cache.account(body);
    expect(first.cache_creation.ephemeral_1h_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(first.cache_creation.ephemeral_5m_input_tokens).toBe(0);
    now += 30 * 60_000;
    expect(cache.account(body).cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
  });

  it('a byte change in tools busts everything after it; in messages only the messages part', () => {
    const first = cache.account(req({ messages: conversation(2) }));
    const changedTools = cache.account(
      req({
        tools: [tool('Read', { description: 'changed' }), tool('Bash', { cache_control: cc })],
        messages: conversation(2),
      }),
    );
    expect(changedTools.cache_read_input_tokens).toBe(0);

    cache.clear();
    cache.account(req({ messages: conversation(2) }));
    const blocks = linearizePrompt(req({ messages: conversation(2) }));
    const systemEnd = blocks.filter((b) => b.section !== 'messages').at(-1)!.cumulative;
    const otherMessages = conversation(2) as Array<{ role: string; content: Block[] }>;
    otherMessages[0] = { role: 'user', content: [text('a different first question')] };
    const changedMessages = cache.account(req({ messages: otherMessages }));
    expect(changedMessages.cache_read_input_tokens).toBe(systemEnd);
    expect(first.cache_read_input_tokens).toBe(0);
  });

  it('reads the previous breakpoint when the conversation grows (the moving last-message breakpoint)', () => {
    const before = req({ messages: conversation(1) });
    const first = cache.account(before);
    const total1 = estimateInputTokens(before);
    expect(first.cache_creation_input_tokens).toBe(total1);
    expect(first.input_tokens).toBe(0);

    // Same prefix; the old last message loses its marker, two messages are appended, the new last is marked.
    const grown = [
      { role: 'user', content: [text('question 0')] },
      { role: 'assistant', content: [text('answer 0')] },
      { role: 'user', content: [text('latest')] },
      { role: 'assistant', content: [text('answer')] },
      { role: 'user', content: [text('more', { cache_control: cc })] },
    ];
    const after = req({ messages: grown });
    const second = cache.account(after);
    expect(second.cache_read_input_tokens).toBe(total1);
    expect(second.cache_creation_input_tokens).toBe(estimateInputTokens(after) - total1);
  });

  it('looks back at most 20 blocks from a breakpoint for an earlier entry', () => {
    const noSystemBreakpoint = { system: [text(BIG)], tools: [tool('Read')] };
    cache.account(req({ ...noSystemBreakpoint, messages: conversation(0) }));
    // 19 blocks later: the entry is the 20th boundary counting the breakpoint itself, still found.
    const near = conversation(0) as Array<{ role: string; content: Block[] }>;
    near[0] = {
      role: 'user',
      content: [text('latest'), ...Array.from({ length: 19 }, (_, i) => text(`b${i}`))],
    };
    (near[0].content.at(-1) as Block).cache_control = cc;
    expect(
      cache.account(req({ ...noSystemBreakpoint, messages: near })).cache_read_input_tokens,
    ).toBeGreaterThan(0);

    cache.clear();
    cache.account(req({ ...noSystemBreakpoint, messages: conversation(0) }));
    const far = conversation(0) as Array<{ role: string; content: Block[] }>;
    far[0] = {
      role: 'user',
      content: [text('latest'), ...Array.from({ length: 20 }, (_, i) => text(`b${i}`))],
    };
    (far[0].content.at(-1) as Block).cache_control = cc;
    expect(cache.account(req({ ...noSystemBreakpoint, messages: far })).cache_read_input_tokens).toBe(0);
  });

  it('is scoped by model, ignores deferred tools and cache_control bytes, and honours top-level cache_control', () => {
    const first = cache.account(req());
    expect(cache.account(req({ model: 'claude-opus-4-6' })).cache_read_input_tokens).toBe(0);
    const withDeferred = req({
      tools: [tool('Read'), tool('Bash', { cache_control: cc }), tool('mcp__x__y', { defer_loading: true })],
    });
    expect(cache.account(withDeferred).cache_read_input_tokens).toBe(first.cache_creation_input_tokens);

    cache.clear();
    const auto = req({ tools: [tool('Read')], system: [text(BIG)], cache_control: cc });
    const written = cache.account(auto);
    expect(written.cache_creation_input_tokens).toBe(estimateInputTokens(auto));
    expect(cache.account(auto).cache_read_input_tokens).toBe(estimateInputTokens(auto));
  });

  it('a tool_choice change invalidates the messages cache but not tools and system', () => {
    const body = req({ messages: conversation(1) });
    cache.account(body);
    const blocks = linearizePrompt(body);
    const systemEnd = blocks.filter((b) => b.section !== 'messages').at(-1)!.cumulative;
    const forced = cache.account({ ...body, tool_choice: { type: 'any' } });
    expect(forced.cache_read_input_tokens).toBe(systemEnd);
  });
});

describe('cache usage through the SDK', () => {
  let api: MockApi;
  let client: Anthropic;
  let now = 0;
  beforeAll(async () => {
    api = await startMockApi({ clock: () => now });
    client = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.reset();
    now = 5_000_000;
  });

  it('reports cache creation then cache reads in message_start, message_delta and finalMessage', async () => {
    const params = req({ messages: conversation(0) }) as unknown as Anthropic.MessageCreateParamsNonStreaming;
    api.script([{ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] }]);
    const first = await client.messages.stream(params).finalMessage();
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBe(estimateInputTokens(params as unknown as Body));

    now += 60_000;
    const stream = client.messages.stream(params);
    let startUsage: Anthropic.Usage | undefined;
    stream.on('streamEvent', (e) => {
      if (e.type === 'message_start') startUsage = e.message.usage;
    });
    const second = await stream.finalMessage();
    expect(startUsage?.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(api.requests[1].response?.usage.cache_read_input_tokens).toBe(
      second.usage.cache_read_input_tokens,
    );

    api.push({ content: [{ type: 'text', text: 'three' }] });
    now += CACHE_TTL_5M + 1;
    const third = await client.messages.create(params);
    expect(third.usage.cache_read_input_tokens).toBe(0);

    api.reset();
    const afterReset = await client.messages.create(params);
    expect(afterReset.usage.cache_read_input_tokens).toBe(0);
  });
});
