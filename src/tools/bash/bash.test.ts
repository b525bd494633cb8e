import { beforeEach, describe, expect, it } from 'vitest';
import { BASH_MAX_OUTPUT_CHARS, BASH_MAX_TIMEOUT_MS } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { ToolProgress } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool, effectiveTimeout } from './bash.ts';

let sandbox: Sandbox;
let ctx: ToolUseContext;

beforeEach(async () => {
  sandbox = await createJustBashSandbox({
    files: { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# demo\n' },
  });
  ctx = createToolUseContext({ sandbox });
});

async function run(command: string, extra: { timeout?: number } = {}, c: ToolUseContext = ctx) {
  const progress: ToolProgress[] = [];
  const result = await BashTool.call({ command, ...extra }, c, (p) => progress.push(p));
  const block = BashTool.mapToolResultToToolResultBlockParam(result.data, 'toolu_1');
  return { result, data: result.data, block, progress };
}

describe('BashTool', () => {
  it('returns stdout and a successful result', async () => {
    const { data, block, progress } = await run('echo hello && cat src/a.ts');
    expect(data).toEqual({ stdout: 'hello\nexport const a = 1;\n', stderr: '', exitCode: 0 });
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: 'hello\nexport const a = 1;',
    });
    expect(progress.map((p) => p.kind)).toContain('output');
    expect(progress.map((p) => p.text).join('')).toContain('hello');
  });

  it('reports stderr and a non-zero exit code as an error the model can act on', async () => {
    const { data, block } = await run('echo out; echo oops >&2; exit 3');
    expect(data).toMatchObject({ stdout: 'out\n', stderr: 'oops\n', exitCode: 3 });
    expect(block.is_error).toBe(true);
    expect(block.content).toBe('out\noops\nExit code 3');
  });

  it('reports a failing command (missing file)', async () => {
    const { data, block } = await run('cat nope.txt');
    expect(data.exitCode).not.toBe(0);
    expect(data.stderr).toMatch(/nope\.txt/);
    expect(block.is_error).toBe(true);
  });

  it('keeps the working directory across calls and tells later tools about it', async () => {
    const first = await run('cd src');
    expect(first.result.contextModifier).toBeDefined();
    const next = first.result.contextModifier?.(ctx) as ToolUseContext;
    expect(next.options.cwd).toBe(`${sandbox.root}/src`);
    const { data } = await run('pwd && ls', {}, next);
    expect(data.stdout).toBe(`${sandbox.root}/src\na.ts\n`);
    const again = await run('pwd', {}, next);
    expect(again.result.contextModifier).toBeUndefined();
  });

  it('keeps exported variables across calls', async () => {
    await run('export GREETING=hi');
    expect((await run('echo $GREETING')).data.stdout).toBe('hi\n');
  });

  it('stops a command at its timeout and says so', async () => {
    // Not stopped, it would print `done`: that, not a timing, shows the stop.
    const { data, block } = await run('sleep 5; echo done', { timeout: 200 });
    expect(data.timedOut).toBe(true);
    expect(data.stdout).not.toContain('done');
    expect(block.is_error).toBe(true);
    expect(block.content).toMatch(/timed out/i);
  });

  it('stops a command when the abort controller fires', async () => {
    setTimeout(() => ctx.abortController.abort(), 100);
    const { data, block } = await run('sleep 5; echo done');
    expect(data.interrupted).toBe(true);
    expect(data.stdout).not.toContain('done');
    expect(block.is_error).toBe(true);
    expect(block.content).toMatch(/interrupted/i);
  });

  it('cuts the middle of long output', async () => {
    const { data } = await run(`seq 1 20000`);
    expect(data.truncated).toBe(true);
    expect(data.stdout.length).toBeLessThan(BASH_MAX_OUTPUT_CHARS + 200);
    expect(data.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(data.stdout.trimEnd().endsWith('19999\n20000')).toBe(true);
    expect(data.stdout).toMatch(/characters of output cut/);
  });

  it('says when a command printed nothing', async () => {
    const { block } = await run('true');
    expect(block.content).toBe('(No output)');
    expect(block.is_error).toBeUndefined();
  });

  it('rejects an empty command or a bad timeout in validateInput and call', async () => {
    expect(await BashTool.validateInput?.({ command: '   ' }, ctx)).toMatch(/empty/);
    expect(await BashTool.validateInput?.({ command: 'ls', timeout: -5 }, ctx)).toMatch(/Invalid timeout/);
    expect(await BashTool.validateInput?.({ command: 'ls', timeout: 1000 }, ctx)).toBeNull();
    await expect(BashTool.call({ command: '' }, ctx)).rejects.toThrow(/empty/);
  });

  it('clamps the timeout to the maximum', () => {
    expect(effectiveTimeout(undefined)).toBeLessThanOrEqual(BASH_MAX_TIMEOUT_MS);
    expect(effectiveTimeout(BASH_MAX_TIMEOUT_MS * 10)).toBe(BASH_MAX_TIMEOUT_MS);
    expect(effectiveTimeout(500)).toBe(500);
  });

  it('is read-only and concurrency-safe only when its one analysis says so', async () => {
    const judge = async (command: string) => {
      const input = { command };
      const analysis = await BashTool.preparePermissionMatcher?.(input);
      return {
        readOnly: BashTool.isReadOnly(input, analysis),
        concurrencySafe: BashTool.isConcurrencySafe(input, analysis),
        destructive: BashTool.isDestructive(input, analysis),
        programs: analysis?.commands.map((c) => c.words[0]?.text),
      };
    };
    expect(await judge('ls -la && git status')).toMatchObject({ readOnly: true, concurrencySafe: true });
    expect(await judge('cat a.txt | wc -l')).toMatchObject({ readOnly: true, concurrencySafe: true });
    expect(await judge('echo hi > a.txt')).toMatchObject({ readOnly: false, destructive: true });
    // cd changes no file, but moves the session: read-only, not safe beside other calls.
    expect(await judge('cd src')).toMatchObject({ readOnly: true, concurrencySafe: false });
    expect(await judge('npm test && ls')).toMatchObject({ readOnly: false, programs: ['npm', 'ls'] });
    expect(await judge('rm -rf build')).toMatchObject({ destructive: true });
    expect(await judge('ls -la')).toMatchObject({ destructive: false });
    // Without the analysis nothing is proven.
    expect(BashTool.isReadOnly({ command: 'ls' })).toBe(false);
    expect(BashTool.isConcurrencySafe({ command: 'ls' })).toBe(false);
    expect(BashTool.isDestructive({ command: 'ls' })).toBe(true);
    expect(BashTool.isReadOnly()).toBe(false);
    expect(BashTool.interruptBehavior()).toBe('abort');
  });

  it('passes permission decisions to the rules and mode', async () => {
    expect(
      await BashTool.checkPermissions({ command: 'rm -rf src' }, { mode: 'default', root: '/', cwd: '/' }),
    ).toEqual({
      behavior: 'passthrough',
    });
  });

  it('renders plain data for the UI', async () => {
    expect(BashTool.renderToolUseMessage?.({ command: 'ls -la', description: 'List files' })).toEqual({
      title: 'Bash',
      subtitle: 'List files',
      body: { kind: 'terminal', command: 'ls -la' },
    });
    expect(BashTool.renderToolUseMessage?.({})).toEqual({
      title: 'Bash',
      subtitle: undefined,
      body: { kind: 'none' },
    });
    const { data } = await run('echo x; exit 2');
    expect(BashTool.renderToolResultMessage?.(data, { command: '' })).toEqual({
      kind: 'terminal',
      stdout: 'x\n',
      stderr: '',
      exitCode: 2,
    });
    expect(BashTool.toAutoClassifierInput?.({ command: 'git push' })).toBe('git push');
  });

  it('has a model-facing prompt with limits filled in', () => {
    const prompt = BashTool.prompt?.() ?? '';
    expect(prompt).not.toMatch(/\{\{/);
    expect(prompt).toContain(String(BASH_MAX_TIMEOUT_MS));
    expect(prompt).toContain(String(BASH_MAX_OUTPUT_CHARS));
    expect(BashTool.name).toBe('Bash');
    expect(BashTool.maxResultSizeChars).toBe(30_000);
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(BashTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/bash.schema.json',
    );
  });
});

describe('one analysis per call', () => {
  it('the whole tool-call path (prepare, decide, run) parses the command once', async () => {
    const sandbox = await createJustBashSandbox({ files: { 'a.txt': 'x\n' } });
    const { prepareCall, runToolCall } = await import('../../core/tool-execution.ts');
    const { createCanUseTool } = await import('../../core/permissions/can-use-tool.ts');
    const { rulesFromSet } = await import('../../core/permissions/rules.ts');
    const { loadShellParser, shellParserRuns } = await import('../../shell/index.ts');
    await loadShellParser();
    const { rules } = rulesFromSet({ deny: ['Bash(rm:*)', 'Read(.env)'] }, 'settings');
    const ctx = createToolUseContext({ sandbox, options: { tools: [BashTool] } });
    for (const command of [
      'ls -la && cat a.txt | wc -l',
      'grep -rn x . 2>/dev/null',
      'cd src 2>/dev/null; pwd',
    ]) {
      const before = shellParserRuns();
      const block = { type: 'tool_use' as const, id: 'toolu_once', name: 'Bash', input: { command } };
      const call = await prepareCall(block, [BashTool]);
      const outcome = await runToolCall(call, ctx, {
        tools: [BashTool],
        canUseTool: createCanUseTool({ getRules: () => rules }),
        emit: (e) => {
          if (e.type === 'permission-request') e.respond({ decision: 'allow-once' });
        },
      });
      expect(outcome.block.is_error, JSON.stringify(outcome.block)).toBeUndefined();
      expect(shellParserRuns() - before, command).toBe(1);
    }
    await sandbox.dispose();
  });
});
