/**
 * WebFetch's domain rules through the real engine and the real WebFetch tool (its matcher is the host),
 * the plan-mode tools named by PLAN_MODE_TOOLS being real tools, and a skill's allowed tools as turn
 * rules of the real canUseTool.
 */
import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { BashTool } from '../../tools/bash/bash.ts';
import { getAllBaseTools } from '../../tools/registry.ts';
import { WebFetchTool } from '../../tools/web-fetch/web-fetch.ts';
import { createToolUseContext } from '../context.ts';
import { createCanUseTool } from './can-use-tool.ts';
import { domainContentProblem, domainRuleMatches } from './domains.ts';
import { decidePermission, PLAN_MODE_TOOLS } from './engine.ts';
import { prepareMatcher } from './prepare-call.ts';
import { rulesFromSet, validateRule } from './rules.ts';
import type { PermissionMode, PermissionRuleSet } from './types.ts';

const ROOT = '/home/user/project';

async function decide(url: string, mode: PermissionMode, set: PermissionRuleSet = {}) {
  const { rules, problems } = rulesFromSet(set, 'settings', { knownTools: ['WebFetch'] });
  expect(problems).toEqual([]);
  const input = { url, prompt: 'p' };
  return decidePermission({
    tool: WebFetchTool,
    input,
    rules,
    permCtx: { mode, root: ROOT, cwd: ROOT },
    prepared: await prepareMatcher(WebFetchTool, input),
  });
}

describe('WebFetch(domain:...) rules', () => {
  it('match the host exactly, or its subdomains with *.', () => {
    expect(domainRuleMatches('domain:example.com', 'example.com')).toBe(true);
    expect(domainRuleMatches('domain:example.com', 'EXAMPLE.com.')).toBe(true);
    expect(domainRuleMatches('domain:example.com', 'docs.example.com')).toBe(false);
    expect(domainRuleMatches('domain:*.example.com', 'docs.example.com')).toBe(true);
    expect(domainRuleMatches('domain:*.example.com', 'example.com')).toBe(false);
    expect(domainRuleMatches('domain:*.example.com', 'badexample.com')).toBe(false);
  });

  it('are checked when saved', () => {
    expect(validateRule('WebFetch(domain:example.com)')).toMatchObject({ ok: true });
    expect(validateRule('WebFetch(example.com)')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('domain:example.com'),
    });
    expect(domainContentProblem('domain:https://x.com/a')).toMatch(/not a host name/);
    expect(domainContentProblem('domain:')).toMatch(/empty/);
  });

  it('allow, deny and ask by host; the prompt offers the rule; private addresses are denied before any rule', async () => {
    expect(
      await decide('https://example.com/a', 'default', { allow: ['WebFetch(domain:example.com)'] }),
    ).toMatchObject({ behavior: 'allow' });
    expect(
      await decide('https://example.com/a', 'bypassPermissions', { deny: ['WebFetch(domain:example.com)'] }),
    ).toMatchObject({
      behavior: 'deny',
    });
    expect(
      await decide('https://other.org/', 'default', { allow: ['WebFetch(domain:example.com)'] }),
    ).toMatchObject({
      behavior: 'ask',
      message: 'WebFetch wants to fetch from other.org.',
      suggestedRule: 'WebFetch(domain:other.org)',
    });
    expect(await decide('http://127.0.0.1:8080/', 'bypassPermissions')).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('private, loopback or internal address'),
    });
    expect(await decide('file:///etc/passwd', 'bypassPermissions')).toMatchObject({
      behavior: 'deny',
      message: expect.stringContaining('http and https URLs only'),
    });
    expect(await decide('https://example.com/', 'dontAsk')).toMatchObject({ behavior: 'deny' });
  });
});

describe('plan mode and turn rules', () => {
  it('PLAN_MODE_TOOLS names tools this build has', () => {
    const names = new Set(getAllBaseTools().map((t) => t.name));
    for (const name of PLAN_MODE_TOOLS) expect(names.has(name), name).toBe(true);
  });

  it("a skill's allowed tools let matching calls run without asking, for the context that carries them", async () => {
    // A repository of its own: git elsewhere may run what another repository's configuration names.
    const sandbox = await createJustBashSandbox({ files: { '.git/HEAD': 'ref: refs/heads/main\n' } });
    const canUseTool = createCanUseTool({ getRules: () => [], getMode: () => 'default' });
    const ctx = createToolUseContext({ sandbox });
    const input = { command: 'git log --oneline' };
    const prepared = { matcher: await prepareMatcher(BashTool, input) };
    expect(
      (
        await canUseTool(BashTool, { command: 'touch x' }, ctx, {
          matcher: await prepareMatcher(BashTool, { command: 'touch x' }),
        })
      ).behavior,
    ).toBe('ask');
    const granted = { ...ctx, options: { ...ctx.options, allowedTools: ['Bash(touch:*)'] } };
    expect(
      (
        await canUseTool(BashTool, { command: 'touch x' }, granted, {
          matcher: await prepareMatcher(BashTool, { command: 'touch x' }),
        })
      ).behavior,
    ).toBe('allow');
    expect((await canUseTool(BashTool, input, granted, prepared)).behavior).toBe('allow');
  });
});
