import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../src/core/constants.ts';
import { MOCK_MODELS, type MockApi, startMockApi } from './server.ts';

let api: MockApi;
let client: Anthropic;

beforeAll(async () => {
  api = await startMockApi();
  client = new Anthropic({ apiKey: 'test', baseURL: api.url, maxRetries: 0 });
});
afterAll(() => api.close());

const ORIGIN = 'http://localhost:4173';

describe('HTTP surface', () => {
  it('answers a CORS preflight with 204, allowing the SDK headers and exposing request-id', async () => {
    const requested =
      'anthropic-dangerous-direct-browser-access,anthropic-version,authorization,content-type,x-api-key,x-stainless-retry-count';
    const res = await fetch(`${api.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': requested,
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe(requested);
    expect(res.headers.get('access-control-expose-headers')).toContain('request-id');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(api.requests).toHaveLength(0);
  });

  it('sets CORS and CORP headers on streamed answers and errors from a browser origin', async () => {
    const headers = {
      origin: ORIGIN,
      'x-api-key': 'k',
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
      'content-type': 'application/json',
    };
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    };
    api.script([{ content: [{ type: 'text', text: 'hi' }] }]);
    const ok = await fetch(`${api.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await ok.text()).toContain('event: message_stop');
    const bad = await fetch(`${api.url}/v1/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, messages: [] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(bad.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const missing = await fetch(`${api.url}/v1/nothing`, { headers });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.type).toBe('not_found_error');
    expect(missing.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('lists models through client.models.list() and retrieves one', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(MOCK_MODELS.map((m) => m.id));
    const page = await client.models.list({ limit: 2 });
    expect(page.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(page.has_more).toBe(true);
    expect(page.first_id).toBe(ids[0]);
    expect(page.last_id).toBe(ids[1]);
    const all: string[] = [];
    for await (const model of client.models.list({ limit: 3 })) all.push(model.id);
    expect(all).toEqual(ids);
    const one = await client.models.retrieve('claude-sonnet-4-6');
    expect(one).toMatchObject({ type: 'model', id: 'claude-sonnet-4-6', display_name: 'Claude Sonnet 4.6' });
    await expect(client.models.retrieve('claude-nope')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('answers GET /v1/models/{id} for the app default model, as the API does, from a browser origin', async () => {
    // A page pointed at the mock asks for its model's window at load: a 404 here is a red console error.
    const res = await fetch(`${api.url}/v1/models/${DEFAULT_MODEL}`, {
      headers: { origin: ORIGIN, 'x-api-key': 'k', 'anthropic-dangerous-direct-browser-access': 'true' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const body = await res.json();
    expect(body).toMatchObject({ type: 'model', id: DEFAULT_MODEL, display_name: expect.any(String) });
    expect(Number.isNaN(Date.parse(body.created_at))).toBe(false);
    expect(body.max_input_tokens).toBeGreaterThan(0);
    const viaSdk = await client.models.retrieve(DEFAULT_MODEL);
    expect(viaSdk.id).toBe(DEFAULT_MODEL);
  });

  it('counts tokens deterministically from the request size, and validates the request', async () => {
    const small = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const big = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      system: 'y'.repeat(800),
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(small.input_tokens).toBeGreaterThan(0);
    expect(big.input_tokens - small.input_tokens).toBeGreaterThanOrEqual(200);
    api.script([{ content: [{ type: 'text', text: 'x' }] }]);
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 5,
      system: 'y'.repeat(800),
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.usage.input_tokens).toBe(big.input_tokens);
    await expect(
      client.messages.countTokens({ model: 'claude-sonnet-4-6', messages: [] }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });
});
