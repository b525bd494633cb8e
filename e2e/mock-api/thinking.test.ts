/**
 * The mock's thinking and context-window checks, through the real SDK: what it signed comes back
 * accepted, a changed or invented signature is refused, a tool loop must keep its thinking first, the
 * budget must fit under max_tokens, and a request over the window is "prompt is too long".
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from './server.ts';

let api: MockApi;
let client: Anthropic;

beforeAll(async () => {
  api = await startMockApi({ contextWindow: 5_000 });
  client = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const tools: Anthropic.Tool[] = [{ name: 'Read', input_schema: { type: 'object', properties: {} } }];
const thinking = { type: 'enabled', budget_tokens: 1024 } as const;

async function status(
  params: Omit<Anthropic.MessageCreateParamsNonStreaming, 'model'>,
): Promise<{ status: number; message: string }> {
  try {
    await client.messages.create({ model: 'claude-sonnet-4-6', ...params });
    return { status: 200, message: '' };
  } catch (err) {
    const e = err as InstanceType<typeof Anthropic.APIError>;
    return {
      status: e.status ?? 0,
      message: (e.error as { error?: { message?: string } })?.error?.message ?? '',
    };
  }
}

/** One reply with thinking and a tool call, then the messages that continue the loop. */
async function loop(): Promise<Anthropic.MessageParam[]> {
  api.script([
    {
      content: [
        { type: 'thinking', thinking: 'Read the file.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
      ],
    },
    { content: [{ type: 'text', text: 'done' }] },
  ]);
  const first = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 2048,
    thinking,
    tools,
    messages: [{ role: 'user', content: 'go' }],
  });
  return [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'text' }] },
  ];
}

describe('thinking', () => {
  it('takes back what it signed, unchanged', async () => {
    const messages = await loop();
    expect(await status({ max_tokens: 2048, thinking, tools, messages })).toEqual({
      status: 200,
      message: '',
    });
  });

  it('refuses a changed thinking text or an invented signature', async () => {
    const messages = await loop();
    const assistant = messages[1].content as Anthropic.ThinkingBlockParam[];
    const changed = [{ ...assistant[0], thinking: 'Something else.' }, ...assistant.slice(1)];
    const r = await status({
      max_tokens: 2048,
      thinking,
      tools,
      messages: [messages[0], { role: 'assistant', content: changed }, messages[2]],
    });
    expect(r).toEqual({
      status: 400,
      message: 'messages.1.content.0: Invalid `signature` in `thinking` block',
    });
    const invented = [{ ...assistant[0], signature: 'forged' }, ...assistant.slice(1)];
    expect(
      (
        await status({
          max_tokens: 2048,
          thinking,
          tools,
          messages: [messages[0], { role: 'assistant', content: invented }, messages[2]],
        })
      ).status,
    ).toBe(400);
  });

  it('refuses a tool loop whose assistant message lost its thinking block', async () => {
    const messages = await loop();
    const withoutThinking = (messages[1].content as Anthropic.ContentBlockParam[]).filter(
      (b) => b.type !== 'thinking',
    );
    const r = await status({
      max_tokens: 2048,
      thinking,
      tools,
      messages: [messages[0], { role: 'assistant', content: withoutThinking }, messages[2]],
    });
    expect(r.status).toBe(400);
    expect(r.message).toContain('a final `assistant` message must start with a thinking block');
    // Without thinking enabled the same messages are fine.
    expect(
      (
        await status({
          max_tokens: 2048,
          tools,
          messages: [messages[0], { role: 'assistant', content: withoutThinking }, messages[2]],
        })
      ).status,
    ).toBe(200);
  });

  it('checks the budget', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];
    expect(
      (await status({ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 500 }, messages }))
        .message,
    ).toContain('greater than or equal to 1024');
    expect((await status({ max_tokens: 1024, thinking, messages })).message).toContain(
      '`max_tokens` must be greater than `thinking.budget_tokens`',
    );
  });
});

describe('the context window', () => {
  it('answers "prompt is too long" over it and lists it as max_input_tokens', async () => {
    const r = await status({ max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(24_000) }] });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^prompt is too long: \d+ tokens > 5000 maximum$/);
    expect((await status({ max_tokens: 10, messages: [{ role: 'user', content: 'small' }] })).status).toBe(
      200,
    );
    const model = await client.models.retrieve('claude-sonnet-4-6');
    expect(model.max_input_tokens).toBe(5_000);
  });
});
