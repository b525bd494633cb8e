import { describe, expect, it } from 'vitest';
import { createIdbPermissionStorage, PermissionStore, SETTINGS_RULES_KEY } from './store.ts';

const KNOWN = ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep'];

/** A store on the real IndexedDB code path (fake-indexeddb in Node), in a database of its own. */
function freshStorage() {
  return createIdbPermissionStorage(`tabcode-permissions-test-${crypto.randomUUID()}`);
}

describe('PermissionStore', () => {
  it('shows every rule with its source: embed, settings, session', async () => {
    const storage = freshStorage();
    const store = new PermissionStore({ embed: { deny: ['Bash(curl *)'] }, storage, knownTools: KNOWN });
    await store.load();
    await store.saveSettings({ allow: ['Bash(npm test:*)'] });
    expect(store.addSessionRule('allow', 'Write(/src/**)')).toMatchObject({ ok: true });
    expect(store.rules().map((r) => `${r.source}:${r.behavior}:${r.text}`)).toEqual([
      'embed:deny:Bash(curl *)',
      'settings:allow:Bash(npm test:*)',
      'session:allow:Write(/src/**)',
    ]);
    expect(store.rulesOf('session').map((r) => r.text)).toEqual(['Write(/src/**)']);
  });

  it('refuses a malformed settings rule with the reason; the other rules are saved and apply', async () => {
    const storage = freshStorage();
    const store = new PermissionStore({ storage, knownTools: KNOWN });
    const changes: number[] = [];
    store.subscribe(() => changes.push(store.rules().length));
    const result = await store.saveSettings({
      allow: ['Bash(ls:*)', 'bash(cat:*)'],
      deny: ['Read(!x)', 'Read(.env)'],
    });
    expect(result.refused.map((p) => [p.rule, p.reason])).toEqual([
      ['Read(!x)', expect.stringContaining('Negated patterns')],
      ['bash(cat:*)', 'Tool names are case-sensitive: did you mean Bash?'],
    ]);
    expect(result.saved).toEqual({ allow: ['Bash(ls:*)'], deny: ['Read(.env)'], ask: [] });
    expect(store.rules().map((r) => r.text)).toEqual(['Read(.env)', 'Bash(ls:*)']);
    expect(await storage.get(SETTINGS_RULES_KEY)).toEqual({
      allow: ['Bash(ls:*)'],
      deny: ['Read(.env)'],
      ask: [],
    });
    expect(changes).toEqual([2]);

    // A new session on the same storage sees them.
    const again = new PermissionStore({ storage, knownTools: KNOWN });
    await again.load();
    expect(again.rules().map((r) => `${r.source}:${r.text}`)).toEqual([
      'settings:Read(.env)',
      'settings:Bash(ls:*)',
    ]);
  });

  it('a stored malformed rule (e.g. from an older version) is skipped and reported; the rest load', async () => {
    const storage = freshStorage();
    await storage.set(SETTINGS_RULES_KEY, { allow: ['Bash(git status)', 'Bash(ls'], deny: 'not a list' });
    const store = new PermissionStore({ storage });
    const problems = await store.load();
    expect(problems).toEqual([
      { rule: 'Bash(ls', behavior: 'allow', reason: 'The closing parenthesis is missing.' },
    ]);
    expect(store.loadProblems).toEqual(problems);
    expect(store.rules().map((r) => r.text)).toEqual(['Bash(git status)']);
  });

  it('adds and removes single rules; session rules stay out of storage', async () => {
    const storage = freshStorage();
    const store = new PermissionStore({ storage });
    await store.addSettingsRule('ask', 'Bash(git push:*)');
    await store.addSettingsRule('ask', 'Bash(git  push:*)');
    store.addSessionRule('allow', 'Bash(mkdir:*)');
    store.addSessionRule('allow', 'Bash(mkdir:*)');
    await store.addSettingsRule('deny', 'Bash(rm:*)');
    // The second ask rule is the first one (commands match with single spaces): kept once.
    expect(store.rules().map((r) => r.text)).toEqual(['Bash(rm:*)', 'Bash(git push:*)', 'Bash(mkdir:*)']);
    await store.removeSettingsRule('ask', 'Bash(git  push:*)');
    store.removeSessionRule('allow', 'Bash(mkdir:*)');
    expect(store.rules().map((r) => r.text)).toEqual(['Bash(rm:*)']);
    expect(await storage.get(SETTINGS_RULES_KEY)).toEqual({ allow: [], deny: ['Bash(rm:*)'], ask: [] });
    expect(store.addSessionRule('allow', 'Bash(')).toEqual({
      ok: false,
      reason: 'The closing parenthesis is missing.',
    });
  });

  it('blanket deny rules from any source are what removes tools from the pool', async () => {
    const store = new PermissionStore({ embed: { deny: ['WebFetch', 'Bash(rm:*)'] }, storage: null });
    await store.saveSettings({ deny: ['mcp__github'] });
    store.addSessionRule('deny', 'Glob');
    expect(store.blanketDenies()).toEqual(['WebFetch', 'mcp__github', 'Glob']);
  });

  it('embed rules that are malformed are reported, not applied', () => {
    const store = new PermissionStore({ embed: { allow: ['Read(../x)', 'Read'] }, storage: null });
    expect(store.embedProblems.map((p) => p.rule)).toEqual(['Read(../x)']);
    expect(store.rules().map((r) => r.text)).toEqual(['Read']);
  });
});
