/**
 * Precedence of the permission engine in every mode: deny rules → ask rules → the tool's own check
 * (and safety paths, unparseable commands) → the mode → allow rules → ask; dontAsk turns ask into deny.
 * Real tools (their real matchers, Bash's on the real shell parser); rules as users write them.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BashTool } from '../../tools/bash/bash.ts';
import { EditTool } from '../../tools/edit/edit.ts';
import { GlobTool } from '../../tools/glob/glob.ts';
import { GrepTool } from '../../tools/grep/grep.ts';
import { ReadTool } from '../../tools/read/read.ts';
import { WriteTool } from '../../tools/write/write.ts';
import { type AnyTool, buildTool, textResult } from '../tool.ts';
import { decidePermission } from './engine.ts';
import { rulesFromSet } from './rules.ts';
import type { PermissionMode, PermissionResult, PermissionRuleSet } from './types.ts';

const ROOT = '/home/user/project';

async function decide(
  tool: AnyTool,
  input: unknown,
  mode: PermissionMode,
  set: PermissionRuleSet = {},
): Promise<PermissionResult> {
  const { rules, problems } = rulesFromSet(set, 'settings');
  expect(problems).toEqual([]);
  return decidePermission({ tool, input, permCtx: { mode, root: ROOT, cwd: ROOT }, rules });
}

const b = async (...args: Parameters<typeof decide>) => (await decide(...args)).behavior;

const write = (file_path: string) => ({ file_path, content: 'x' });
const bash = (command: string) => ({ command });

/** A tool with no opinion and no matcher (like most MCP tools). */
const mcpTool = buildTool({
  name: 'mcp__tracker__create_issue',
  inputSchema: z.object({ title: z.string() }),
  description: () => 'Creates an issue',
  mcpInfo: { serverName: 'tracker', toolName: 'create_issue' },
  checkPermissions: async () => ({ behavior: 'passthrough', message: 'Allow create_issue of tracker?' }),
  call: async () => ({ data: 'ok' }),
  mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
});

const readOnlyMcpTool = buildTool({
  name: 'mcp__tracker__list_issues',
  inputSchema: z.object({}),
  description: () => 'Lists issues',
  isReadOnly: () => true,
  call: async () => ({ data: 'ok' }),
  mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
});

const throwingTool = buildTool({
  name: 'Fragile',
  inputSchema: z.object({}),
  description: () => 'Its permission check throws',
  checkPermissions: async () => {
    throw new Error('no idea');
  },
  call: async () => ({ data: 'ok' }),
  mapToolResultToToolResultBlockParam: (out: string, id) => textResult(id, out),
});

describe('with no rules, each mode decides', () => {
  it.each([
    // mode, Write in workspace, mutating Bash, read-only Bash, Read, MCP tool
    ['default', 'ask', 'ask', 'allow', 'allow', 'ask'],
    ['acceptEdits', 'allow', 'ask', 'allow', 'allow', 'ask'],
    ['plan', 'deny', 'deny', 'allow', 'allow', 'deny'],
    ['bypassPermissions', 'allow', 'allow', 'allow', 'allow', 'allow'],
    ['dontAsk', 'deny', 'deny', 'allow', 'allow', 'deny'],
  ] as const)('%s', async (mode, w, mutating, readOnly, read, mcp) => {
    expect(await b(WriteTool, write('notes.md'), mode)).toBe(w);
    expect(await b(BashTool, bash('npm install'), mode)).toBe(mutating);
    expect(await b(BashTool, bash('ls -la && cat package.json | wc -l'), mode)).toBe(readOnly);
    expect(await b(ReadTool, { file_path: 'README.md' }, mode)).toBe(read);
    expect(await b(mcpTool, { title: 'x' }, mode)).toBe(mcp);
  });

  it('plan mode allows read-only tools and says clearly why it refuses the others', async () => {
    expect(await b(readOnlyMcpTool, {}, 'plan')).toBe('ask');
    expect(await b(GlobTool, { pattern: '**/*.ts' }, 'plan')).toBe('allow');
    const r = await decide(EditTool, { file_path: 'a.ts', old_string: 'a', new_string: 'b' }, 'plan');
    expect(r).toMatchObject({ behavior: 'deny', message: expect.stringContaining('Plan mode is on') });
  });

  it('acceptEdits allows file-only commands on workspace paths, and nothing outside', async () => {
    expect(
      await b(
        BashTool,
        bash('mkdir -p out && touch out/a && cp README.md out/ && mv out/a out/b'),
        'acceptEdits',
      ),
    ).toBe('allow');
    expect(await b(BashTool, bash('rm -rf build'), 'acceptEdits')).toBe('allow');
    expect(await b(BashTool, bash('echo done > out.txt'), 'acceptEdits')).toBe('allow');
    expect(await b(BashTool, bash('rm -rf /tmp/x'), 'acceptEdits')).toBe('ask');
    expect(await b(BashTool, bash('cp README.md ../elsewhere'), 'acceptEdits')).toBe('ask');
    expect(await b(BashTool, bash('rm -rf .'), 'acceptEdits')).toBe('ask');
    expect(await b(BashTool, bash('rm -rf $DIR'), 'acceptEdits')).toBe('ask');
    expect(await b(BashTool, bash('cd /tmp && touch x'), 'acceptEdits')).toBe('ask');
    expect(await b(BashTool, bash('chmod +x run.sh'), 'acceptEdits')).toBe('ask');
    expect(await b(WriteTool, write('/tmp/outside.txt'), 'acceptEdits')).toBe('ask');
  });
});

describe('deny rules come first', () => {
  it.each(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const)(
    '%s: a deny rule beats allow rules, the mode and the tool itself',
    async (mode) => {
      const rules = {
        deny: ['Read(.env)', 'Bash(npm publish:*)', 'Edit(/src/**)'],
        allow: ['Read', 'Bash', 'Write'],
      };
      const read = await decide(ReadTool, { file_path: 'config/.env' }, mode, rules);
      expect(read).toMatchObject({
        behavior: 'deny',
        message: expect.stringContaining('deny rule Read(.env)'),
      });
      expect(await b(GrepTool, { pattern: 'KEY', path: '.env' }, mode, rules)).toBe('deny');
      expect(await b(BashTool, bash('npm test && npm publish --tag next'), mode, rules)).toBe('deny');
      expect(await b(WriteTool, write('src/a.ts'), mode, rules)).toBe('deny');
    },
  );

  it('a whole-tool deny rule denies every call', async () => {
    expect(await b(BashTool, bash('ls'), 'bypassPermissions', { deny: ['Bash'] })).toBe('deny');
    expect(await b(mcpTool, { title: 'x' }, 'bypassPermissions', { deny: ['mcp__tracker'] })).toBe('deny');
    expect(await b(mcpTool, { title: 'x' }, 'bypassPermissions', { deny: ['mcp__other'] })).toBe('allow');
  });
});

describe('ask rules come second', () => {
  it.each(['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const)(
    '%s: an ask rule asks even when an allow rule or the mode would allow',
    async (mode) => {
      const rules = { ask: ['Bash(git push:*)', 'Read(docs/**)'], allow: ['Bash(git:*)'] };
      expect(await b(BashTool, bash('git push origin main'), mode, rules)).toBe('ask');
      expect(await b(ReadTool, { file_path: 'docs/a.md' }, mode, rules)).toBe('ask');
    },
  );

  it('dontAsk: an ask rule denies', async () => {
    const r = await decide(BashTool, bash('git push'), 'dontAsk', { ask: ['Bash(git push:*)'] });
    expect(r).toMatchObject({ behavior: 'deny', message: expect.stringContaining('dontAsk') });
  });
});

describe("the tool's own check comes third", () => {
  it.each(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk'] as const)(
    '%s: Read outside the workspace is denied by the tool, whatever allows it',
    async (mode) => {
      expect(await b(ReadTool, { file_path: '/etc/passwd' }, mode, { allow: ['Read'] })).toBe('deny');
    },
  );

  it('Read inside the workspace is allowed by the tool in every mode, dontAsk and plan included', async () => {
    for (const mode of ['default', 'plan', 'dontAsk'] as const) {
      expect(await b(ReadTool, { file_path: 'src/index.js' }, mode)).toBe('allow');
    }
  });

  it('a check that throws denies', async () => {
    const r = await decide(throwingTool, {}, 'bypassPermissions');
    expect(r).toMatchObject({ behavior: 'deny', message: expect.stringContaining('no idea') });
  });

  it.each(['default', 'acceptEdits', 'bypassPermissions'] as const)(
    '%s: safety paths ask even when an allow rule or the mode allows',
    async (mode) => {
      const allow = { allow: ['Write', 'Edit', 'Bash'] };
      for (const path of ['.git/config', '.tabcode/settings.json', '.bashrc', 'sub/.profile', '.zshrc']) {
        const r = await decide(WriteTool, write(path), mode, allow);
        expect(r, path).toMatchObject({
          behavior: 'ask',
          message: expect.stringContaining('always needs your approval'),
        });
        expect(r.behavior === 'ask' && r.suggestedRule).toBeFalsy();
      }
      expect(await b(BashTool, bash('echo "alias ls=rm" >> ~/.bashrc'), mode, allow)).toBe('ask');
      expect(await b(BashTool, bash('cp hook.sh .git/hooks/pre-commit'), mode, allow)).toBe('ask');
      expect(await b(BashTool, bash('rm -rf .git'), mode, allow)).toBe('ask');
      expect(await b(BashTool, bash('echo x > "$TARGET"'), mode, allow)).toBe('ask');
      expect(await b(BashTool, bash('cat .git/config'), mode, allow)).toBe('allow');
    },
  );

  it('an unparseable command asks in every mode but dontAsk, which denies', async () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const) {
      const r = await decide(BashTool, bash('echo "unterminated'), mode, { allow: ['Bash'] });
      expect(r).toMatchObject({ behavior: 'ask', message: expect.stringContaining('could not be parsed') });
    }
    expect(await b(BashTool, bash('echo "unterminated'), 'dontAsk')).toBe('deny');
  });
});

describe('allow rules come after the mode', () => {
  it('plan mode refuses a write an allow rule would allow', async () => {
    expect(await b(WriteTool, write('notes.md'), 'plan', { allow: ['Write'] })).toBe('deny');
    expect(await b(BashTool, bash('npm test'), 'plan', { allow: ['Bash(npm test:*)'] })).toBe('deny');
  });

  it.each(['default', 'acceptEdits', 'dontAsk'] as const)('%s: allow rules let calls run', async (mode) => {
    const rules = {
      allow: ['Bash(npm test:*)', 'Bash(git *)', 'Bash(make build)', 'Write(/src/**)', 'mcp__tracker'],
    };
    expect(await b(BashTool, bash('npm test -- --watch=false'), mode, rules)).toBe('allow');
    expect(await b(BashTool, bash('git commit -m "wip" && git push'), mode, rules)).toBe('allow');
    expect(await b(BashTool, bash('make build'), mode, rules)).toBe('allow');
    expect(await b(BashTool, bash('timeout 60 npm test'), mode, rules)).toBe('allow');
    expect(await b(WriteTool, write('src/lib/a.ts'), mode, rules)).toBe('allow');
    expect(await b(mcpTool, { title: 'x' }, mode, rules)).toBe('allow');
    // Every sub-command must be allowed.
    const ask = mode === 'dontAsk' ? 'deny' : 'ask';
    expect(await b(BashTool, bash('npm test && npm publish'), mode, rules)).toBe(ask);
    expect(await b(BashTool, bash('make build clean'), mode, rules)).toBe(ask);
    expect(await b(BashTool, bash('FOO=1 npm test'), mode, rules)).toBe(ask);
    expect(await b(BashTool, bash('npm test $ARGS'), mode, rules)).toBe(ask);
    expect(await b(WriteTool, write('test/a.ts'), mode, rules)).toBe(mode === 'acceptEdits' ? 'allow' : ask);
  });

  it('a redirection is a write: it needs the mode or an Edit rule besides the command', async () => {
    expect(await b(BashTool, bash('npm test > out.txt'), 'default', { allow: ['Bash(npm test:*)'] })).toBe(
      'ask',
    );
    expect(
      await b(BashTool, bash('npm test > out.txt'), 'default', {
        allow: ['Bash(npm test:*)', 'Edit(/out.txt)'],
      }),
    ).toBe('allow');
    expect(
      await b(BashTool, bash('npm test > out.txt'), 'acceptEdits', { allow: ['Bash(npm test:*)'] }),
    ).toBe('allow');
  });
});

describe('the ask at the end', () => {
  it('says what needs approval and offers the rule "allow always" would add', async () => {
    expect(await decide(BashTool, bash('npm run build && ls'), 'default')).toMatchObject({
      behavior: 'ask',
      message: 'This command needs your approval for `npm run build`.',
      suggestedRule: 'Bash(npm run:*)',
    });
    expect(await decide(BashTool, bash('rm -rf build'), 'default')).toMatchObject({
      suggestedRule: 'Bash(rm -rf build)',
    });
    expect(await decide(BashTool, bash('make'), 'default')).toMatchObject({ suggestedRule: 'Bash(make)' });
    // Two parts need approval: no one rule covers the line, so none is offered (only the first was saved).
    const two = await decide(BashTool, bash('rm -rf src && curl http://example.com'), 'default');
    expect(two).toMatchObject({
      behavior: 'ask',
      message: expect.stringContaining('`curl http://example.com`'),
    });
    expect(two.behavior === 'ask' && two.suggestedRule).toBeFalsy();
    expect(await decide(BashTool, bash('./run.sh --fast'), 'default')).toMatchObject({
      suggestedRule: 'Bash(./run.sh:*)',
    });
    expect(await decide(WriteTool, write('src/lib/a.ts'), 'default')).toMatchObject({
      message: 'Write wants to change src/lib/a.ts.',
      suggestedRule: 'Write(/src/lib/**)',
    });
    expect(await decide(mcpTool, { title: 'x' }, 'default')).toMatchObject({
      message: 'Allow create_issue of tracker?',
      suggestedRule: 'mcp__tracker__create_issue',
    });
    expect(await decide(BashTool, bash('echo hi > notes.txt'), 'default')).toMatchObject({
      message: 'This command needs your approval for writing `notes.txt`.',
      suggestedRule: 'Edit(/notes.txt)',
    });
  });

  it('shows each command as it was written: quotes, escapes and assignments kept', async () => {
    expect(await decide(BashTool, bash("node -e 'console.log(1+1)'"), 'default')).toMatchObject({
      message: "This command needs your approval for `node -e 'console.log(1+1)'`.",
    });
    expect(
      await decide(BashTool, bash('FOO=1 python3 -c "print(\\"a b\\")" && ls && echo x\\ y | sh'), 'default'),
    ).toMatchObject({
      message: 'This command needs your approval for `FOO=1 python3 -c "print(\\"a b\\")"`, `sh`.',
    });
  });

  it('the rule it offers makes the same call run', async () => {
    for (const [tool, input] of [
      [BashTool, bash('npm run build && ls')],
      [WriteTool, write('src/lib/a.ts')],
      [mcpTool, { title: 'x' }],
    ] as const) {
      const asked = await decide(tool, input, 'default');
      const rule = asked.behavior === 'ask' ? asked.suggestedRule : undefined;
      expect(rule).toBeDefined();
      expect(await b(tool, input, 'default', { allow: [rule as string] })).toBe('allow');
    }
  });

  it('an ask rule or a command that might match a deny rule offers no rule (it could not take effect)', async () => {
    const askRule = await decide(BashTool, bash('git push'), 'default', { ask: ['Bash(git push:*)'] });
    expect(askRule.behavior === 'ask' && askRule.suggestedRule).toBeFalsy();
    const maybe = await decide(BashTool, bash('$CMD -rf x'), 'default', { deny: ['Bash(rm:*)'] });
    expect(maybe).toMatchObject({ behavior: 'ask', message: expect.stringContaining('might match') });
    expect(maybe.behavior === 'ask' && maybe.suggestedRule).toBeFalsy();
  });
});

describe('file rules guard every tool of their family', () => {
  it('Read rules guard Glob and Grep; Edit rules guard Write', async () => {
    const deny = { deny: ['Read(secrets/**)', 'Edit(/dist/**)'] };
    expect(await b(GlobTool, { pattern: '*.pem', path: 'secrets' }, 'bypassPermissions', deny)).toBe('deny');
    expect(await b(GlobTool, { pattern: 'secrets/**/*.pem' }, 'bypassPermissions', deny)).toBe('deny');
    expect(await b(GlobTool, { pattern: 'src/**/*.ts' }, 'bypassPermissions', deny)).toBe('allow');
    expect(await b(GrepTool, { pattern: 'KEY', path: 'secrets' }, 'bypassPermissions', deny)).toBe('deny');
    expect(await b(WriteTool, write('dist/app.js'), 'bypassPermissions', deny)).toBe('deny');
    expect(
      await b(
        EditTool,
        { file_path: 'dist/app.js', old_string: 'a', new_string: 'b' },
        'bypassPermissions',
        deny,
      ),
    ).toBe('deny');
  });

  it('Glob and Grep decide on their own input: a path outside the workspace is refused', async () => {
    for (const [tool, input] of [
      [GlobTool, { pattern: '*', path: '/etc' }],
      [GlobTool, { pattern: '/etc/**/*.conf' }],
      [GlobTool, { pattern: '../**' }],
      [GrepTool, { pattern: 'root', path: '/etc' }],
      [GrepTool, { pattern: 'x', path: '../other' }],
    ] as const) {
      const r = await decide(tool, input, 'bypassPermissions', { allow: ['Glob', 'Grep'] });
      expect(r, JSON.stringify(input)).toMatchObject({
        behavior: 'deny',
        message: expect.stringContaining('outside the workspace'),
      });
    }
    expect(await b(GlobTool, { pattern: 'src/**/*.ts' }, 'default')).toBe('allow');
    expect(await b(GrepTool, { pattern: 'x', path: 'src' }, 'default')).toBe('allow');
  });

  it('Grep over a directory that may hold a denied file asks', async () => {
    const r = await decide(GrepTool, { pattern: 'API_KEY' }, 'bypassPermissions', { deny: ['Read(.env)'] });
    expect(r).toMatchObject({ behavior: 'ask', message: expect.stringContaining('Read(.env)') });
    expect(
      await b(GrepTool, { pattern: 'x', path: 'src' }, 'bypassPermissions', { deny: ['Read(/secrets/**)'] }),
    ).toBe('allow');
  });
});
