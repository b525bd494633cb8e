/**
 * Key-value storage for what outlives a request: the session schema cache, spilled tool results and
 * session metadata. IndexedDB (through idb-keyval) in the page; an in-memory map where IndexedDB is
 * absent. Everything that stores takes a KeyValueStore, so tests inject either (fake-indexeddb gives
 * the real IndexedDB code path in Node).
 */
import { createStore, del, delMany, get, getMany, keys, set, type UseStore } from 'idb-keyval';
import { storageName } from './storage-namespace.ts';

/** An async key-value store. Values must be structured-cloneable. Implementations never lose a write they resolved. */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]>;
  set(key: string, value: unknown): Promise<void>;
  delete(keys: readonly string[]): Promise<void>;
  /** Every key, or those starting with `prefix`. */
  keys(prefix?: string): Promise<string[]>;
}

/**
 * idb-keyval's store on database `dbName`, object store `storeName`, whose every failure is a rejection.
 * idb-keyval opens the database on the first call, in the caller's task: where the browser refuses
 * IndexedDB (`indexedDB.open` throws a SecurityError: storage blocked by policy, some private modes, a
 * sandboxed frame) its get/set threw synchronously, past callers that `.catch()` the promise, and a page
 * handler stopped halfway (Settings did not close). Every database of the page is opened through here.
 */
export function openIdbStore(dbName: string, storeName: string): UseStore {
  let store: UseStore | undefined;
  return (mode, callback) => {
    try {
      store ??= createStore(dbName, storeName);
      return store(mode, callback);
    } catch (err) {
      return Promise.reject(err);
    }
  };
}

/**
 * A store on IndexedDB: database `<namespace>-<name>` (storage-namespace.ts; `tabcode-<name>` by default)
 * with one object store `kv` (idb-keyval creates a database per store, so each purpose gets its own).
 * Requires `indexedDB` (the page, or fake-indexeddb).
 */
export function createIdbStore(name: string): KeyValueStore {
  const store: UseStore = openIdbStore(storageName(name), 'kv');
  return {
    get: (key) => get(key, store),
    getMany: (list) => getMany([...list], store),
    set: (key, value) => set(key, value, store),
    delete: (list) => (list.length === 1 ? del(list[0], store) : delMany([...list], store)),
    async keys(prefix) {
      const all = (await keys(store)).filter((k): k is string => typeof k === 'string');
      return prefix ? all.filter((k) => k.startsWith(prefix)) : all;
    },
  };
}

/** A store in memory: values are structured-cloned on the way in and out, as IndexedDB would. */
export function createMemoryStore(): KeyValueStore {
  const map = new Map<string, unknown>();
  return {
    get: async <T>(key: string) => (map.has(key) ? (structuredClone(map.get(key)) as T) : undefined),
    getMany: async <T>(list: readonly string[]) =>
      list.map((k) => (map.has(k) ? (structuredClone(map.get(k)) as T) : undefined)),
    set: async (key, value) => void map.set(key, structuredClone(value)),
    delete: async (list) => {
      for (const k of list) map.delete(k);
    },
    keys: async (prefix) => [...map.keys()].filter((k) => !prefix || k.startsWith(prefix)),
  };
}

/** IndexedDB when the environment has it, else memory (nothing survives a reload then). */
export function createDefaultStore(name: string): KeyValueStore {
  return typeof indexedDB !== 'undefined' ? createIdbStore(name) : createMemoryStore();
}
