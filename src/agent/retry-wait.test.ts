/**
 * The SDK's retries announced with their wait: a real agent session (real SDK) against the mock API,
 * whose 429/529 answers carry retry-after headers; plus the SDK's backoff rules on their own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { MODEL_MAX_RETRIES } from '../core/constants.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { plannedRetryDelay } from './retry-wait.ts';
import { createAgentSession } from './session.ts';
import type { SessionEvent } from './types.ts';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

describe('retry waits', () => {
  it('a 429 then a 529 are announced with the waits the SDK takes, then the reply comes', async () => {
    const session = await createAgentSession({
      settings: { apiKey: 'test', baseURL: api.url, model: 'claude-test' },
      sandbox: await createJustBashSandbox({ files: {} }),
      mcp: null,
    });
    const events: Array<SessionEvent & { at: number }> = [];
    session.subscribe((e) => events.push({ ...e, at: Date.now() }));
    api.script([
      { fault: { kind: 'rate_limit', retryAfterSec: 1 } },
      { fault: { kind: 'overloaded', retryAfterMs: 50 } },
      { content: [{ type: 'text', text: 'finally' }] },
    ]);
    await session.send('hi');
    const waits = events.filter((e) => e.type === 'retry-wait');
    expect(waits).toMatchObject([
      {
        attempt: 1,
        maxRetries: MODEL_MAX_RETRIES,
        delayMs: 1000,
        error: { kind: 'rate_limit', status: 429 },
      },
      { attempt: 2, maxRetries: MODEL_MAX_RETRIES, delayMs: 50, error: { kind: 'overloaded', status: 529 } },
    ]);
    // The SDK really waited what was announced before sending again.
    const first = events.indexOf(waits[0]);
    const resent = events.slice(first).find((e) => e.type === 'request-sent');
    expect((resent?.at ?? 0) - waits[0].at).toBeGreaterThanOrEqual(950);
    expect(events.some((e) => e.type === 'error')).toBe(false);
    await session.dispose();
  });

  it('a burst of overload is ridden out (4 × 529, then the reply; the default of 2 retries gave up); past the retries, a clear error', async () => {
    const session = await createAgentSession({
      settings: { apiKey: 'test', baseURL: api.url, model: 'claude-test' },
      sandbox: await createJustBashSandbox({ files: {} }),
      mcp: null,
    });
    const events: SessionEvent[] = [];
    session.subscribe((e) => events.push(e));
    const overloaded = { fault: { kind: 'overloaded' as const, retryAfterMs: 5 } };
    api.script([...Array(4).fill(overloaded), { content: [{ type: 'text', text: 'through' }] }]);
    await session.send('hi');
    expect(events.filter((e) => e.type === 'retry-wait')).toHaveLength(4);
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(api.requests.map((r) => r.status)).toEqual([529, 529, 529, 529, 200]);

    api.reset();
    events.length = 0;
    api.script(Array(MODEL_MAX_RETRIES + 2).fill(overloaded));
    await session.send('again');
    expect(api.requests).toHaveLength(MODEL_MAX_RETRIES + 1);
    const error = events.find((e) => e.type === 'error');
    expect(error?.type === 'error' && error.error).toMatchObject({ kind: 'overloaded', status: 529 });
    await session.dispose();
  });

  it('follows the SDK: no retry for a 400 or when retries are used up; backoff without headers', () => {
    expect(plannedRetryDelay({ status: 400, retryCount: 0 })).toBeUndefined();
    expect(plannedRetryDelay({ status: 500, retryCount: MODEL_MAX_RETRIES })).toBeUndefined();
    expect(plannedRetryDelay({ status: 500, retryCount: 2 })).toBe(2000);
    expect(plannedRetryDelay({ status: 500, retryCount: 0 })).toBe(500);
    expect(plannedRetryDelay({ status: 500, retryCount: 1 })).toBe(1000);
    expect(plannedRetryDelay({ retryCount: 0 })).toBe(500);
    const headers = new Headers({ 'x-should-retry': 'false' });
    expect(plannedRetryDelay({ status: 529, headers, retryCount: 0 })).toBeUndefined();
    expect(
      plannedRetryDelay({ status: 429, headers: new Headers({ 'retry-after': '3' }), retryCount: 0 }),
    ).toBe(3000);
  });
});
