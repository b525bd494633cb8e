import { beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { BashTool } from '../bash/bash.ts';
import { KillShellTool } from '../kill-shell/kill-shell.ts';
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
    const t0 = Date.now();
    const id = await start('echo first; sleep 0.3; echo second; echo noise');
    expect(Date.now() - t0).toBeLessThan(250);
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
