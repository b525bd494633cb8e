import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXHAUSTED_TEXT, type MockApi, startMockApi } from './server.ts';

let api: MockApi;
let client: Anthropic;

beforeAll(async () => {
  api = await startMockApi();
  client = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const base = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Read the readme' }],
};
const readTool = {
  name: 'Read',
  description: 'Read a file',
  input_schema: { type: 'object' as const, properties: { file_path: { type: 'string' } } },
};

describe('streaming', () => {
  it('streams text and a tool_use whose input is rebuilt from input_json_delta chunks', async () => {
    const input = { file_path: '/README.md', limit: 2000, nested: { flags: ['a', 'b'], deep: { x: 1 } } };
    api.script([
      {
        content: [
          { type: 'text', text: 'I will read the readme file to see what this project is about.' },
          { type: 'tool_use', name: 'Read', input },
        ],
      },
    ]);
    const stream = client.messages.stream({ ...base, tools: [readTool] });
    const texts: string[] = [];
    const jsonDeltas: string[] = [];
    stream.on('text', (t) => texts.push(t));
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const message = await stream.finalMessage();

    expect(message.id).toMatch(/^msg_[A-Za-z0-9]{24}$/);
    expect(message.model).toBe('claude-sonnet-4-6');
    expect(message.role).toBe('assistant');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.stop_sequence).toBeNull();
    expect(message.content).toHaveLength(2);
    const [text, toolUse] = message.content;
    expect(text).toMatchObject({
      type: 'text',
      text: 'I will read the readme file to see what this project is about.',
    });
    expect(texts.length).toBeGreaterThan(2);
    expect(texts.join('')).toBe('I will read the readme file to see what this project is about.');
    expect(toolUse.type).toBe('tool_use');
    if (toolUse.type !== 'tool_use') throw new Error('expected tool_use');
    expect(toolUse.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(toolUse.name).toBe('Read');
    expect(toolUse.input).toEqual(input);
    expect(jsonDeltas.length).toBeGreaterThan(2);
    expect(jsonDeltas.join('')).toBe(JSON.stringify(input));
    expect(api.pending()).toBe(0);
  });

  it('sends the documented event sequence with usage in message_start and message_delta', async () => {
    api.script([
      { content: [{ type: 'text', text: 'Hello there, how can I help you today?' }] },
      {
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_given', name: 'Read', input: { file_path: 'a' } },
        ],
      },
    ]);
    const res = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ ...base, stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('request-id')).toMatch(/^req_[A-Za-z0-9]{24}$/);
    const raw = await res.text();
    const frames = raw.split('\n\n').filter((f) => f.length > 0);
    const events = frames.map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      expect(eventLine.startsWith('event: ')).toBe(true);
      expect(dataLine.startsWith('data: ')).toBe(true);
      const data = JSON.parse(dataLine.slice(6));
      expect(data.type).toBe(eventLine.slice(7));
      return data;
    });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('message_start');
    expect(types[1]).toBe('content_block_start');
    expect(types[2]).toBe('ping');
    expect(types.filter((t) => t === 'ping')).toHaveLength(1);
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.slice(3, -3).every((t) => t === 'content_block_delta')).toBe(true);
    expect(types.at(-3)).toBe('content_block_stop');

    const start = events[0].message;
    expect(start).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      stop_reason: null,
      stop_sequence: null,
    });
    expect(start.usage.output_tokens).toBe(1);
    expect(start.usage.input_tokens).toBeGreaterThan(0);
    expect(start.usage.cache_creation_input_tokens).toBe(0);
    expect(start.usage.cache_read_input_tokens).toBe(0);
    const delta = events.at(-2);
    expect(delta.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
    expect(delta.usage.output_tokens).toBe(Math.ceil('Hello there, how can I help you today?'.length / 4));

    // The tool_use block starts with input {} and streams partial_json, starting with an empty piece.
    const message = await client.messages.create({ ...base, stream: true, tools: [readTool] });
    const seen: Anthropic.RawMessageStreamEvent[] = [];
    for await (const event of message) seen.push(event);
    const toolStart = seen.find((e) => e.type === 'content_block_start' && e.index === 1);
    expect(toolStart).toMatchObject({
      content_block: { type: 'tool_use', id: 'toolu_given', name: 'Read', input: {} },
    });
    const partials = seen.flatMap((e) =>
      e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? [e.delta.partial_json] : [],
    );
    expect(partials[0]).toBe('');
    expect(partials.join('')).toBe('{"file_path":"a"}');
  });

  it('input_tokens grows with the request size and is deterministic', async () => {
    api.script([{ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] }]);
    const small = await client.messages.create(base);
    const big = await client.messages.create({ ...base, system: 'x'.repeat(4000) });
    expect(big.usage.input_tokens - small.usage.input_tokens).toBeGreaterThanOrEqual(1000);
    api.push({ content: [{ type: 'text', text: 'c' }] });
    const again = await client.messages.create(base);
    expect(again.usage.input_tokens).toBe(small.usage.input_tokens);
  });

  it('answers non-streaming requests with the full message JSON', async () => {
    api.script([{ content: [{ type: 'text', text: 'Done.' }], stop_reason: 'max_tokens' }]);
    const message = await client.messages.create(base);
    expect(message.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(2);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ status: 200, stream: false });
    expect(api.requests[0].response?.id).toBe(message.id);
  });

  it('streams thinking blocks with a signature', async () => {
    api.script([
      {
        content: [
          { type: 'thinking', thinking: 'The user wants a greeting, keep it short.' },
          { type: 'text', text: 'Hi!' },
        ],
      },
    ]);
    const message = await client.messages.stream(base).finalMessage();
    expect(message.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user wants a greeting, keep it short.',
      signature: 'mock-signature',
    });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Hi!' });
  });

  it('gives a function turn the recorded request and uses its answer', async () => {
    let seenTools: string[] = [];
    api.script([
      async (req) => {
        seenTools = (req.body.tools ?? []).map((t) => ('name' in t ? t.name : ''));
        const last = req.body.messages.at(-1);
        return { content: [{ type: 'text', text: `echo: ${String(last?.content)}` }] };
      },
    ]);
    const message = await client.messages.stream({ ...base, tools: [readTool] }).finalMessage();
    expect(seenTools).toEqual(['Read']);
    expect(message.content[0]).toMatchObject({ text: 'echo: Read the readme' });
    const recorded = api.requests[0];
    expect(recorded.headers.authorization).toBe('Bearer test');
    expect(recorded.headers['anthropic-version']).toBeTruthy();
    expect(recorded.stream).toBe(true);
    expect(recorded.body.model).toBe('claude-sonnet-4-6');
  });

  it('says plainly when the script is exhausted, and records it', async () => {
    const message = await client.messages.stream(base).finalMessage();
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]).toMatchObject({ type: 'text', text: EXHAUSTED_TEXT });
    expect(api.requests[0].exhausted).toBe(true);
  });

  it('push appends, script replaces, pending counts', async () => {
    api.script([{ content: [{ type: 'text', text: 'one' }] }]);
    api.push({ content: [{ type: 'text', text: 'two' }] }, { content: [{ type: 'text', text: 'three' }] });
    expect(api.pending()).toBe(3);
    const first = await client.messages.create(base);
    expect(first.content[0]).toMatchObject({ text: 'one' });
    expect(api.pending()).toBe(2);
    api.script([{ content: [{ type: 'text', text: 'replaced' }] }]);
    expect(api.pending()).toBe(1);
    const second = await client.messages.create(base);
    expect(second.content[0]).toMatchObject({ text: 'replaced' });
  });

  it('paces events with chunkDelayMs and records a client abort', async () => {
    api.script([
      {
        content: [{ type: 'text', text: 'one two three four five six seven eight nine ten' }],
        chunkDelayMs: 40,
      },
    ]);
    const started = Date.now();
    const stream = client.messages.stream(base);
    const first = await new Promise<string>((resolve) => stream.once('text', resolve));
    expect(first.length).toBeGreaterThan(0);
    stream.abort();
    await expect(stream.finalMessage()).rejects.toThrow(Anthropic.APIUserAbortError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    await expect.poll(() => api.requests[0].aborted).toBe(true);
  });
});
