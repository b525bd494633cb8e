/** Bypass corpus: git reading a configuration the agent wrote (see cases-git.ts and harness.ts). */
import { describe, expect, it } from 'vitest';
import { GIT_PATHS, GIT_REPOSITORIES } from './cases-git.ts';
import { decisionOf, runCase } from './harness.ts';

describe("bypass corpus: git in a repository that is not the workspace's own", () => {
  it.each(GIT_REPOSITORIES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: paths git reads from its repository', () => {
  it.each(GIT_PATHS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("read-only git in the workspace's own repository", () => {
  it.each([
    'git status',
    'git log --oneline -5',
    'git diff --stat',
    'cd src && git status',
    'git -C src log -1',
    'git branch -a',
  ])('%s runs unasked', async (command) => {
    expect(await decisionOf(command, 'default', { deny: ['Bash(rm:*)'] })).toBe('allow');
    expect(await decisionOf(command, 'bypassPermissions', { deny: ['Bash(rm:*)'] })).toBe('allow');
  });
});
