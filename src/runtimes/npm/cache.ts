/**
 * Caches for npm: tarballs in IndexedDB (idb-keyval), so a second install of the same versions makes no
 * request, and packuments in memory for a few minutes.
 */
import { clear, del, get, set, type UseStore } from 'idb-keyval';
import { openIdbStore } from '../../core/storage.ts';
import { storageName } from '../../core/storage-namespace.ts';
import { CACHE_DB_PURPOSE, CACHE_STORE_NAME, PACKUMENT_TTL_MS } from './constants.ts';
import type { PackumentCache, TarballCache } from './host.ts';

export interface IndexedDbTarballCache extends TarballCache {
  /** Removes one entry (never throws). */
  delete(key: string): Promise<void>;
  /** Empties the store (never throws). */
  clear(): Promise<void>;
}

/**
 * Tarballs in IndexedDB, database `<namespace>-npm` (`tabcode-npm`), store `tarballs` by default. Never throws: without
 * IndexedDB (or when it fails, e.g. over quota) it behaves as an empty cache.
 */
export function createIndexedDbTarballCache(
  options: { dbName?: string; storeName?: string } = {},
): IndexedDbTarballCache {
  let store: UseStore | undefined;
  const open = (): UseStore | undefined => {
    if (typeof indexedDB === 'undefined') return undefined;
    store ??= openIdbStore(
      options.dbName ?? storageName(CACHE_DB_PURPOSE),
      options.storeName ?? CACHE_STORE_NAME,
    );
    return store;
  };
  return {
    async get(key) {
      const s = open();
      if (!s) return undefined;
      try {
        const value = await get<unknown>(key, s);
        return value instanceof Uint8Array ? value : undefined;
      } catch {
        return undefined;
      }
    },
    async put(key, bytes) {
      const s = open();
      if (!s) return;
      try {
        await set(key, bytes, s);
      } catch {
        // A full or unavailable store only costs a download next time.
      }
    },
    async delete(key) {
      const s = open();
      if (s) await del(key, s).catch(() => {});
    },
    async clear() {
      const s = open();
      if (s) await clear(s).catch(() => {});
    },
  };
}

/** Packuments kept in memory for `ttlMs` (default PACKUMENT_TTL_MS). */
export function createPackumentCache(ttlMs = PACKUMENT_TTL_MS, now: () => number = Date.now): PackumentCache {
  const entries = new Map<string, { doc: unknown; at: number }>();
  return {
    get(url) {
      const hit = entries.get(url);
      if (!hit) return undefined;
      if (now() - hit.at > ttlMs) {
        entries.delete(url);
        return undefined;
      }
      return hit.doc;
    },
    set(url, doc) {
      entries.set(url, { doc, at: now() });
    },
  };
}
