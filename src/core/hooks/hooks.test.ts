/**
 * Hooks with Claude Code's contract, run for real: command hooks in the just-bash sandbox (the event
 * JSON on stdin), function hooks as an embedding page registers them, on the real tool-call path
 * (runToolCall with the real Bash tool) and the loop (Stop). Exit code 2 blocks, JSON on stdout decides,
 * a hook that hangs times out, a failing or garbled hook is reported and the call proceeds.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool } from '../../tools/bash/bash.ts';
import { createToolUseContext, type ToolUseContext } from '../context.ts';
import type { QueryEvent } from '../events.ts';
import type { ToolResultBlockParam } from '../messages.ts';
import { type CanUseToolFn, prepareCall, runToolCall } from '../tool-execution.ts';
import { hooksFromSettingsText, matcherMatches } from './config.ts';
import { createHookRunner } from './runner.ts';
import type { HookDefinition, HookInput } from './types.ts';

let sandbox: Sandbox;
let hooks: HookDefinition[];
let ctx: ToolUseContext;

beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: { 'keep.txt': 'precious\n' } });
  hooks = [];
  ctx = createToolUseContext({
    sandbox,
    hooks: createHookRunner({ hooks: () => hooks, sandbox, sessionId: 's1' }),
  });
});

const command = (
  event: HookDefinition['event'],
  cmd: string,
  extra: Partial<HookDefinition> = {},
): HookDefinition => ({
  event,
  matcher: 'Bash',
  command: cmd,
  source: 'workspace',
  label: cmd,
  ...extra,
});

/** Runs one Bash call through the staged path; returns its result, events and the asks. */
async function bash(cmd: string, canUseTool?: CanUseToolFn) {
  const events: QueryEvent[] = [];
  const call = await prepareCall({ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: cmd } }, [
    BashTool,
  ]);
  const outcome = await runToolCall(call, ctx, {
    tools: [BashTool],
    canUseTool: canUseTool ?? (async () => ({ behavior: 'allow' })),
    emit: (e) => {
      events.push(e);
      if (e.type === 'permission-request') e.respond({ decision: 'deny', feedback: 'not now' });
    },
  });
  return {
    block: outcome.block,
    events,
    reports: events.flatMap((e) => (e.type === 'hook-result' ? [e.report] : [])),
  };
}

const text = (b: ToolResultBlockParam) =>
  typeof b.content === 'string'
    ? b.content
    : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('PreToolUse', () => {
  it('exit code 2 blocks the call: the model reads stderr, the command never runs', async () => {
    // The hook reads the event from stdin, as Claude Code's hooks do.
    hooks.push(
      command(
        'PreToolUse',
        `if grep -q '"command":"rm '; then echo "rm is not allowed here" >&2; exit 2; fi`,
      ),
    );
    const { block, reports } = await bash('rm keep.txt');
    expect(block.is_error).toBe(true);
    expect(text(block)).toContain('rm is not allowed here');
    expect(await sandbox.readFile('keep.txt')).toBe('precious\n');
    expect(reports).toMatchObject([
      { event: 'PreToolUse', outcome: 'blocked', decision: 'block', toolName: 'Bash' },
    ]);
    // Another command passes the same hook.
    expect((await bash('echo fine')).block.is_error).toBeFalsy();
  });

  it('JSON on stdout decides: deny with a reason', async () => {
    hooks.push(
      command(
        'PreToolUse',
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy says no"}}'`,
      ),
    );
    const { block } = await bash('echo hi');
    expect(block.is_error).toBe(true);
    expect(text(block)).toContain('policy says no');
  });

  it('ask prompts the user even where a rule allows', async () => {
    hooks.push(
      command(
        'PreToolUse',
        `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"double-check"}}'`,
      ),
    );
    const { block, events } = await bash('echo hi');
    const ask = events.find((e) => e.type === 'permission-request');
    expect(ask?.type === 'permission-request' && ask.message).toBe('double-check');
    expect(block.is_error).toBe(true);
    expect(text(block)).toContain('not now');
  });

  it("allow skips the prompt only for the embedding page's hooks", async () => {
    const asks: CanUseToolFn = async () => ({ behavior: 'ask', message: 'May I?' });
    hooks.push(command('PreToolUse', `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`));
    const fromWorkspace = await bash('echo hi', asks);
    expect(fromWorkspace.events.some((e) => e.type === 'permission-request')).toBe(true);
    hooks = [
      {
        event: 'PreToolUse',
        source: 'embed',
        label: 'page policy',
        fn: () => ({ hookSpecificOutput: { permissionDecision: 'allow' } }),
      },
    ];
    const fromPage = await bash('echo hi', asks);
    expect(fromPage.events.some((e) => e.type === 'permission-request')).toBe(false);
    expect(text(fromPage.block)).toContain('hi');
    // A deny rule still wins.
    const denied = await bash('echo hi', async () => ({ behavior: 'deny', message: 'denied by rule' }));
    expect(text(denied.block)).toContain('denied by rule');
  });

  it('rewrites the input: the new input is what runs (and what the permission check saw)', async () => {
    const seen: unknown[] = [];
    hooks = [
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        source: 'embed',
        label: 'quieter',
        fn: (input: HookInput) => {
          seen.push(input);
          return { hookSpecificOutput: { updatedInput: { command: 'echo rewritten' } } };
        },
      },
    ];
    const checked: unknown[] = [];
    const { block } = await bash('echo original', async (_t, input) => {
      checked.push(input);
      return { behavior: 'allow' };
    });
    expect(text(block)).toContain('rewritten');
    expect(checked).toEqual([{ command: 'echo rewritten' }]);
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo original' },
      session_id: 's1',
    });
  });

  it('a rewrite the tool cannot take is an error the model can act on', async () => {
    hooks = [
      {
        event: 'PreToolUse',
        source: 'embed',
        label: 'broken',
        fn: () => ({ hookSpecificOutput: { updatedInput: { cmd: 1 } } }),
      },
    ];
    const { block } = await bash('echo hi');
    expect(block.is_error).toBe(true);
    expect(text(block)).toContain('A PreToolUse hook rewrote the input');
  });

  it('invalid JSON, a non-zero exit and a hang are reported, and the call proceeds', async () => {
    hooks.push(command('PreToolUse', `echo '{"not json'`));
    hooks.push(command('PreToolUse', `echo "lint crashed" >&2; exit 1`));
    hooks.push(command('PreToolUse', 'sleep 30', { timeoutMs: 300 }));
    const started = Date.now();
    const { block, reports } = await bash('echo still-runs');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text(block)).toContain('still-runs');
    expect(reports.map((r) => r.outcome).sort()).toEqual(['error', 'invalid-json', 'timeout']);
    expect(reports.find((r) => r.outcome === 'error')?.message).toBe('lint crashed');
    expect(reports.find((r) => r.outcome === 'invalid-json')?.message).toMatch(/invalid JSON/);
  });

  it('a function hook that throws or never settles does not stop the call', async () => {
    hooks = [
      {
        event: 'PreToolUse',
        source: 'embed',
        label: 'throws',
        fn: () => {
          throw new Error('oops');
        },
      },
      {
        event: 'PreToolUse',
        source: 'embed',
        label: 'hangs',
        fn: () => new Promise(() => {}),
        timeoutMs: 200,
      },
    ];
    const { block, reports } = await bash('echo ok');
    expect(text(block)).toContain('ok');
    expect(reports.map((r) => r.outcome).sort()).toEqual(['error', 'timeout']);
  });

  it('runs only for matching tools', () => {
    expect(matcherMatches('Bash', 'Bash')).toBe(true);
    expect(matcherMatches('Edit|Write', 'Write')).toBe(true);
    expect(matcherMatches('Edit|Write', 'Bash')).toBe(false);
    expect(matcherMatches('mcp__github__.*', 'mcp__github__create_issue')).toBe(true);
    expect(matcherMatches('', 'Anything')).toBe(true);
    expect(matcherMatches('*', 'Anything')).toBe(true);
    expect(matcherMatches('Ba', 'Bash')).toBe(false);
  });
});

describe('PostToolUse', () => {
  it("exit code 2 gives the model the hook's feedback with the result", async () => {
    hooks.push(command('PostToolUse', `cat > /dev/null; echo "output mentions a secret" >&2; exit 2`));
    const { block, reports } = await bash('echo token=abc');
    expect(text(block)).toContain('token=abc');
    expect(text(block)).toContain('PostToolUse hook feedback: output mentions a secret');
    expect(reports[0]).toMatchObject({ event: 'PostToolUse', outcome: 'blocked' });
  });

  it('sees the tool response on stdin', async () => {
    hooks.push(
      command(
        'PostToolUse',
        `if grep -q 'done-marker'; then echo '{"hookSpecificOutput":{"additionalContext":"saw the marker"}}'; fi`,
      ),
    );
    const { block } = await bash('echo done-marker');
    expect(text(block)).toContain('PostToolUse hook context: saw the marker');
  });
});

describe('settings files', () => {
  it("reads Claude Code's hooks format and names each problem", () => {
    const parsed = hooksFromSettingsText(
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'check.sh', timeout: 5 }] }],
          Stop: [{ hooks: [{ type: 'command', command: '' }] }],
          Nope: [],
        },
      }),
      'workspace',
      '.claude/settings.json',
    );
    expect(parsed.hooks).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Bash',
        command: 'check.sh',
        timeoutMs: 5000,
        source: 'workspace',
        label: 'check.sh',
      },
    ]);
    expect(parsed.problems).toHaveLength(2);
    expect(parsed.problems.join('\n')).toContain('unknown hook event "Nope"');
    expect(hooksFromSettingsText('{', 'workspace', 'x.json').problems[0]).toContain('not valid JSON');
  });
});

describe('UserPromptSubmit and SessionStart', () => {
  it('plain stdout becomes context; exit 2 blocks with the reason', async () => {
    const runner = createHookRunner({ hooks: () => hooks, sandbox, sessionId: 's1' });
    hooks.push({
      event: 'UserPromptSubmit',
      command: 'echo "branch: main"',
      source: 'workspace',
      label: 'ctx',
    });
    const ok = await runner.run({ hook_event_name: 'UserPromptSubmit', prompt: 'hello' });
    expect(ok.context).toEqual(['branch: main']);
    hooks.push({
      event: 'UserPromptSubmit',
      command: 'grep -q password && { echo "no secrets in prompts" >&2; exit 2; }; exit 0',
      source: 'workspace',
      label: 'guard',
    });
    const blocked = await runner.run({ hook_event_name: 'UserPromptSubmit', prompt: 'my password is x' });
    expect(blocked.blocked).toBe('no secrets in prompts');
    hooks.push({
      event: 'SessionStart',
      matcher: 'clear',
      command: 'echo fresh start',
      source: 'workspace',
      label: 's',
    });
    expect((await runner.run({ hook_event_name: 'SessionStart', source: 'startup' })).reports).toHaveLength(
      0,
    );
    expect((await runner.run({ hook_event_name: 'SessionStart', source: 'clear' })).context).toEqual([
      'fresh start',
    ]);
  });
});
