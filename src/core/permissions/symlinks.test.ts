/**
 * Deny rules against symlinks and the order of deny rules and input validation, on the real just-bash
 * sandbox, the real tools and the engine as the session wires it (createCanUseTool → runToolCall).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BashTool } from '../../tools/bash/bash.ts';
import { EditTool } from '../../tools/edit/edit.ts';
import { ReadTool } from '../../tools/read/read.ts';
import { WriteTool } from '../../tools/write/write.ts';
import { createToolUseContext } from '../context.ts';
import type { QueryEvent } from '../events.ts';
import type { AnyTool } from '../tool.ts';
import { prepareCall, runToolCall } from '../tool-execution.ts';
import { createCanUseTool } from './can-use-tool.ts';
import { rulesFromSet } from './rules.ts';
import type { PermissionMode, PermissionRuleSet } from './types.ts';

const SECRET = 'sk-very-secret';
const tools: AnyTool[] = [BashTool, EditTool, ReadTool, WriteTool];
let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = await createJustBashSandbox({ files: { 'secrets/key': SECRET, 'README.md': '# hi\n' } });
});

/** Runs one tool call through permission; prompts are answered "deny" and recorded. */
async function call(name: string, input: unknown, mode: PermissionMode, set: PermissionRuleSet) {
  const { rules, problems } = rulesFromSet(set, 'settings');
  expect(problems).toEqual([]);
  const events: QueryEvent[] = [];
  const ctx = createToolUseContext({ sandbox, options: { permissionMode: mode, tools } });
  const outcome = await runToolCall(
    await prepareCall({ type: 'tool_use', id: 't1', name, input }, tools),
    ctx,
    {
      tools,
      canUseTool: createCanUseTool({ getRules: () => rules }),
      emit: (e) => {
        events.push(e);
        if (e.type === 'permission-request') e.respond({ decision: 'deny' });
      },
    },
  );
  const prompted = events.some((e) => e.type === 'permission-request');
  const ran = events.some((e) => e.type === 'tool-run-start');
  return {
    text: JSON.stringify(outcome.block.content),
    isError: outcome.block.is_error === true,
    prompted,
    ran,
  };
}

const DENY_SECRETS: PermissionRuleSet = { deny: ['Read(/secrets/**)', 'Edit(/secrets/**)'] };

describe('deny rules follow symlinks', () => {
  beforeEach(async () => {
    expect((await sandbox.exec('ln -s secrets s')).exitCode).toBe(0);
    expect(await sandbox.readFile('s/key')).toBe(SECRET);
  });

  it('the sandbox resolves real paths, through links and for paths that do not exist yet', async () => {
    expect(await sandbox.realpath?.('s/key')).toBe(`${sandbox.root}/secrets/key`);
    expect(await sandbox.realpath?.(`${sandbox.root}/s/new.txt`)).toBe(`${sandbox.root}/secrets/new.txt`);
    expect(await sandbox.realpath?.('README.md')).toBe(`${sandbox.root}/README.md`);
  });

  it.each(['bypassPermissions', 'default'] as const)('Read through a link is denied (%s)', async (mode) => {
    const r = await call('Read', { file_path: 's/key' }, mode, DENY_SECRETS);
    expect(r.isError).toBe(true);
    expect(r.ran).toBe(false);
    expect(r.text).toContain('Read(/secrets/**)');
    expect(r.text).not.toContain(SECRET);
  });

  it.each(['cat s/key', `cat ${'/home/user/project'}/s/key`, 'head -c 100 s/*', 'cd s && cat key'])(
    'Bash %s is not run in bypassPermissions mode',
    async (command) => {
      const r = await call('Bash', { command }, 'bypassPermissions', DENY_SECRETS);
      expect(r.ran).toBe(false);
      expect(r.text).not.toContain(SECRET);
    },
  );

  it('Write and Edit through a link are denied, for new files too', async () => {
    const w = await call(
      'Write',
      { file_path: 's/new.txt', content: 'x' },
      'bypassPermissions',
      DENY_SECRETS,
    );
    expect(w.ran).toBe(false);
    expect(w.text).toContain('Edit(/secrets/**)');
    expect(await sandbox.exists('secrets/new.txt')).toBe(false);
  });

  it('making a link to a denied tree is not allowed, even in bypassPermissions mode', async () => {
    const line = 'ln -s secrets t && cat t/key';
    expect((await call('Bash', { command: line }, 'bypassPermissions', DENY_SECRETS)).ran).toBe(false);
    const readOnly = { deny: ['Read(/secrets/**)'] };
    expect((await call('Bash', { command: line }, 'bypassPermissions', readOnly)).ran).toBe(false);
    // A link to a tree that may hold a denied file asks.
    const dotEnv = { deny: ['Read(.env)'] };
    const r = await call('Bash', { command: 'ln -s secrets t' }, 'bypassPermissions', dotEnv);
    expect(r.ran).toBe(false);
    expect(r.prompted).toBe(true);
    expect(await sandbox.exists('t')).toBe(false);
  });

  it('paths that are not denied still work through links', async () => {
    await sandbox.exec('ln -s README.md readme-link');
    const r = await call('Read', { file_path: 'readme-link' }, 'bypassPermissions', DENY_SECRETS);
    expect(r.isError).toBe(false);
    expect(r.text).toContain('# hi');
  });
});

describe('links out of the workspace', () => {
  it('the tools refuse to read through them', async () => {
    await sandbox.exec('mkdir -p /tmp/outside && echo hidden > /tmp/outside/f && ln -s /tmp/outside out');
    const r = await call('Read', { file_path: 'out/f' }, 'bypassPermissions', {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain('outside the workspace');
    expect(r.text).not.toContain('hidden');
  });
});

describe('deny rules come before input validation', () => {
  it('Edit on a denied path says nothing about the files there', async () => {
    const input = { file_path: 'secrets/kye', old_string: 'a', new_string: 'b' };
    const r = await call('Edit', input, 'default', DENY_SECRETS);
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Edit(/secrets/**)');
    expect(r.text).not.toContain('secrets/key');
    expect(r.text).not.toMatch(/did you mean|does not exist/i);
  });

  it('a doomed edit of a path that is not denied fails without a prompt', async () => {
    const input = { file_path: 'READMY.md', old_string: 'a', new_string: 'b' };
    const r = await call('Edit', input, 'default', DENY_SECRETS);
    expect(r.isError).toBe(true);
    expect(r.prompted).toBe(false);
  });
});
