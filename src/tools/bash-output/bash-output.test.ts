import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type MockApi,
  type RecordedRequest,
  startMockApi,
  type TurnSpec,
} from '../../../e2e/mock-api/server.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { BashTool } from '../bash/bash.ts';
import { KillShellTool } from '../kill-shell/kill-shell.ts';
import { getTools } from '../registry.ts';
import { runLoop, userMessage } from '../testing/loop.ts';
import { BashOutputTool } from './bash-output.ts';

let ctx: ToolUseContext;
beforeEach(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox() });
});

const text = (r: { content?: unknown }) => String(r.content);
const until = async (pred: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 20));
};

async function start(command: string): Promise<string> {
  const res = await BashTool.call({ command, run_in_background: true }, ctx);
  expect(res.data.backgroundId).toBeTruthy();
  expect(BashTool.mapToolResultToToolResultBlockParam(res.data, 't').is_error).toBeUndefined();
  return res.data.backgroundId as string;
}

async function output(id: string, filter?: string) {
  const res = await BashOutputTool.call({ bash_id: id, filter }, ctx);
  return { data: res.data, text: text(BashOutputTool.mapToolResultToToolResultBlockParam(res.data, 't')) };
}

describe('background Bash, BashOutput and KillShell on just-bash', () => {
  it('starts a command in the background, returns at once, and BashOutput reads only new output', async () => {
    // The command cannot end before the test writes `go`: still running after start returned, so start
    // did not wait for it (a state, not a timing).
    const id = await start('echo first; while [ ! -f go ]; do sleep 0.02; done; echo second; echo noise');
    expect(ctx.sandbox.readBackground(id).status).toBe('running');
    await ctx.sandbox.writeFile(`${ctx.sandbox.root}/go`, '');
    expect(BashTool.isConcurrencySafe({ command: 'ls', run_in_background: true })).toBe(false);
    await until(async () => ctx.sandbox.readBackground(id).status !== 'running');
    const first = await output(id, '^(first|second)$');
    expect(first.data.status).toBe('exited');
    expect(first.text).toContain('<status>exited with code 0</status>');
    expect(first.text).toContain('first\nsecond');
    expect(first.text).not.toContain('noise');
    const again = await output(id);
    expect(again.text).toContain('(no new output)');
  });

  it('KillShell stops a running command; unknown IDs are clear errors', async () => {
    const id = await start('sleep 30');
    expect(ctx.sandbox.readBackground(id).status).toBe('running');
    const killed = await KillShellTool.call({ shell_id: id }, ctx);
    expect(killed.data.status).toBe('killed');
    expect(text(KillShellTool.mapToolResultToToolResultBlockParam(killed.data, 't'))).toMatch(/stopped/);
    await expect(KillShellTool.call({ shell_id: 'nope' }, ctx)).rejects.toThrow(
      /No background command with ID nope/,
    );
    await expect(BashOutputTool.call({ bash_id: 'nope' }, ctx)).rejects.toThrow(/Known IDs:/);
    expect(await BashOutputTool.validateInput?.({ bash_id: id, filter: '(' }, ctx)).toMatch(/Invalid filter/);
  });
});

describe("Claude Code's current names: TaskOutput and TaskStop", () => {
  let api: MockApi;
  beforeAll(async () => {
    api = await startMockApi();
  });
  afterAll(async () => api.close());

  /** The text of every tool_result of the request's last message, in order. */
  const results = (r: RecordedRequest): string[] => {
    const last = r.body.messages.at(-1);
    return Array.isArray(last?.content)
      ? last.content.flatMap((b) => (b.type === 'tool_result' ? [String(b.content)] : []))
      : [];
  };
  const idIn = (text: string) => /with ID: (\S+?)\./.exec(text)?.[1] ?? 'missing';

  it('a model (or an old transcript) calling them by those names, with task_id, reaches BashOutput and KillShell', async () => {
    const use = (name: string, input: unknown): TurnSpec => ({
      content: [{ type: 'tool_use', name, input }],
    });
    let quick = '';
    let slow = '';
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'echo started; sleep 0.3; echo ended', run_in_background: true },
          },
          { type: 'tool_use', name: 'Bash', input: { command: 'sleep 30', run_in_background: true } },
        ],
      },
      (r) => {
        [quick, slow] = results(r).map(idIn);
        // TaskOutput's own input: task_id, and block until it ends.
        return use('TaskOutput', { task_id: quick, block: true, timeout: 10_000 });
      },
      () => use('TaskStop', { task_id: slow }),
      () => use('TaskOutput', { task_id: 'nope' }),
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const sandbox = await createJustBashSandbox();
    const run = await runLoop({
      baseURL: api.url,
      sandbox,
      tools: [BashTool, BashOutputTool, KillShellTool],
      messages: [userMessage('go')],
      mode: 'bypassPermissions',
    });
    expect(run.outcome.reason).toBe('end_turn');
    const [, blocked, stopped, unknown] = api.requests.slice(1).map(results);
    // The blocking read waited for the end: the status and both lines in one answer.
    expect(blocked[0]).toContain('<status>exited with code 0</status>');
    expect(blocked[0]).toContain('started\nended');
    expect(stopped[0]).toMatch(new RegExp(`Background command ${slow} \\(sleep 30\\) stopped`));
    expect(sandbox.readBackground(slow).status).toBe('killed');
    expect(unknown[0]).toMatch(/No background command with ID nope/);
    // The model is told why an ID it saw may be gone: background commands stop when the page reloads.
    expect(unknown[0]).toMatch(/stop when it is reloaded/);
    // The schemas the model reads are still BashOutput's and KillShell's own.
    expect(Object.keys(BashOutputTool.inputJSONSchema.properties ?? {})).toEqual(['bash_id', 'filter']);
    expect(Object.keys(KillShellTool.inputJSONSchema.properties ?? {})).toEqual(['shell_id']);
  });

  it('bad input under the new names is still a clear error; rules naming them apply to the tools', async () => {
    const parse = (input: unknown) => BashOutputTool.inputSchema.safeParse(input);
    expect(parse({ task_id: 'a', block: true, timeout: 5 }).success).toBe(true);
    expect(parse({ task_id: 'a', timeout: -1 }).success).toBe(false);
    expect(parse({ task_id: 'a', other: 1 }).success).toBe(false);
    expect(parse({}).success).toBe(false);
    expect(KillShellTool.inputSchema.safeParse({ task_id: 'a' }).data).toEqual({ shell_id: 'a' });
    expect(KillShellTool.inputSchema.safeParse({ shell_id: 'b', task_id: 'a' }).success).toBe(false);
    // A blanket deny rule under Claude Code's name removes the tool from the session.
    const names = getTools(['TaskStop', 'TaskOutput']).map((t) => t.name);
    expect(names).not.toContain('KillShell');
    expect(names).not.toContain('BashOutput');
    expect(names).toContain('Bash');
  });
});

describe('schemas (prompt-cache keys)', () => {
  it('keeps the BashOutput and KillShell input JSON schemas stable', async () => {
    await expect(JSON.stringify(BashOutputTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/bash-output.schema.json',
    );
    await expect(JSON.stringify(KillShellTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      '../kill-shell/__snapshots__/kill-shell.schema.json',
    );
  });
});
