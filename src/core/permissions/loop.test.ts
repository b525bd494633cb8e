/**
 * Enforcement in the loop, on the real SDK against the mock Messages API and the real tools on the
 * just-bash sandbox: no tool runs without a decision; denials (rules, plan mode, dontAsk, the user with
 * feedback) reach the model as is_error tool_results; "allow always" adds a session rule.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockApi, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool } from '../../tools/bash/bash.ts';
import { ReadTool } from '../../tools/read/read.ts';
import { WriteTool } from '../../tools/write/write.ts';
import { createSchemaCache } from '../api-schema.ts';
import { createToolUseContext } from '../context.ts';
import type { PermissionAnswer, QueryEvent } from '../events.ts';
import type { MessageParam, ToolResultBlockParam } from '../messages.ts';
import { createAnthropicClient } from '../model/anthropic.ts';
import { query } from '../query.ts';
import { type AnyTool, buildTool, textResult } from '../tool.ts';
import type { CanUseToolFn } from '../tool-execution.ts';
import { createCanUseTool, recordAllowAlways } from './can-use-tool.ts';
import { PermissionStore } from './store.ts';
import type { PermissionMode, PermissionRuleSet } from './types.ts';

const ROOT = '/home/user/project';

let api: MockApi;
let sandbox: Sandbox;

/** A tool that records its runs and has no opinion on permission. */
const runs: string[] = [];
const TouchTool = buildTool({
  name: 'Touch',
  inputSchema: z.object({ tag: z.string() }),
  description: () => 'Records a run',
  call: async (input) => {
    runs.push(input.tag);
    return { data: `touched ${input.tag}` };
  },
  mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
});

const tools: AnyTool[] = [BashTool, ReadTool, TouchTool, WriteTool];

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  api.reset();
  runs.length = 0;
  sandbox = await createJustBashSandbox({ files: { 'README.md': '# hi\n' } });
});

interface RunOptions {
  mode?: PermissionMode;
  rules?: PermissionRuleSet;
  store?: PermissionStore;
  canUseTool?: CanUseToolFn;
  /** How the "user" answers each prompt. */
  answer?: (event: Extract<QueryEvent, { type: 'permission-request' }>) => PermissionAnswer;
}

async function run(prompt: string, opts: RunOptions = {}) {
  const store = opts.store ?? new PermissionStore({ embed: opts.rules, storage: null });
  const mode = opts.mode ?? 'default';
  const gen = query({
    client: createAnthropicClient({ apiKey: 'test', baseURL: api.url, maxRetries: 0 }),
    model: 'claude-test',
    maxTokens: 1024,
    systemPrompt: 'You are a test.',
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] } satisfies MessageParam],
    tools,
    context: createToolUseContext({ sandbox, options: { tools, permissionMode: mode } }),
    schemaCache: createSchemaCache(),
    canUseTool: opts.canUseTool ?? createCanUseTool({ getRules: () => store.rules() }),
  });
  const events: QueryEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    const event = recordAllowAlways(step.value, store);
    events.push(event);
    if (event.type === 'permission-request') {
      if (!opts.answer) throw new Error(`unexpected prompt for ${event.name}`);
      event.respond(opts.answer(event));
    }
    step = await gen.next();
  }
  return { events, store, outcome: step.value };
}

function resultOf(requestIndex: number, id: string): ToolResultBlockParam | undefined {
  for (const m of api.requests[requestIndex].body.messages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content)
      if (b.type === 'tool_result' && b.tool_use_id === id) return b as ToolResultBlockParam;
  }
  return undefined;
}

const use = (id: string, name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, id, name, input }],
});
const done = { content: [{ type: 'text' as const, text: 'ok' }] };
const prompts = (events: QueryEvent[]) => events.filter((e) => e.type === 'permission-request');

describe('permissions in the loop', () => {
  it('a user denial with feedback becomes an is_error result carrying it; the tool does not run', async () => {
    api.script([use('toolu_w', 'Write', { file_path: `${ROOT}/x.txt`, content: 'x' }), done]);
    const { events } = await run('write', {
      answer: (e) => {
        expect(e.message).toBe('Write wants to change x.txt.');
        expect(e.suggestedRule).toBe('Write(/x.txt)');
        return { decision: 'deny', feedback: 'Use notes.md instead.' };
      },
    });
    expect(prompts(events)).toHaveLength(1);
    const result = resultOf(1, 'toolu_w');
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain("The user doesn't want to proceed with this tool use.");
    expect(result?.content).toContain('The user said:\nUse notes.md instead.');
    expect(await sandbox.exists(`${ROOT}/x.txt`)).toBe(false);
    expect(events.some((e) => e.type === 'tool-run-start')).toBe(false);
  });

  it('a denial without feedback tells the model to stop and wait', async () => {
    api.script([use('toolu_t', 'Touch', { tag: 'a' }), done]);
    await run('touch', { answer: () => ({ decision: 'deny' }) });
    expect(resultOf(1, 'toolu_t')?.content).toContain('wait for the user');
    expect(runs).toEqual([]);
  });

  it('allow always adds the session rule; the next matching call runs without a prompt', async () => {
    api.script([
      use('toolu_1', 'Bash', { command: 'mkdir -p a' }),
      use('toolu_2', 'Bash', { command: 'mkdir -p b/c' }),
      use('toolu_3', 'Bash', { command: 'touch b/c/d' }),
      done,
    ]);
    const asked: string[] = [];
    const { store } = await run('dirs', {
      answer: (e) => {
        asked.push(e.toolUseId);
        return e.suggestedRule
          ? { decision: 'allow-always', rule: e.suggestedRule }
          : { decision: 'allow-once' };
      },
    });
    expect(asked).toEqual(['toolu_1', 'toolu_3']);
    expect(store.rulesOf('session').map((r) => r.text)).toEqual(['Bash(mkdir:*)', 'Bash(touch:*)']);
    expect(await sandbox.exists(`${ROOT}/b/c/d`)).toBe(true);
  });

  it('a deny rule refuses without a prompt, and says which rule', async () => {
    api.script([use('toolu_rm', 'Bash', { command: 'ls && rm -rf README.md' }), done]);
    const { events } = await run('clean', { mode: 'bypassPermissions', rules: { deny: ['Bash(rm:*)'] } });
    expect(prompts(events)).toHaveLength(0);
    const result = resultOf(1, 'toolu_rm');
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain('embed deny rule Bash(rm:*)');
    expect(await sandbox.exists(`${ROOT}/README.md`)).toBe(true);
  });

  it('plan mode refuses a write with a clear message; reads still run', async () => {
    api.script([
      {
        content: [
          { type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: `${ROOT}/README.md` } },
          {
            type: 'tool_use',
            id: 'toolu_w',
            name: 'Write',
            input: { file_path: `${ROOT}/plan.md`, content: 'x' },
          },
        ],
      },
      done,
    ]);
    await run('plan', { mode: 'plan' });
    expect(resultOf(1, 'toolu_r')?.is_error).toBeUndefined();
    expect(resultOf(1, 'toolu_w')).toMatchObject({
      is_error: true,
      content: expect.stringContaining('Plan mode is on: only read-only tools may run'),
    });
    expect(await sandbox.exists(`${ROOT}/plan.md`)).toBe(false);
  });

  it('dontAsk denies what would ask, without a prompt', async () => {
    api.script([use('toolu_t', 'Touch', { tag: 'a' }), done]);
    const { events } = await run('touch', { mode: 'dontAsk' });
    expect(prompts(events)).toHaveLength(0);
    expect(resultOf(1, 'toolu_t')?.content).toContain('dontAsk');
    expect(runs).toEqual([]);
  });

  it('no opt-out: a canUseTool with no opinion (passthrough) prompts instead of running', async () => {
    api.script([use('toolu_t', 'Touch', { tag: 'a' }), done]);
    const { events } = await run('touch', {
      canUseTool: async () => ({ behavior: 'passthrough' }),
      answer: () => ({ decision: 'deny' }),
    });
    expect(prompts(events)).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  it('a tool allowing itself cannot skip deny rules', async () => {
    const SelfAllowing = buildTool({
      ...TouchTool,
      name: 'SelfAllowing',
      checkPermissions: async () => ({ behavior: 'allow' }),
    });
    tools.push(SelfAllowing);
    try {
      api.script([use('toolu_s', 'SelfAllowing', { tag: 'a' }), done]);
      await run('go', { mode: 'bypassPermissions', rules: { deny: ['SelfAllowing'] } });
      expect(resultOf(1, 'toolu_s')?.content).toContain('deny rule SelfAllowing');
      expect(runs).toEqual([]);
    } finally {
      tools.pop();
    }
  });
});
