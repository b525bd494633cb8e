import type { APIError } from '@anthropic-ai/sdk';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MockApi, startMockApi } from './server.ts';

let api: MockApi;

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const params = {
  model: 'claude-sonnet-4-6',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'hello' }],
};
const hello = { content: [{ type: 'text' as const, text: 'Hello after the fault.' }] };
const client = (maxRetries: number): Anthropic =>
  new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries });

describe('faults and SDK retries', () => {
  it('recovers from a single 429 with retry-after, getting the next turn', async () => {
    api.script([{ fault: { kind: 'rate_limit' } }, hello]);
    const message = await client(2).messages.stream(params).finalMessage();
    expect(message.content[0]).toMatchObject({ text: 'Hello after the fault.' });
    expect(api.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(api.requests[0].fault).toBe('rate_limit');
    expect(api.requests[0].error).toMatch(/rate limit/);
    expect(api.requests[1].headers['x-stainless-retry-count']).toBe('1');
    expect(api.pending()).toBe(0);
  });

  it('sends retry-after headers and the rate_limit_error body when retries are off', async () => {
    api.script([{ fault: { kind: 'rate_limit', retryAfterSec: 3 } }]);
    const err = await client(0)
      .messages.create(params)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    const e = err as APIError;
    expect(e.status).toBe(429);
    expect(e.headers?.get('retry-after')).toBe('3');
    expect(e.headers?.get('retry-after-ms')).toBe('3000');
    expect(e.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(api.requests).toHaveLength(1);
  });

  it('recovers from 529 overloaded', async () => {
    api.script([{ fault: { kind: 'overloaded', retryAfterMs: 10 } }, hello]);
    const message = await client(2).messages.create(params);
    expect(message.content[0]).toMatchObject({ text: 'Hello after the fault.' });
    expect(api.requests.map((r) => r.status)).toEqual([529, 200]);
  });

  it('recovers from 500 (with the SDK default backoff)', async () => {
    api.script([{ fault: { kind: 'server_error' } }, hello]);
    const message = await client(2).messages.stream(params).finalMessage();
    expect(message.content[0]).toMatchObject({ text: 'Hello after the fault.' });
    expect(api.requests.map((r) => r.status)).toEqual([500, 200]);
  });

  it('gives up after maxRetries with the last error', async () => {
    api.script([
      { fault: { kind: 'overloaded', retryAfterMs: 1 } },
      { fault: { kind: 'overloaded', retryAfterMs: 1 } },
      { fault: { kind: 'overloaded', retryAfterMs: 1 } },
      hello,
    ]);
    const err = await client(2)
      .messages.create(params)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect((err as APIError).status).toBe(529);
    expect(api.requests).toHaveLength(3);
    expect(api.pending()).toBe(1);
  });

  it('answers an http fault with the given status and error', async () => {
    api.script([
      {
        fault: {
          kind: 'http',
          status: 413,
          type: 'request_too_large',
          message: 'Request exceeds the maximum size',
        },
      },
    ]);
    const err = await client(2)
      .messages.create(params)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as APIError).status).toBe(413);
    expect((err as APIError).error).toMatchObject({
      error: { type: 'request_too_large', message: 'Request exceeds the maximum size' },
    });
  });

  it('cut_stream: the stream starts a tool_use, then the socket dies and the stream rejects', async () => {
    api.script([{ fault: { kind: 'cut_stream' } }, hello]);
    const stream = client(2).messages.stream(params);
    const events: string[] = [];
    const partials: string[] = [];
    stream.on('streamEvent', (e) => {
      events.push(e.type);
      if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta')
        partials.push(e.delta.partial_json);
    });
    await expect(stream.finalMessage()).rejects.toThrow(/terminated/);
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_start');
    expect(partials.length).toBeGreaterThanOrEqual(1);
    expect(events).not.toContain('message_stop');
    // Mid-stream failures are not retried by the SDK: the next turn is still queued.
    expect(api.pending()).toBe(1);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ status: 200, fault: 'cut_stream' });
    expect(api.requests[0].aborted).toBeUndefined();
  });

  it('cut_stream with afterEvents cuts at that event count', async () => {
    api.script([
      {
        content: [{ type: 'text', text: 'some words that are streamed in several chunks for sure' }],
        fault: { kind: 'cut_stream', afterEvents: 3 },
      },
    ]);
    const stream = client(0).messages.stream(params);
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    await expect(stream.finalMessage()).rejects.toThrow();
    // ping is not surfaced by the SDK: message_start, content_block_start, (ping).
    expect(events).toEqual(['message_start', 'content_block_start']);
  });

  it('stream_error: an SSE error event after the 200 surfaces as an APIError', async () => {
    api.script([
      {
        content: [{ type: 'text', text: 'partial answer here' }],
        fault: { kind: 'stream_error', afterEvents: 4 },
      },
    ]);
    const stream = client(2).messages.stream(params);
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as APIError).error).toMatchObject({ error: { type: 'overloaded_error' } });
    expect(texts.length).toBeGreaterThan(0);
    expect(api.requests).toHaveLength(1);
  });

  it('a function turn that throws becomes a 500 api_error, and the next turn serves the retry', async () => {
    api.script([
      () => {
        throw new Error('boom');
      },
      hello,
    ]);
    const message = await client(1).messages.create(params);
    expect(message.content[0]).toMatchObject({ text: 'Hello after the fault.' });
    expect(api.requests[0].status).toBe(500);
    expect(api.requests[0].error).toContain('boom');
  });

  it('malformed: a data line that is not JSON after some events makes the stream reject; not retried by the SDK', async () => {
    api.script([
      {
        content: [{ type: 'text', text: 'a partial answer in words' }],
        fault: { kind: 'malformed', afterEvents: 4 },
      },
      hello,
    ]);
    const stream = client(2).messages.stream(params);
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    await expect(stream.finalMessage()).rejects.toThrow(/JSON/);
    expect(texts.length).toBeGreaterThan(0);
    expect(api.requests).toHaveLength(1);
    expect(api.pending()).toBe(1);
  });

  it('hang: with afterEvents the stream starts and goes quiet; without, not a byte comes', async () => {
    api.script([
      {
        content: [{ type: 'text', text: 'a partial answer in words' }],
        fault: { kind: 'hang', afterEvents: 4 },
      },
      { fault: { kind: 'hang' } },
    ]);
    const quiet = new AbortController();
    const stream = client(0).messages.stream(params, { signal: quiet.signal });
    const texts: string[] = [];
    stream.on('text', (t) => {
      texts.push(t);
      setTimeout(() => quiet.abort(), 100);
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(texts).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ status: 200, fault: 'hang' });
    const silent = await client(0)
      .messages.create(params, { timeout: 200 })
      .catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(api.requests[1].status).toBe(0);
    await vi.waitFor(() => expect(api.requests.every((r) => r.aborted)).toBe(true));
  });
});
