/**
 * The idle watchdog on the real SDK and loop against the mock API, whose `hang` fault goes quiet before
 * any byte or after some events: the request is given up after the idle time (the SDK retries one that
 * never answered, the loop one that stopped partway), the turn ends with a message saying what happened,
 * the transcript stays sendable, and a slow stream that keeps sending is never cut.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, type ScriptedTurn, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { BashTool } from '../../tools/bash/bash.ts';
import { createSchemaCache } from '../api-schema.ts';
import { createToolUseContext } from '../context.ts';
import type { QueryEvent } from '../events.ts';
import type { MessageParam } from '../messages.ts';
import { query } from '../query.ts';
import { createAnthropicClient } from './anthropic.ts';
import { StreamStalledError, stallGuardedFetch } from './stall-guard.ts';

const IDLE_MS = 300;
let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(() => api.reset());

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const reply = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });
const words = 'A reply that streams in several chunks of words, slowly enough to be seen.';

async function run(messages: MessageParam[], onEvent?: (e: QueryEvent, abort: () => void) => void) {
  const sandbox = await createJustBashSandbox({ files: {} });
  const context = createToolUseContext({ sandbox, options: { tools: [BashTool] } });
  const client = createAnthropicClient({
    apiKey: 'test',
    baseURL: api.url,
    maxRetries: 2,
    idleTimeoutMs: IDLE_MS,
  });
  const gen = query({
    client,
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages,
    tools: [BashTool],
    context,
    schemaCache: createSchemaCache(),
  });
  const events: QueryEvent[] = [];
  const started = Date.now();
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    onEvent?.(step.value, () => context.abortController.abort());
    step = await gen.next();
  }
  return { events, outcome: step.value, ms: Date.now() - started };
}

const errorsOf = (events: QueryEvent[]) => events.flatMap((e) => (e.type === 'error' ? [e.error] : []));

describe('the idle watchdog', () => {
  it('a stream that goes quiet after it began is given up and sent again; the retry answers', async () => {
    api.script([
      { content: [{ type: 'text', text: words }], fault: { kind: 'hang', afterEvents: 4 } },
      reply('Done.'),
    ]);
    const { events, outcome } = await run([user('hi')]);
    expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(api.requests[0].aborted).toBe(true);
    const wait = events.find((e) => e.type === 'retry-wait');
    expect(wait).toMatchObject({ attempt: 1, error: { kind: 'network', midStream: true } });
    expect(errorsOf(events)).toEqual([]);
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ text: 'Done.' }] });
  });

  it('one that keeps stalling ends the turn with a message that says so; the next prompt works', async () => {
    const hang: ScriptedTurn = {
      content: [
        { type: 'text', text: words },
        { type: 'tool_use', id: 'toolu_hang', name: 'Bash', input: { command: 'echo never' } },
      ],
      fault: { kind: 'hang', afterEvents: 9 },
    };
    api.script([hang, hang, hang]);
    const first = await run([user('hi')]);
    expect(first.events.filter((e) => e.type === 'retry-wait')).toHaveLength(2);
    const [error] = errorsOf(first.events);
    expect(error).toMatchObject({ kind: 'network', midStream: true });
    expect(error.message).toBe(
      `The reply stalled: nothing came from the API for ${(IDLE_MS / 1000).toFixed(1)} s, so it was given up.`,
    );
    expect(first.outcome.reason).toBe('error');
    // Nothing of the half tool_use was kept or run.
    expect(JSON.stringify(first.outcome.messages)).not.toContain('toolu_hang');
    expect(first.events.some((e) => e.type === 'tool-run-start')).toBe(false);
    api.push(reply('Back.'));
    const next = await run([...first.outcome.messages, user('again')]);
    expect(api.requests.at(-1)?.status).toBe(200);
    expect(next.outcome.reason).toBe('end_turn');
  });

  it('a request that gets not a byte is given up and retried by the SDK, then said plainly', async () => {
    api.script([{ fault: { kind: 'hang' } }, { fault: { kind: 'hang' } }, { fault: { kind: 'hang' } }]);
    const { events, outcome, ms } = await run([user('hi')]);
    expect(api.requests).toHaveLength(3);
    expect(api.requests.map((r) => r.status)).toEqual([0, 0, 0]);
    // Each was given up by the page (the server sees its connection close).
    await expect.poll(() => api.requests.every((r) => r.aborted)).toBe(true);
    const [error] = errorsOf(events);
    expect(error.kind).toBe('network');
    expect(error.midStream).toBeUndefined();
    expect(error.message).toMatch(/^The API did not answer: no response in 0\.3 s \(the connection hung\)/);
    expect(ms).toBeGreaterThanOrEqual(3 * IDLE_MS);
    expect(outcome.messages.at(-1)?.role).toBe('user');
    api.push(reply('Answered.'));
    const next = await run([...outcome.messages, user('again')]);
    expect(next.outcome.reason).toBe('end_turn');
  });

  it('a slow stream that keeps sending is not cut, however long it lasts', async () => {
    // 13 events 100 ms apart: 1.2 s in all, four times the idle time, never quiet for that long.
    api.script([{ chunkDelayMs: 100, content: [{ type: 'text', text: words }] }]);
    const { events, outcome, ms } = await run([user('hi')]);
    expect(ms).toBeGreaterThan(3 * IDLE_MS);
    expect(events.some((e) => e.type === 'retry-wait')).toBe(false);
    expect(outcome.reason).toBe('end_turn');
    expect(api.requests).toHaveLength(1);
  });

  it('Esc during a quiet stream interrupts at once, as without the watchdog', async () => {
    api.script([{ content: [{ type: 'text', text: words }], fault: { kind: 'hang', afterEvents: 4 } }]);
    const { outcome, ms, events } = await run([user('hi')], (e, abort) => {
      if (e.type === 'text-delta') abort();
    });
    expect(outcome.reason).toBe('interrupted');
    expect(ms).toBeLessThan(IDLE_MS);
    expect(errorsOf(events)).toEqual([]);
  });

  it('a reader that stops asking is no stall: only waiting on the network counts', async () => {
    api.script([reply(words)]);
    const guarded = stallGuardedFetch(fetch, 100);
    const response = await guarded(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, stream: true, messages: [user('hi')] }),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const text = await response.text();
    expect(text).toContain('message_stop');
    // And a quiet one fails with the stall, after its idle time.
    api.script([{ content: [{ type: 'text', text: words }], fault: { kind: 'hang', afterEvents: 2 } }]);
    const quiet = await guarded(`${api.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, stream: true, messages: [user('hi')] }),
    });
    await expect(quiet.text()).rejects.toBeInstanceOf(StreamStalledError);
  });
});
