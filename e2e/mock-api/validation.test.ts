import type { APIError } from '@anthropic-ai/sdk';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from './server.ts';

let api: MockApi;
let client: Anthropic;

beforeAll(async () => {
  api = await startMockApi();
  client = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
});
afterAll(() => api.close());
beforeEach(() => api.reset());

type Params = Anthropic.MessageCreateParamsNonStreaming;
const MODEL = 'claude-sonnet-4-6';
const tool = (name: string, extra: Record<string, unknown> = {}): Anthropic.Tool => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object', properties: {} },
  ...extra,
});
const user = (content: Anthropic.MessageParam['content']): Anthropic.MessageParam => ({
  role: 'user',
  content,
});
const assistant = (content: Anthropic.MessageParam['content']): Anthropic.MessageParam => ({
  role: 'assistant',
  content,
});
const toolUse = (id: string): Anthropic.ToolUseBlockParam => ({
  type: 'tool_use',
  id,
  name: 'Read',
  input: {},
});
const toolResult = (id: string): Anthropic.ToolResultBlockParam => ({
  type: 'tool_result',
  tool_use_id: id,
  content: 'ok',
});
const cached = { cache_control: { type: 'ephemeral' as const } };

/** Sends `params` (streaming when asked) and returns the BadRequestError's message. */
async function rejection(params: Params, stream = false): Promise<string> {
  try {
    if (stream) await client.messages.stream(params).finalMessage();
    else await client.messages.create(params);
  } catch (err) {
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const e = err as APIError;
    expect(e.status).toBe(400);
    expect(e.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(e.requestID).toMatch(/^req_/);
    expect((e.error as { request_id: string }).request_id).toBe(e.requestID);
    return (e.error as { error: { message: string } }).error.message;
  }
  throw new Error('expected a 400');
}

const valid: Params = { model: MODEL, max_tokens: 100, messages: [user('hi')] };

describe('validation (400 invalid_request_error)', () => {
  it('rejects a tool_use not followed by its tool_result, naming the ids', async () => {
    const message = await rejection({
      ...valid,
      tools: [tool('Read')],
      messages: [
        user('read two files'),
        assistant([toolUse('toolu_a'), toolUse('toolu_b')]),
        user([toolResult('toolu_a')]),
      ],
    });
    expect(message).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b. ' +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    // A trailing assistant tool_use with no next message is rejected the same way, also when streaming.
    const trailing = await rejection(
      { ...valid, tools: [tool('Read')], messages: [user('go'), assistant([toolUse('toolu_c')])] },
      true,
    );
    expect(trailing).toContain('messages.1: `tool_use` ids were found without `tool_result` blocks');
  });

  it('rejects text placed before the tool_results that answer a tool_use', async () => {
    const message = await rejection({
      ...valid,
      tools: [tool('Read')],
      messages: [
        user('read'),
        assistant([toolUse('toolu_a')]),
        user([{ type: 'text', text: 'first some words' }, toolResult('toolu_a')]),
      ],
    });
    expect(message).toBe(
      'messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. ' +
        'Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
    );
  });

  it('rejects a tool_result without its tool_use in the previous message', async () => {
    const message = await rejection({
      ...valid,
      tools: [tool('Read')],
      messages: [
        user('read'),
        assistant([toolUse('toolu_a')]),
        user([toolResult('toolu_a'), toolResult('toolu_zzz')]),
      ],
    });
    expect(message).toBe(
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_zzz. ' +
        'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });

  it('rejects roles that do not alternate, and a first message that is not user', async () => {
    expect(await rejection({ ...valid, messages: [user('a'), user('b')] })).toBe(
      'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
    );
    expect(await rejection({ ...valid, messages: [user('a'), assistant('b'), assistant('c')] })).toBe(
      'messages: roles must alternate between "user" and "assistant", but found multiple "assistant" roles in a row',
    );
    expect(await rejection({ ...valid, messages: [assistant('hello'), user('hi')] })).toBe(
      'messages: first message must use the "user" role',
    );
  });

  it('rejects more than 4 cache_control blocks, counted across tools, system and messages', async () => {
    const message = await rejection({
      ...valid,
      tools: [tool('A', cached), tool('B', cached)],
      system: [{ type: 'text', text: 'sys', ...cached }],
      messages: [
        user([{ type: 'text', text: 'one', ...cached }]),
        assistant('x'),
        user([{ type: 'text', text: 'two', ...cached }]),
      ],
    });
    expect(message).toBe('A maximum of 4 blocks with cache_control may be provided. Found 5.');
    // Exactly 4 is fine.
    api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
    const ok = await client.messages.create({
      ...valid,
      tools: [tool('A', cached), tool('B', cached)],
      system: [{ type: 'text', text: 'sys', ...cached }],
      messages: [user([{ type: 'text', text: 'one', ...cached }])],
    });
    expect(ok.content[0]).toMatchObject({ text: 'ok' });
  });

  it('rejects bad and duplicate tool names', async () => {
    expect(await rejection({ ...valid, tools: [tool('Read'), tool('mcp server.tool')] })).toBe(
      "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
    );
    expect(await rejection({ ...valid, tools: [tool('x'.repeat(65))] })).toBe(
      "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
    );
    expect(await rejection({ ...valid, tools: [tool('Read'), tool('Bash'), tool('Read')] })).toBe(
      'tools: Tool names must be unique.',
    );
  });

  it('rejects deferred-tool misuse and unresolved tool references', async () => {
    expect(
      await rejection({ ...valid, tools: [tool('A'), tool('B', { defer_loading: true, ...cached })] }),
    ).toBe(
      "Tool 'B' cannot have both defer_loading=true and cache_control set. Tools with defer_loading cannot use prompt caching.",
    );
    expect(await rejection({ ...valid, tools: [tool('A', { defer_loading: true })] })).toBe(
      'At least one tool must have defer_loading=false. All tools cannot be deferred.',
    );
    const reference = {
      type: 'tool_result' as const,
      tool_use_id: 'toolu_s',
      content: [{ type: 'tool_reference' as const, tool_name: 'mcp__gh__missing' }],
    };
    expect(
      await rejection({
        ...valid,
        tools: [tool('ToolSearch'), tool('mcp__gh__present', { defer_loading: true })],
        messages: [
          user('find'),
          assistant([{ type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: {} }]),
          user([reference]),
        ],
      }),
    ).toBe("messages.2.content.0.content.0: Tool reference 'mcp__gh__missing' not found in available tools.");
  });

  it('rejects tool blocks when no tools are defined', async () => {
    expect(
      await rejection({
        ...valid,
        messages: [user('x'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1')])],
      }),
    ).toBe('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  });

  it('checks basic shape: model, max_tokens, messages, empty text', async () => {
    const { model: _m, ...noModel } = valid;
    expect(await rejection(noModel as Params)).toBe('model: Field required');
    const { max_tokens: _t, ...noMax } = valid;
    expect(await rejection(noMax as Params)).toBe('max_tokens: Field required');
    expect(await rejection({ ...valid, max_tokens: 0 })).toBe(
      'max_tokens: Input should be greater than or equal to 1',
    );
    expect(await rejection({ ...valid, messages: [] })).toBe('messages: at least one message is required');
    expect(await rejection({ ...valid, messages: [user([{ type: 'text', text: '' }])] })).toBe(
      'messages.0.content.0.text: text content blocks must be non-empty',
    );
    expect(await rejection({ ...valid, messages: [user('')] })).toBe(
      'messages.0: all messages must have non-empty content except for the optional final assistant message',
    );
    expect(await rejection({ ...valid, system: [{ type: 'text', text: '' }] })).toBe(
      'system.0.text: text content blocks must be non-empty',
    );
    expect(await rejection({ ...valid, tools: [{ name: 'NoSchema' } as Anthropic.Tool] })).toBe(
      'tools.0.custom.input_schema: Field required',
    );
  });

  it('records rejected requests with their status and does not consume a scripted turn', async () => {
    api.script([{ content: [{ type: 'text', text: 'kept' }] }]);
    await rejection({ ...valid, messages: [user('a'), user('b')] });
    expect(api.pending()).toBe(1);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0].status).toBe(400);
    expect(api.requests[0].error).toContain('roles must alternate');
    expect(api.requests[0].body.messages).toHaveLength(2);
    const ok = await client.messages.create(valid);
    expect(ok.content[0]).toMatchObject({ text: 'kept' });
    expect(api.requests.map((r) => r.status)).toEqual([400, 200]);
  });

  it('accepts a final assistant prefill and a well-paired tool round trip', async () => {
    api.script([{ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] }]);
    await client.messages.create({ ...valid, messages: [user('hi'), assistant('Sure,')] });
    await client.messages.create({
      ...valid,
      tools: [tool('Read')],
      messages: [
        user('read'),
        assistant([{ type: 'text', text: 'ok' }, toolUse('toolu_1')]),
        user([toolResult('toolu_1')]),
      ],
    });
    expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  });
});

describe('authentication (401)', () => {
  it('rejects a request with no key', async () => {
    const res = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
    });
    expect(body.request_id).toBe(res.headers.get('request-id'));
    expect(api.requests[0].status).toBe(401);
  });

  it('rejects a bad key with AuthenticationError, through x-api-key or a bearer token', async () => {
    const bad = new Anthropic({ apiKey: 'bad-key', baseURL: api.url, maxRetries: 0 });
    const err = await bad.messages.create(valid).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((err as APIError).error).toMatchObject({ error: { message: 'invalid x-api-key' } });
    const viaHeader = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'bad', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(viaHeader.status).toBe(401);
    api.script([{ content: [{ type: 'text', text: 'welcome' }] }]);
    const good = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': 'sk-good',
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify(valid),
    });
    expect(good.status).toBe(200);
    expect((await good.json()).content[0].text).toBe('welcome');
  });

  it('requires the anthropic-version header and the browser-access header on CORS requests', async () => {
    const noVersion = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(noVersion.status).toBe(400);
    expect((await noVersion.json()).error.message).toBe('anthropic-version: header is required');
    const cors = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:4173',
        'x-api-key': 'k',
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify(valid),
    });
    expect(cors.status).toBe(401);
    expect((await cors.json()).error.message).toBe(
      "CORS requests must set 'anthropic-dangerous-direct-browser-access' header",
    );
  });
});
