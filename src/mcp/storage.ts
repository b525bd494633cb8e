/**
 * Persistence of the user's MCP server configs (settings) in IndexedDB through idb-keyval, in a
 * database of its own so no other store's upgrade can collide with it. Only HTTP configs are stored;
 * embed and in-page servers come back from their own sources on every load.
 */
import { get, set, type UseStore } from 'idb-keyval';
import { openIdbStore } from '../core/storage.ts';
import { storageName } from '../core/storage-namespace.ts';
import type { PersistedMcpServerConfig } from './types.ts';

/** IndexedDB database (`<namespace>-mcp`, core/storage-namespace.ts) and object store holding the configs (one key: MCP_SERVERS_KEY). */
export const MCP_DB_PURPOSE = 'mcp';
export const MCP_STORE_NAME = 'servers';
export const MCP_SERVERS_KEY = 'servers';

/** Where the manager keeps the configs the user added. */
export interface McpConfigStore {
  /** The stored configs; [] when none or unreadable. Never throws. */
  load(): Promise<PersistedMcpServerConfig[]>;
  /** Replaces the stored configs. */
  save(configs: PersistedMcpServerConfig[]): Promise<void>;
}

const TRANSPORTS = new Set(['auto', 'streamable-http', 'sse']);

/** The config in `value` if it is a well-formed stored HTTP config, else null. */
export function parsePersistedConfig(value: unknown): PersistedMcpServerConfig | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v.type !== 'http' || typeof v.name !== 'string' || typeof v.url !== 'string') return null;
  if (v.transport !== undefined && !TRANSPORTS.has(String(v.transport))) return null;
  const out: PersistedMcpServerConfig = { type: 'http', name: v.name, url: v.url, source: 'settings' };
  if (v.transport !== undefined) out.transport = v.transport as PersistedMcpServerConfig['transport'];
  if (typeof v.connectTimeoutMs === 'number') out.connectTimeoutMs = v.connectTimeoutMs;
  if (typeof v.toolTimeoutMs === 'number') out.toolTimeoutMs = v.toolTimeoutMs;
  if (typeof v.headers === 'object' && v.headers !== null) {
    const headers: Record<string, string> = {};
    for (const [k, h] of Object.entries(v.headers)) if (typeof h === 'string') headers[k] = h;
    out.headers = headers;
  }
  return out;
}

/** The idb-keyval backed store (IndexedDB in the page, fake-indexeddb in tests). */
export function createIdbConfigStore(
  dbName: string = storageName(MCP_DB_PURPOSE),
  storeName: string = MCP_STORE_NAME,
): McpConfigStore {
  let store: UseStore | undefined;
  const use = (): UseStore => {
    store ??= openIdbStore(dbName, storeName);
    return store;
  };
  return {
    async load() {
      try {
        const raw: unknown = await get(MCP_SERVERS_KEY, use());
        if (!Array.isArray(raw)) return [];
        return raw.map(parsePersistedConfig).filter((c): c is PersistedMcpServerConfig => c !== null);
      } catch (err) {
        console.warn('tabcode: could not read the saved MCP servers', err);
        return [];
      }
    },
    async save(configs) {
      await set(MCP_SERVERS_KEY, configs, use());
    },
  };
}
