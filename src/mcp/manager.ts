/**
 * McpManager: the set of MCP servers of a session. Servers are added and removed at any time; each has
 * a state (connecting / connected with N tools / failed with a reason / disconnected). `tools()` is the
 * union of every connected server's usable tools, sorted by name, and stays the same array (same Tool
 * objects) until something changes, so a session can read it at every request. Listeners hear every
 * change. A server that is down, slow or broken fails alone: the others and the session go on.
 */
import type { AnyTool } from '../core/tool.ts';
import { connectMcpServer, type McpConnection } from './connection.ts';
import { normalizeServerName } from './names.ts';
import type { McpConfigStore } from './storage.ts';
import type { McpServerConfig, McpServerState, McpToolSource, PersistedMcpServerConfig } from './types.ts';

/** What changed: a server's new state (undefined once removed), and whether tools() changed. */
export interface McpChange {
  server: string;
  state: McpServerState | undefined;
  toolsChanged: boolean;
}

export interface McpManager extends McpToolSource {
  /**
   * Adds (or replaces) a server and connects to it. Resolves with its state once connected or failed;
   * rejects only for an invalid config (bad name or URL). Settings-sourced HTTP configs are persisted.
   */
  addServer(config: McpServerConfig): Promise<McpServerState>;
  /** Disconnects and forgets a server (and its persisted config). False when there was none. */
  removeServer(name: string): Promise<boolean>;
  /** Connects again to a known server (after a failure or a disconnect). */
  reconnect(name: string): Promise<McpServerState | undefined>;
  /** Every server's state, in the order they were added. */
  servers(): McpServerState[];
  server(name: string): McpServerState | undefined;
  /** Adds every persisted server (resolves once each has connected or failed). */
  loadPersisted(): Promise<void>;
  onChange(listener: (change: McpChange) => void): () => void;
  /** Closes every connection; the manager is unusable afterwards. */
  dispose(): Promise<void>;
}

export interface McpManagerOptions {
  /** Where settings-sourced configs are saved; none: nothing is persisted. */
  store?: McpConfigStore;
}

interface Entry {
  config: McpServerConfig;
  state: McpServerState;
  connection?: McpConnection;
  /** Bumped on every (re)connect and on removal, so a stale connect result is dropped. */
  generation: number;
}

function target(config: McpServerConfig): string {
  return config.type === 'http' ? config.url : 'in-page';
}

/** Checks and normalizes a config; throws a readable error when it cannot be used. */
export function normalizeConfig(config: McpServerConfig): McpServerConfig {
  const name = normalizeServerName(config.name);
  if (config.type === 'http') {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new Error(`Invalid URL for MCP server "${name}": ${config.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`MCP server "${name}" must use an http(s) URL (got ${url.protocol}).`);
    }
    return { ...config, name, source: config.source ?? 'settings' };
  }
  if (config.type === 'in-page' && typeof config.connect === 'function') {
    return { ...config, name, source: config.source ?? 'host' };
  }
  throw new Error(`MCP server "${name}" has an unknown type.`);
}

export function createMcpManager(options: McpManagerOptions = {}): McpManager {
  const entries = new Map<string, Entry>();
  const listeners = new Set<(change: McpChange) => void>();
  let toolList: readonly AnyTool[] = [];
  let disposed = false;
  let saving: Promise<void> = Promise.resolve();

  const recomputeTools = (): boolean => {
    const next: AnyTool[] = [];
    for (const e of entries.values()) {
      if (e.state.status === 'connected' && e.connection) next.push(...e.connection.adapted.tools);
    }
    next.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const same = next.length === toolList.length && next.every((t, i) => t === toolList[i]);
    if (!same) toolList = Object.freeze(next);
    return !same;
  };

  const emit = (server: string) => {
    const toolsChanged = recomputeTools();
    const state = entries.get(server)?.state;
    const change: McpChange = { server, state: state ? { ...state } : undefined, toolsChanged };
    for (const l of listeners) {
      try {
        l(change);
      } catch (err) {
        console.error('tabcode: an MCP listener threw', err);
      }
    }
  };

  const setState = (entry: Entry, patch: Partial<McpServerState>) => {
    entry.state = { ...entry.state, ...patch, since: Date.now() };
    emit(entry.state.name);
  };

  const persist = () => {
    const store = options.store;
    if (!store || disposed) return saving;
    const configs: PersistedMcpServerConfig[] = [];
    for (const e of entries.values()) {
      if (e.config.type === 'http' && e.config.source === 'settings') configs.push({ ...e.config });
    }
    saving = saving
      .then(() => store.save(configs))
      .catch((err) => console.warn('tabcode: could not save the MCP servers', err));
    return saving;
  };

  const connect = async (entry: Entry): Promise<McpServerState> => {
    const generation = ++entry.generation;
    const name = entry.state.name;
    const current = () => entries.get(name) === entry && entry.generation === generation && !disposed;
    setState(entry, {
      status: 'connecting',
      toolCount: 0,
      skipped: [],
      error: undefined,
      transport: undefined,
    });
    let connection: McpConnection;
    try {
      connection = await connectMcpServer(entry.config, {
        onToolsChanged(adapted) {
          if (!current()) return;
          setState(entry, { toolCount: adapted.tools.length, skipped: adapted.skipped });
        },
        onLost(reason) {
          if (!current()) return;
          entry.connection = undefined;
          setState(entry, { status: 'disconnected', toolCount: 0, error: reason });
        },
      });
    } catch (err) {
      if (current())
        setState(entry, { status: 'failed', error: err instanceof Error ? err.message : String(err) });
      return { ...entry.state };
    }
    if (!current()) {
      await connection.close();
      return { ...entry.state };
    }
    entry.connection = connection;
    setState(entry, {
      status: 'connected',
      transport: connection.transport,
      toolCount: connection.adapted.tools.length,
      skipped: connection.adapted.skipped,
      serverInfo: connection.serverInfo,
      error: undefined,
    });
    return { ...entry.state };
  };

  const closeEntry = async (entry: Entry) => {
    entry.generation++;
    const c = entry.connection;
    entry.connection = undefined;
    await c?.close();
  };

  const manager: McpManager = {
    async addServer(raw) {
      if (disposed) throw new Error('The MCP manager was disposed.');
      const config = normalizeConfig(raw);
      const old = entries.get(config.name);
      if (old) {
        entries.delete(config.name);
        await closeEntry(old);
      }
      const entry: Entry = {
        config,
        generation: 0,
        state: {
          name: config.name,
          status: 'connecting',
          target: target(config),
          source: config.source ?? 'settings',
          toolCount: 0,
          skipped: [],
          since: Date.now(),
        },
      };
      entries.set(config.name, entry);
      if (config.type === 'http' && config.source === 'settings') void persist();
      return connect(entry);
    },

    async removeServer(rawName) {
      let name: string;
      try {
        name = normalizeServerName(rawName);
      } catch {
        return false;
      }
      const entry = entries.get(name);
      if (!entry) return false;
      entries.delete(name);
      const persisted = entry.config.type === 'http' && entry.config.source === 'settings';
      emit(name);
      await closeEntry(entry);
      if (persisted) await persist();
      return true;
    },

    async reconnect(rawName) {
      const entry = entries.get(normalizeServerName(rawName));
      if (!entry || disposed) return undefined;
      await closeEntry(entry);
      return connect(entry);
    },

    servers: () => [...entries.values()].map((e) => ({ ...e.state, skipped: [...e.state.skipped] })),
    server(rawName) {
      try {
        const e = entries.get(normalizeServerName(rawName));
        return e ? { ...e.state } : undefined;
      } catch {
        return undefined;
      }
    },
    tools: () => toolList,
    connectingServers: () =>
      [...entries.values()].filter((e) => e.state.status === 'connecting').map((e) => e.state.name),

    async loadPersisted() {
      const configs = (await options.store?.load()) ?? [];
      await Promise.all(
        configs.map((c) =>
          manager
            .addServer(c)
            .catch((err) => console.warn(`tabcode: saved MCP server ${c.name} is invalid`, err)),
        ),
      );
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async dispose() {
      if (disposed) return;
      await saving;
      disposed = true;
      const all = [...entries.values()];
      entries.clear();
      listeners.clear();
      toolList = [];
      await Promise.all(all.map(closeEntry));
    },
  };
  return manager;
}
