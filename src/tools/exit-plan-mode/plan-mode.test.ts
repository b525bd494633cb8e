/**
 * Plan mode end to end through the real loop and permission engine: EnterPlanMode asks and switches the
 * mode; a write is refused in plan mode; ExitPlanMode asks with the plan, and the approval switches to
 * the mode the user chose (acceptEdits here), after which the write runs; "keep planning" feedback
 * reaches the model and the mode stays plan.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, type RecordedRequest, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { EnterPlanModeTool } from '../enter-plan-mode/enter-plan-mode.ts';
import { runLoop, userMessage } from '../testing/loop.ts';
import { WriteTool } from '../write/write.ts';
import { ExitPlanModeTool } from './exit-plan-mode.ts';

let api: MockApi;
let sandbox: Sandbox;
const tools = [EnterPlanModeTool, ExitPlanModeTool, WriteTool];
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => api.close());
beforeEach(async () => {
  api.reset();
  sandbox = await createJustBashSandbox({ files: {} });
});

function resultOf(r: RecordedRequest, id: string) {
  return r.body.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((b) => b.type === 'tool_result' && b.tool_use_id === id) as { content: string; is_error?: boolean };
}

describe('plan mode', () => {
  it('enter (asked), a write refused, the plan approved into acceptEdits, then the write runs unasked', async () => {
    const write = (id: string) => ({
      type: 'tool_use' as const,
      id,
      name: 'Write',
      input: { file_path: `${sandbox.root}/plan.txt`, content: 'done\n' },
    });
    api.script([
      { content: [{ type: 'tool_use', id: 'toolu_enter', name: 'EnterPlanMode', input: {} }] },
      { content: [write('toolu_w1')] },
      {
        content: [
          { type: 'tool_use', id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: '1. Write plan.txt' } },
        ],
      },
      { content: [write('toolu_w2')] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const asked: string[] = [];
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools,
      messages: [userMessage('plan it')],
      answer: (req) => {
        asked.push(req.name);
        return req.name === 'ExitPlanMode'
          ? { decision: 'allow-once', mode: 'acceptEdits' }
          : { decision: 'allow-once' };
      },
    });
    expect(asked).toEqual(['EnterPlanMode', 'ExitPlanMode']);
    expect(resultOf(api.requests[1], 'toolu_enter').content).toContain('Entered plan mode');
    expect(resultOf(api.requests[2], 'toolu_w1')).toMatchObject({ is_error: true });
    expect(resultOf(api.requests[2], 'toolu_w1').content).toContain('Plan mode is on');
    expect(resultOf(api.requests[3], 'toolu_exit').content).toContain(
      'the permission mode is now acceptEdits',
    );
    expect(resultOf(api.requests[4], 'toolu_w2').is_error).toBeUndefined();
    expect(run.mode).toBe('acceptEdits');
    expect(await sandbox.readFile(`${sandbox.root}/plan.txt`)).toBe('done\n');
  });

  it('keep planning: the feedback reaches the model and the mode stays plan; ExitPlanMode outside plan mode is refused', async () => {
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_exit',
            name: 'ExitPlanMode',
            input: { plan: '1. Rewrite everything' },
          },
        ],
      },
      { content: [{ type: 'tool_use', id: 'toolu_exit2', name: 'ExitPlanMode', input: { plan: 'x' } }] },
      { content: [{ type: 'text', text: 'ok' }] },
    ]);
    let first = true;
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools,
      mode: 'plan',
      messages: [userMessage('plan')],
      answer: () => {
        const wasFirst = first;
        first = false;
        return wasFirst
          ? { decision: 'deny', feedback: 'Smaller steps, please.' }
          : { decision: 'allow-once' };
      },
    });
    expect(resultOf(api.requests[1], 'toolu_exit')).toMatchObject({ is_error: true });
    expect(resultOf(api.requests[1], 'toolu_exit').content).toContain('Smaller steps, please.');
    // An approval that names no mode leaves plan mode for the default.
    expect(run.mode).toBe('default');
    expect(await ExitPlanModeTool.validateInput?.({ plan: 'x' }, run.context)).toMatch(/not in plan mode/);
  });

  it('keep their input JSON schemas stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(ExitPlanModeTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/exit-plan-mode.schema.json',
    );
    await expect(JSON.stringify(EnterPlanModeTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      '../enter-plan-mode/__snapshots__/enter-plan-mode.schema.json',
    );
  });
});
