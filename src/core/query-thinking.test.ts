/**
 * The loop's extended thinking, its loop guard and its Stop hooks, on the real SDK against the mock
 * Messages API (which checks thinking signatures and the thinking-first rule of a tool loop the way the
 * real API does) with the real Bash tool on the just-bash sandbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { BashTool } from '../tools/bash/bash.ts';
import { createSchemaCache } from './api-schema.ts';
import { MAX_REPEATED_TOOL_FAILURES, REPEATED_FAILURE_MESSAGE } from './constants.ts';
import { createToolUseContext, type ToolUseContext } from './context.ts';
import type { QueryEvent } from './events.ts';
import { createHookRunner } from './hooks/runner.ts';
import type { HookDefinition } from './hooks/types.ts';
import { contentBlocks, type MessageParam } from './messages.ts';
import { createAnthropicClient } from './model/anthropic.ts';
import { type QueryOutcome, type QueryParams, query } from './query.ts';

let api: MockApi;
let context: ToolUseContext;
let hooks: HookDefinition[];

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api.close());
beforeEach(async () => {
  api.reset();
  const sandbox = await createJustBashSandbox({ files: { 'a.txt': 'alpha\n' } });
  hooks = [];
  context = createToolUseContext({
    sandbox,
    hooks: createHookRunner({ hooks: () => hooks, sandbox, sessionId: 't' }),
  });
});

async function run(messages: MessageParam[], extra: Partial<QueryParams> = {}) {
  const gen = query({
    client: createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 }),
    model: 'claude-test',
    maxTokens: 2048,
    systemPrompt: 'You are a test.',
    messages,
    tools: [BashTool],
    context,
    schemaCache: createSchemaCache(),
    ...extra,
  });
  const events: QueryEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, outcome: step.value as QueryOutcome };
}

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });

describe('extended thinking', () => {
  it('streams thinking, and sends it back with its signature, first in the tool loop', async () => {
    api.script([
      {
        content: [
          { type: 'thinking', thinking: 'I should list the files first.', signature: 'sig-from-api' },
          { type: 'tool_use', id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      {
        content: [
          { type: 'thinking', thinking: 'a.txt is there.' },
          { type: 'text', text: 'There is a.txt.' },
        ],
      },
    ]);
    const { events, outcome } = await run([user('what is here?')], { thinking: { budgetTokens: 1024 } });
    expect(outcome.reason).toBe('end_turn');
    expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
    const thought = events.flatMap((e) => (e.type === 'thinking-delta' ? [e.text] : [])).join('');
    expect(thought).toBe('I should list the files first.a.txt is there.');
    expect(events.filter((e) => e.type === 'thinking-start')).toHaveLength(2);
    // The request: thinking on, max_tokens above the budget, the block back exactly as it came.
    const second = api.requests[1].body;
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(second.max_tokens).toBe(2048);
    const assistant = second.messages[1] as MessageParam;
    expect(contentBlocks(assistant)[0]).toEqual({
      type: 'thinking',
      thinking: 'I should list the files first.',
      signature: 'sig-from-api',
    });
    // Never a cache breakpoint on a thinking block.
    expect(JSON.stringify(contentBlocks(assistant)[0])).not.toContain('cache_control');
  });

  it('raises max_tokens above a large budget', async () => {
    api.script([{ content: [{ type: 'text', text: 'ok' }] }]);
    await run([user('hi')], { thinking: { budgetTokens: 8_000 }, maxTokens: 1024 });
    expect(api.requests[0].status).toBe(200);
    expect(api.requests[0].body.max_tokens).toBeGreaterThan(8_000);
  });
});

describe('the loop guard', () => {
  it(`ends the turn when the same failing call comes back ${MAX_REPEATED_TOOL_FAILURES} times`, async () => {
    const failing = { type: 'tool_use' as const, name: 'Bash', input: { command: 'cat missing.txt' } };
    api.script([
      { content: [failing] },
      { content: [failing] },
      { content: [{ ...failing, input: { command: 'cat  missing.txt' } }] },
      { content: [failing] },
      { content: [failing] },
      { content: [{ type: 'text', text: 'never sent' }] },
    ]);
    const { events, outcome } = await run([user('read missing.txt')]);
    expect(outcome.reason).toBe('repeated_failure');
    // The third identical failure stops it (the call with another input does not count): four requests.
    expect(api.requests).toHaveLength(4);
    expect(api.pending()).toBe(2);
    const guard = events.find((e) => e.type === 'loop-guard');
    expect(guard).toMatchObject({ type: 'loop-guard', toolName: 'Bash', count: 3 });
    expect(guard?.type === 'loop-guard' && guard.error).toContain('missing.txt');
    // The model learns why with the next prompt; the transcript stays valid.
    expect(JSON.stringify(outcome.messages.at(-1))).toContain(REPEATED_FAILURE_MESSAGE.slice(0, 40));
  });
});

describe('Stop hooks', () => {
  it('send the model back to work with their reason, then let it stop', async () => {
    hooks.push({
      event: 'Stop',
      command: `if grep -q '"stop_hook_active":false'; then echo "run the tests before you stop" >&2; exit 2; fi`,
      source: 'workspace',
      label: 'tests first',
    });
    api.script([
      { content: [{ type: 'text', text: 'Done.' }] },
      { content: [{ type: 'text', text: 'Tests pass. Done.' }] },
    ]);
    const { events, outcome } = await run([user('fix it')]);
    expect(outcome.reason).toBe('end_turn');
    expect(api.requests).toHaveLength(2);
    expect(JSON.stringify(api.requests[1].body.messages.at(-1))).toContain(
      'Stop hook feedback: run the tests before you stop',
    );
    expect(events.filter((e) => e.type === 'hook-result')).toHaveLength(2);
  });
});
