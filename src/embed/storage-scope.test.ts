/**
 * The embed's storage namespace on the real IndexedDB code path (fake-indexeddb: one "origin" shared by
 * both module graphs below): the stand-alone page remembers a key under today's names; a fresh module
 * graph that enters the embed (./storage-scope.ts, as embed.html and the package do first) opens every
 * store of the app under its own namespace and cannot read that key through any of them.
 */
import { describe, expect, it, vi } from 'vitest';

const KEY = 'sk-ant-remembered-by-the-stand-alone-page';

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '').sort();
}

describe('the embed storage scope', () => {
  it("keeps the stand-alone page's names, and the embed never opens them", async () => {
    // The stand-alone page: no embed module imported.
    vi.resetModules();
    const page = await import('../ui/settings-store.ts');
    const pageSettings = page.createSettingsStore();
    await pageSettings.savePrefs({ ...page.DEFAULT_PREFS, rememberKey: true });
    await pageSettings.saveSettings(
      {
        apiKey: KEY,
        baseURL: 'https://api.anthropic.com',
        model: 'm',
        maxTokens: 1,
        permissionMode: 'default',
      },
      true,
    );
    expect((await pageSettings.load()).settings.apiKey).toBe(KEY);
    const before = await databaseNames();
    expect(before).toContain('tabcode-settings');

    // The embed: a fresh module graph, storage-scope first.
    vi.resetModules();
    await import('./storage-scope.ts');
    const ns = await import('../core/storage-namespace.ts');
    expect(ns.storageNamespace()).toBe('tabcode-embed');
    const [settingsStore, sessionsStore, storage, persist, permissions, mcp, npm] = await Promise.all([
      import('../ui/settings-store.ts'),
      import('../agent/sessions-store.ts'),
      import('../core/storage.ts'),
      import('../sandbox/persist.ts'),
      import('../core/permissions/store.ts'),
      import('../mcp/storage.ts'),
      import('../runtimes/npm/cache.ts'),
    ]);
    const embedSettings = settingsStore.createSettingsStore();
    const loaded = await embedSettings.load();
    expect(loaded.settings.apiKey).toBeUndefined();
    expect(loaded.prefs.rememberKey).toBe(false);
    // Every kind of store the app has, written once from the embed.
    await embedSettings.savePrefs(settingsStore.DEFAULT_PREFS);
    await sessionsStore.createSessionsStore().list();
    await storage.createDefaultStore('results').set('x', 1);
    await persist.idbProjectStore().load();
    await permissions.createIdbPermissionStorage().set('rules', []);
    await mcp.createIdbConfigStore().save([]);
    await npm.createIndexedDbTarballCache().put('sha512-x', new Uint8Array([1]));

    const added = (await databaseNames()).filter((name) => !before.includes(name));
    expect(added).toEqual([
      'tabcode-embed-mcp',
      'tabcode-embed-npm',
      'tabcode-embed-permissions',
      'tabcode-embed-project',
      'tabcode-embed-results',
      'tabcode-embed-sessions',
      'tabcode-embed-settings',
    ]);
    // The page's key is where it was, untouched, and nowhere in the embed's settings.
    expect((await pageSettingsAgain()).settings.apiKey).toBe(KEY);
  });
});

/** The stand-alone page's settings store, read from a fresh page module graph. */
async function pageSettingsAgain() {
  vi.resetModules();
  const page = await import('../ui/settings-store.ts');
  return page.createSettingsStore().load();
}
