/**
 * Error classification on what the real SDK throws against the mock API: HTTP errors, an SSE `error`
 * event mid-stream (no status), and a connection cut after the response began.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../../e2e/mock-api/server.ts';
import type { Fault } from '../../../e2e/mock-api/types.ts';
import { classifyStreamError, createAnthropicClient, isRetryableStreamError } from './anthropic.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

/** What the SDK throws for one streamed request answered with `fault`, and whether the stream began. */
async function failure(fault: Fault) {
  api.script([{ fault, content: [{ type: 'text', text: 'a reply that will not finish' }] }]);
  const client = createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
  let started = false;
  try {
    const stream = client.messages.stream({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const ev of stream) if (ev.type === 'message_start') started = true;
    await stream.finalMessage();
  } catch (err) {
    return classifyStreamError(err, started);
  }
  throw new Error('the request did not fail');
}

describe('classifyStreamError', () => {
  it('an SSE overloaded_error mid-stream: overloaded, no "(undefined)", retryable', async () => {
    const error = await failure({ kind: 'stream_error' });
    expect(error).toEqual({
      kind: 'overloaded',
      apiType: 'overloaded_error',
      midStream: true,
      message: 'The API is overloaded: Overloaded',
    });
    expect(isRetryableStreamError(error)).toBe(true);
  });

  it('an SSE api_error is a server error; a connection cut after the start is a network error', async () => {
    const server = await failure({ kind: 'stream_error', type: 'api_error', message: 'Internal' });
    expect(server).toMatchObject({ kind: 'server', midStream: true, message: 'The API failed: Internal' });
    const cut = await failure({ kind: 'cut_stream', afterEvents: 3 });
    expect(cut).toMatchObject({ kind: 'network', midStream: true });
    expect(cut.message).toMatch(/^The connection broke while the reply streamed/);
    expect(isRetryableStreamError(cut)).toBe(true);
  });

  it('an SSE rate_limit_error mid-stream is a rate limit, sent again like the SDK sends a 429 again', async () => {
    const limited = await failure({ kind: 'stream_error', type: 'rate_limit_error', message: 'Slow down' });
    expect(limited).toMatchObject({
      kind: 'rate_limit',
      midStream: true,
      message: 'Rate limited: Slow down',
    });
    expect(isRetryableStreamError(limited)).toBe(true);
    const refused = await failure({ kind: 'stream_error', type: 'invalid_request_error', message: 'bad' });
    expect(isRetryableStreamError(refused)).toBe(false);
  });

  it('HTTP errors keep their status and are not mid-stream (the SDK retries those itself)', async () => {
    const refused = await failure({
      kind: 'http',
      status: 400,
      type: 'invalid_request_error',
      message: 'bad',
    });
    expect(refused).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      message: 'The API refused the request (400): bad',
    });
    expect(refused.midStream).toBeUndefined();
    expect(isRetryableStreamError(refused)).toBe(false);
    const overloaded = await failure({ kind: 'overloaded' });
    expect(overloaded).toMatchObject({ kind: 'overloaded', status: 529 });
    expect(isRetryableStreamError(overloaded)).toBe(false);
  });
});
