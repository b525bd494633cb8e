/**
 * A browser that refuses IndexedDB (`indexedDB.open` throws a SecurityError: storage blocked by policy,
 * some private modes, a sandboxed frame): every store of the page fails by rejecting, never by throwing
 * in the caller's task (which stopped page handlers halfway: Settings did not close), and the page's
 * stores that must not fail (settings load) give their defaults.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyValueStore, createSessionsStore, newSessionRecord } from '../agent/sessions-store.ts';
import { createSettingsStore, DEFAULT_PREFS } from '../ui/settings-store.ts';
import { createIdbStore } from './storage.ts';

const denied = () => {
  throw new DOMException('The user denied permission to access the database.', 'SecurityError');
};
let open: IDBFactory['open'];
beforeEach(() => {
  open = indexedDB.open;
  indexedDB.open = denied;
});
afterEach(() => {
  indexedDB.open = open;
});

/** Calls `fn` and says how it failed: 'threw' (in the caller's task) or 'rejected'. */
async function failure(fn: () => Promise<unknown>): Promise<string> {
  let pending: Promise<unknown>;
  try {
    pending = fn();
  } catch {
    return 'threw';
  }
  return pending.then(
    () => 'resolved',
    (err: unknown) => `rejected: ${(err as Error).name}`,
  );
}

describe('IndexedDB refused', () => {
  it('every store rejects instead of throwing', async () => {
    const kv = createIdbStore(`denied-${Math.random()}`);
    expect(await failure(() => kv.set('a', 1))).toBe('rejected: SecurityError');
    expect(await failure(() => kv.get('a'))).toBe('rejected: SecurityError');
    const sessions = createSessionsStore(`denied-${Math.random()}`);
    expect(await failure(() => sessions.save(newSessionRecord()))).toBe('rejected: SecurityError');
    expect(await failure(() => sessions.list())).toBe('rejected: SecurityError');
    const settingsKv = createKeyValueStore(`denied-${Math.random()}`);
    expect(await failure(() => settingsKv.set('k', 'v'))).toBe('rejected: SecurityError');
  });

  it('the settings store loads its defaults and its saves reject', async () => {
    const settings = createSettingsStore(createKeyValueStore(`denied-${Math.random()}`));
    expect(await settings.load()).toEqual({ settings: {}, prefs: DEFAULT_PREFS });
    expect(await failure(() => settings.savePrefs(DEFAULT_PREFS))).toBe('rejected: SecurityError');
    expect(await failure(() => settings.saveCurrentSession('s_1'))).toBe('rejected: SecurityError');
  });

  it('works again once the browser allows it (nothing was cached from the refusal)', async () => {
    const kv = createIdbStore(`denied-${Math.random()}`);
    expect(await failure(() => kv.set('a', 1))).toBe('rejected: SecurityError');
    indexedDB.open = open;
    await kv.set('a', 2);
    expect(await kv.get('a')).toBe(2);
  });
});
