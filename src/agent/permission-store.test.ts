/**
 * "Allow always" rules kept per project: on the real IndexedDB code path (fake-indexeddb in Node), they
 * survive a new store (a reload), never leak into another project, can be removed, and a rule that
 * cannot be kept is listed as refused, never dropped silently.
 */
import { describe, expect, it } from 'vitest';
import {
  createIdbPermissionStorage,
  type PermissionSettingsStorage,
  PermissionStore,
} from '../core/permissions/store.ts';
import { allowAlwaysStorage, projectPermissionStorage, projectRulesKey } from './permission-store.ts';

const KNOWN = ['Bash', 'Read', 'Edit', 'Write'];

const database = () => createIdbPermissionStorage(`tabcode-permissions-test-${crypto.randomUUID()}`);

async function openStore(projectStorage: PermissionSettingsStorage | null, settings = database()) {
  const store = new PermissionStore({ storage: settings, projectStorage, knownTools: KNOWN });
  await store.load();
  return store;
}

describe('allow always, kept per project', () => {
  it('survives a reload, listed with its source', async () => {
    const db = database();
    const first = await openStore(projectPermissionStorage('demo', db));
    expect(first.persistsAllowAlways).toBe(true);
    expect(first.addAllowAlwaysRule('Bash(npm test:*)')).toMatchObject({ ok: true });
    expect(first.rulesOf('project').map((r) => r.text)).toEqual(['Bash(npm test:*)']);
    // Saving runs in the background: wait for it as a reload would.
    await new Promise((r) => setTimeout(r, 20));
    const reloaded = await openStore(projectPermissionStorage('demo', db));
    expect(reloaded.rules().map((r) => `${r.source}:${r.behavior}:${r.text}`)).toEqual([
      'project:allow:Bash(npm test:*)',
    ]);
    expect(await db.get(projectRulesKey('demo', 'rules'))).toEqual({
      allow: ['Bash(npm test:*)'],
      deny: [],
      ask: [],
    });
  });

  it('never applies to another project, and can be removed', async () => {
    const db = database();
    const a = await openStore(projectPermissionStorage('a', db));
    a.addAllowAlwaysRule('Bash(make:*)');
    await new Promise((r) => setTimeout(r, 20));
    const b = await openStore(projectPermissionStorage('b', db));
    expect(b.rules()).toEqual([]);
    await a.removeProjectRule('allow', 'Bash(make:*)');
    const again = await openStore(projectPermissionStorage('a', db));
    expect(again.rules()).toEqual([]);
  });

  it('a malformed rule is refused and listed; a rule that cannot be saved applies and is listed', async () => {
    const failing: PermissionSettingsStorage = {
      get: async () => undefined,
      set: async () => {
        throw new Error('quota exceeded');
      },
    };
    const store = await openStore(failing);
    expect(store.addAllowAlwaysRule('bash(ls:*)')).toMatchObject({ ok: false });
    expect(store.addAllowAlwaysRule('Bash(ls:*)')).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(store.rulesOf('project').map((r) => r.text)).toEqual(['Bash(ls:*)']);
    expect(store.refused.map((p) => [p.rule, p.reason])).toEqual([
      ['bash(ls:*)', 'Tool names are case-sensitive: did you mean Bash?'],
      ['Bash(ls:*)', expect.stringContaining('quota exceeded')],
    ]);
  });

  it('where nothing may persist (an embedded page), allow always lasts for the session', async () => {
    expect(allowAlwaysStorage({ storage: null })).toBeNull();
    const store = await openStore(allowAlwaysStorage({ storage: null }), database());
    expect(store.persistsAllowAlways).toBe(false);
    store.addAllowAlwaysRule('Bash(ls:*)');
    expect(store.rulesOf('session').map((r) => r.text)).toEqual(['Bash(ls:*)']);
    expect(store.rulesOf('project')).toEqual([]);
  });

  it('stored rules that are malformed are refused at load and listed', async () => {
    const db = database();
    await db.set(projectRulesKey('demo', 'rules'), { allow: ['Bash(ok:*)', 'Nope(', 42] });
    const store = await openStore(projectPermissionStorage('demo', db));
    expect(store.rulesOf('project').map((r) => r.text)).toEqual(['Bash(ok:*)']);
    expect(store.loadProblems.map((p) => p.rule)).toEqual(['Nope(', '42']);
  });
});
