/**
 * Where OAuth state lives for each MCP server: its tokens, the client registration it got (dynamic
 * registration or a client ID metadata document), the discovery results, and the PKCE verifier and
 * `state` of a sign-in under way. One record per server URL, in a store of its own (IndexedDB database
 * `tabcode-mcp-auth` in the page, so it is per origin; memory in an embedded page or a test).
 *
 * Nothing here is ever part of a session export, a saved server config or an embed message: the
 * session stores and the embed protocol never read this store.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createIdbStore, createMemoryStore, type KeyValueStore } from '../../core/storage.ts';

/** The IndexedDB store name (database `tabcode-mcp-auth`). */
export const MCP_AUTH_STORE_NAME = 'mcp-auth';

/** What is kept for one server. */
export interface McpAuthRecord {
  tokens?: OAuthTokens;
  /** When the tokens were saved (ms since epoch): with `expires_in`, when they expire. */
  tokensSavedAt?: number;
  clientInformation?: OAuthClientInformationMixed;
  discoveryState?: OAuthDiscoveryState;
  /** The PKCE verifier and `state` of the sign-in under way (a redirect sign-in outlives the page). */
  codeVerifier?: string;
  state?: string;
}

export interface McpAuthStore {
  /** The record of `serverKey`, or an empty one. Never throws. */
  load(serverKey: string): Promise<McpAuthRecord>;
  /** Merges `patch` into the record (a key set to undefined is removed). */
  update(serverKey: string, patch: Partial<McpAuthRecord>): Promise<void>;
  /** Forgets everything about the server (sign out). */
  clear(serverKey: string): Promise<void>;
  /** Keys of every server with a record. */
  keys(): Promise<string[]>;
}

/**
 * The key of a server's record: its URL without query string, fragment or trailing slash, so the
 * same endpoint typed two ways shares its sign-in, and another endpoint never does.
 */
export function authKey(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

const PREFIX = 'server:';

/** An McpAuthStore on a KeyValueStore. */
export function createAuthStore(kv: KeyValueStore): McpAuthStore {
  // Writes of one record are chained, so two quick saves (tokens, then client info) never race.
  const chains = new Map<string, Promise<void>>();
  const chain = (key: string, fn: () => Promise<void>): Promise<void> => {
    const next = (chains.get(key) ?? Promise.resolve()).then(fn, fn);
    chains.set(
      key,
      next.catch(() => {}),
    );
    return next;
  };
  const read = async (key: string): Promise<McpAuthRecord> => {
    try {
      const value = await kv.get<McpAuthRecord>(PREFIX + key);
      return value && typeof value === 'object' ? value : {};
    } catch (err) {
      console.warn('tabcode: could not read the MCP sign-in of', key, err);
      return {};
    }
  };
  return {
    load: async (key) => {
      await chains.get(key);
      return read(key);
    },
    update: (key, patch) =>
      chain(key, async () => {
        const next: McpAuthRecord = { ...(await read(key)), ...patch };
        for (const k of Object.keys(next) as (keyof McpAuthRecord)[]) {
          if (next[k] === undefined) delete next[k];
        }
        await kv.set(PREFIX + key, next);
      }),
    clear: (key) => chain(key, () => kv.delete([PREFIX + key])),
    keys: async () => (await kv.keys(PREFIX)).map((k) => k.slice(PREFIX.length)),
  };
}

/** The page's store: IndexedDB when there is one (per origin), else memory. */
export function createDefaultAuthStore(): McpAuthStore {
  return createAuthStore(
    typeof indexedDB !== 'undefined' ? createIdbStore(MCP_AUTH_STORE_NAME) : createMemoryStore(),
  );
}

/** A store that keeps nothing across loads (an embedded page, the conformance driver, tests). */
export function createMemoryAuthStore(): McpAuthStore {
  return createAuthStore(createMemoryStore());
}
