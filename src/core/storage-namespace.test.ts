import { describe, expect, it, vi } from 'vitest';
import {
  checkStorageNamespace,
  DEFAULT_STORAGE_NAMESPACE,
  resolveStorageNamespaces,
  storageNamespaceDefines,
} from './storage-namespace.ts';

describe('checkStorageNamespace', () => {
  it('accepts lower-case names with single hyphens', () => {
    for (const ok of ['tabcode', 'docs-playground', 'a', 'acme2', 'x-1-y'])
      expect(checkStorageNamespace(ok, 'V')).toBe(ok);
  });

  it('refuses anything else with a message naming the variable, the value and the rule', () => {
    for (const bad of [
      '',
      'Tabcode',
      'docs playground',
      'a.b',
      'a:b',
      'a_b',
      '-a',
      'a-',
      'a--b',
      '1a',
      'é',
      'a'.repeat(41),
    ]) {
      expect(() => checkStorageNamespace(bad, 'TABCODE_STORAGE_NAMESPACE'), bad).toThrow(
        `TABCODE_STORAGE_NAMESPACE=${JSON.stringify(bad)} is not a valid storage namespace: use 1 to 40 lower-case letters`,
      );
    }
  });
});

describe('resolveStorageNamespaces', () => {
  it("defaults to today's names for the page and a namespace of its own for the embed", () => {
    expect(resolveStorageNamespaces({})).toEqual({ app: DEFAULT_STORAGE_NAMESPACE, embed: 'tabcode-embed' });
    expect(
      resolveStorageNamespaces({ TABCODE_STORAGE_NAMESPACE: '', TABCODE_EMBED_STORAGE_NAMESPACE: '' }),
    ).toEqual({
      app: 'tabcode',
      embed: 'tabcode-embed',
    });
  });

  it("derives the embed's from the page's, or takes its own", () => {
    expect(resolveStorageNamespaces({ TABCODE_STORAGE_NAMESPACE: 'docs' })).toEqual({
      app: 'docs',
      embed: 'docs-embed',
    });
    expect(resolveStorageNamespaces({ TABCODE_EMBED_STORAGE_NAMESPACE: 'playground' })).toEqual({
      app: 'tabcode',
      embed: 'playground',
    });
  });

  it("refuses an embed namespace equal to the page's, and a bad value of either variable", () => {
    expect(() =>
      resolveStorageNamespaces({
        TABCODE_STORAGE_NAMESPACE: 'docs',
        TABCODE_EMBED_STORAGE_NAMESPACE: 'docs',
      }),
    ).toThrow(/is the stand-alone page's namespace too: the embed would open its databases/);
    expect(() => resolveStorageNamespaces({ TABCODE_EMBED_STORAGE_NAMESPACE: 'Bad!' })).toThrow(
      'TABCODE_EMBED_STORAGE_NAMESPACE="Bad!" is not a valid storage namespace',
    );
    // A page namespace at the length limit leaves no room for "-embed": said, not silently cut.
    expect(() => resolveStorageNamespaces({ TABCODE_STORAGE_NAMESPACE: 'a'.repeat(40) })).toThrow(
      /the embed storage namespace .* is not a valid storage namespace/,
    );
  });

  it('gives Vite defines of string literals', () => {
    expect(storageNamespaceDefines({ TABCODE_STORAGE_NAMESPACE: 'docs' })).toEqual({
      __TABCODE_STORAGE_NAMESPACE__: '"docs"',
      __TABCODE_EMBED_STORAGE_NAMESPACE__: '"docs-embed"',
    });
  });
});

describe('the namespace of a realm', () => {
  it("names storage under the page's namespace until the embed's is entered", async () => {
    vi.resetModules();
    const ns = await import('./storage-namespace.ts');
    expect(ns.storageNamespace()).toBe('tabcode');
    ns.enterEmbedStorage();
    expect(ns.storageName('settings')).toBe('tabcode-embed-settings');
    expect(ns.storageName('sandbox', '.')).toBe('tabcode-embed.sandbox');
  });

  it('refuses to change once a name was handed out (storage split across two namespaces)', async () => {
    vi.resetModules();
    const ns = await import('./storage-namespace.ts');
    expect(ns.storageName('sessions')).toBe('tabcode-sessions');
    expect(() => ns.enterEmbedStorage()).toThrow(
      'storage namespace cannot change to "tabcode-embed": storage of "tabcode" is already open',
    );
    // The same namespace again is fine, and an invalid one is refused with the rule.
    expect(() => ns.setStorageNamespace('tabcode')).not.toThrow();
    expect(() => ns.setStorageNamespace('No Good')).toThrow('is not a valid storage namespace');
    expect(ns.storageNamespace()).toBe('tabcode');
  });
});
