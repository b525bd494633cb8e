/**
 * The tarball cache (IndexedDB through fake-indexeddb) and the packument memory cache, through real
 * installs: a second install is served with no request; a damaged entry is refetched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRegistry } from '../../../e2e/registry/server.ts';
import { createIndexedDbTarballCache, createPackumentCache } from './cache.ts';
import type { TarballCache } from './host.ts';
import {
  fixturePackages,
  makeShell,
  PROJECT,
  pkgJson,
  readJson,
  snapshot,
  startFixtureRegistry,
} from './testing/harness.ts';

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
});
afterAll(() => registry.stop());

const PKG = pkgJson({
  name: 'app',
  version: '1.0.0',
  dependencies: { 'hello-cli': '^1.0.0', 'tiny-math': '^2.0.0', 'exports-map': '^1.0.0' },
});
let dbCount = 0;
const freshCache = () => createIndexedDbTarballCache({ dbName: `npm-cache-test-${++dbCount}` });

describe('tarball cache', () => {
  it('a second install with the lock is served from IndexedDB with no request at all', async () => {
    const cache = freshCache();
    const first = makeShell({ registry: registry.url, cache, files: { 'package.json': PKG } });
    registry.clearRequests();
    expect((await first.exec('npm install')).exitCode).toBe(0);
    expect(registry.requests.filter((q) => q.kind === 'tarball')).toHaveLength(5);
    const lock = await first.fs.readFile(`${PROJECT}/package-lock.json`);

    const second = makeShell({
      registry: registry.url,
      cache,
      files: { 'package.json': PKG, 'package-lock.json': lock },
    });
    registry.clearRequests();
    const r = await second.exec('npm install');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/added 5 packages in/);
    expect(registry.requests).toEqual([]);
    expect(await snapshot(second)).toEqual(await snapshot(first));
  });

  it('without a lock, only packuments are requested; with the packument cache too, nothing', async () => {
    const cache = freshCache();
    const packuments = createPackumentCache();
    await makeShell({ registry: registry.url, cache, packuments, files: { 'package.json': PKG } }).exec(
      'npm install',
    );
    registry.clearRequests();
    const noPackumentCache = makeShell({ registry: registry.url, cache, files: { 'package.json': PKG } });
    expect((await noPackumentCache.exec('npm install')).exitCode).toBe(0);
    expect(registry.requests.map((q) => q.kind)).toEqual([
      'packument',
      'packument',
      'packument',
      'packument',
    ]);
    registry.clearRequests();
    const both = makeShell({ registry: registry.url, cache, packuments, files: { 'package.json': PKG } });
    expect((await both.exec('npm install')).exitCode).toBe(0);
    expect(registry.requests).toEqual([]);
  });

  it('a damaged cache entry fails its integrity check and is downloaded again (and repaired)', async () => {
    const cache = freshCache();
    const tiny = (await fixturePackages()).find((p) => p.name === 'tiny-math' && p.version === '2.0.0')!;
    await cache.put(tiny.integrity, new TextEncoder().encode('garbage'));
    const bash = makeShell({
      registry: registry.url,
      cache,
      files: { 'package.json': pkgJson({ name: 'app', dependencies: { 'tiny-math': '^2.0.0' } }) },
    });
    registry.clearRequests();
    expect((await bash.exec('npm install')).exitCode).toBe(0);
    expect(registry.requests.map((q) => q.path)).toContain('/tiny-math/-/tiny-math-2.0.0.tgz');
    expect(await cache.get(tiny.integrity)).toEqual(tiny.tarball);
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('2.0.0');
  });

  it('a cache that throws is treated as empty', async () => {
    const broken: TarballCache = {
      get: () => Promise.reject(new Error('store gone')),
      put: () => Promise.reject(new Error('quota')),
    };
    const bash = makeShell({ registry: registry.url, cache: broken, files: { 'package.json': PKG } });
    const r = await bash.exec('npm install');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it('the IndexedDB store keeps bytes; delete and clear empty it; no IndexedDB means a miss', async () => {
    const cache = freshCache();
    await cache.put('k', new Uint8Array([1, 2, 3]));
    expect(await cache.get('k')).toEqual(new Uint8Array([1, 2, 3]));
    await cache.delete('k');
    expect(await cache.get('k')).toBeUndefined();
    await cache.put('a', new Uint8Array([1]));
    await cache.clear();
    expect(await cache.get('a')).toBeUndefined();
    const saved = globalThis.indexedDB;
    try {
      // @ts-expect-error: a page without IndexedDB
      delete globalThis.indexedDB;
      const none = createIndexedDbTarballCache({ dbName: 'absent' });
      await none.put('x', new Uint8Array([1]));
      expect(await none.get('x')).toBeUndefined();
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});

describe('packument cache', () => {
  it('keeps a document for its time to live', () => {
    let now = 1000;
    const cache = createPackumentCache(50, () => now);
    cache.set('u', { name: 'x' });
    now += 50;
    expect(cache.get('u')).toEqual({ name: 'x' });
    now += 1;
    expect(cache.get('u')).toBeUndefined();
  });
});
