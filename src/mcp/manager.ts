/**
 * McpManager: the set of MCP servers of a session. Servers are added and removed at any time; each has
 * a state (connecting / connected with N tools / needs-auth / failed with a reason / disconnected).
 * `tools()` is the union of every connected server's usable tools, sorted by name, and stays the same
 * array (same Tool objects) until something changes, so a session can read it at every request.
 *
 * Recovery without the user: a server that drops is reconnected with backoff; a tool call made while
 * its server reconnects waits for it (MCP_WAIT_FOR_RECONNECT_MS); a server that forgot the session is
 * re-initialized by the connection. Sign-in: a server that asks for OAuth is `needs-auth` until the
 * user presses "Sign in" (`signIn`); a call that meets a new sign-in mid-session (expired, step-up)
 * waits for it. A server that is down, slow or broken fails alone: the others and the session go on.
 * Each server's entry and the waits around it are in manager-entry.ts.
 */
import {
  MCP_MAX_LOG_ENTRIES,
  MCP_RECONNECT_BASE_MS,
  MCP_RECONNECT_MAX_ATTEMPTS,
  MCP_RECONNECT_MAX_MS,
  MCP_WAIT_FOR_RECONNECT_MS,
  WORKSPACE_ROOT,
} from '../core/constants.ts';
import { messageOf } from '../core/errors.ts';
import type { AnyTool } from '../core/tool.ts';
import type { McpPromptInfo, McpResourceInfo } from './catalog.ts';
import { type ClientRequestHost, connectMcpServer, type McpConnection } from './connection.ts';
import { createInteractionQueue } from './interactions.ts';
import type { McpChange, McpManager, McpManagerOptions, McpSampler } from './manager-api.ts';
import {
  authState,
  type Entry,
  nextChange,
  providerFor,
  recovering,
  settleWaiters,
  unionTools,
  waitForSignIn,
} from './manager-entry.ts';
import { normalizeServerName } from './names.ts';
import { runSignIn, SignInError } from './oauth/flow.ts';
import { BrowserOAuthProvider, type McpAuthEnv } from './oauth/provider.ts';
import { createMemoryAuthStore } from './oauth/store.ts';
import { serverRequestHost } from './request-host.ts';
import { mapResourceContents } from './results.ts';
import { loadSchemaValidator } from './schema.ts';
import { normalizeConfig, target } from './server-config.ts';
import { McpAuthRequiredError } from './transport.ts';
import type { McpServerState, PersistedMcpServerConfig } from './types.ts';

export type { McpChange, McpManager, McpManagerOptions, McpSampler } from './manager-api.ts';
export { normalizeConfig } from './server-config.ts';

export function createMcpManager(options: McpManagerOptions = {}): McpManager {
  const entries = new Map<string, Entry>();
  const listeners = new Set<(change: McpChange) => void>();
  let toolList: readonly AnyTool[] = [];
  let disposed = false;
  let saving: Promise<void> = Promise.resolve();
  let sampler: McpSampler | undefined;
  const authEnv: McpAuthEnv = {
    store: options.auth?.store ?? createMemoryAuthStore(),
    redirectUrl: options.auth?.redirectUrl ?? 'http://localhost/mcp-oauth-callback.html',
    ...options.auth,
  } as McpAuthEnv;
  const backoff = {
    baseMs: options.reconnect?.baseMs ?? MCP_RECONNECT_BASE_MS,
    maxMs: options.reconnect?.maxMs ?? MCP_RECONNECT_MAX_MS,
    maxAttempts: options.reconnect?.maxAttempts ?? MCP_RECONNECT_MAX_ATTEMPTS,
  };
  const roots =
    options.roots === null
      ? undefined
      : (options.roots ?? (() => [{ uri: `file://${WORKSPACE_ROOT}`, name: 'project' }]));

  const recomputeTools = (): boolean => {
    const next = unionTools(entries.values(), toolList);
    const changed = next !== toolList;
    toolList = next;
    return changed;
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

  const queue = createInteractionQueue(() => {
    for (const l of listeners) {
      try {
        l({ server: '', state: undefined, toolsChanged: false });
      } catch (err) {
        console.error('tabcode: an MCP listener threw', err);
      }
    }
  });

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

  /** The host side of server requests for one server's connections. */
  const hostFor = (): ClientRequestHost =>
    serverRequestHost({ queue, elicitation: options.elicitation !== false, sampler: () => sampler, roots });

  /**
   * Waits until `entry` is connected: the connection, or an error a model can act on. A server being
   * reconnected is tried at once (once per call, not at the next backoff step), then waited for, step
   * after step, up to MCP_WAIT_FOR_RECONNECT_MS.
   */
  const connectionFor = async (entry: Entry, signal: AbortSignal): Promise<McpConnection> => {
    const name = entry.state.name;
    const deadline = Date.now() + MCP_WAIT_FOR_RECONNECT_MS;
    let kicked = false;
    for (;;) {
      if (entry.connection && entry.state.status === 'connected') return entry.connection;
      if (entries.get(name) !== entry || disposed)
        throw new Error(`The MCP server ${name} is not connected.`);
      if (entry.state.status === 'needs-auth' && entry.connection) {
        await waitForSignIn(entry, signal);
        if (entry.connection) return entry.connection;
      }
      if (entry.state.status === 'needs-auth') {
        throw new Error(
          `The MCP server ${name} needs the user to sign in (the MCP panel has a "Sign in" button). Ask the user to sign in, then try again.`,
        );
      }
      if (!kicked && entry.state.status === 'disconnected' && entry.reconnectTimer) {
        // Reconnect now rather than at the next backoff step: someone needs the server.
        kicked = true;
        clearTimeout(entry.reconnectTimer);
        entry.reconnectTimer = undefined;
        void connect(entry, true);
      }
      const left = deadline - Date.now();
      if (left <= 0 || signal.aborted) break;
      // Every attempt ends in a state change (connected, a new backoff step, failed, removed).
      if (entry.connecting || recovering(entry)) await nextChange(listeners, name, left, signal);
      else break;
    }
    if (signal.aborted) throw new Error('The call was interrupted.');
    throw new Error(
      `The MCP server ${name} is not connected${entry.state.error ? ` (${entry.state.error})` : ''}.`,
    );
  };

  const scheduleReconnect = (entry: Entry, reason: string) => {
    if (entry.reconnectAttempts >= backoff.maxAttempts || disposed) {
      setState(entry, { status: 'disconnected', toolCount: 0, error: reason, reconnectAt: undefined });
      return;
    }
    const delay = Math.min(backoff.baseMs * 2 ** entry.reconnectAttempts, backoff.maxMs);
    entry.reconnectAttempts++;
    clearTimeout(entry.reconnectTimer);
    const generation = entry.generation;
    entry.reconnectTimer = setTimeout(() => {
      entry.reconnectTimer = undefined;
      if (entries.get(entry.state.name) === entry && entry.generation === generation)
        void connect(entry, true);
    }, delay);
    setState(entry, { status: 'disconnected', toolCount: 0, error: reason, reconnectAt: Date.now() + delay });
  };

  const connect = (entry: Entry, automatic = false): Promise<McpServerState> => {
    const run = connectNow(entry, automatic).finally(() => {
      if (entry.connecting === run) entry.connecting = undefined;
    });
    entry.connecting = run;
    return run;
  };

  const connectNow = async (entry: Entry, automatic: boolean): Promise<McpServerState> => {
    const generation = ++entry.generation;
    const name = entry.state.name;
    const current = () => entries.get(name) === entry && entry.generation === generation && !disposed;
    const old = entry.connection;
    entry.connection = undefined;
    if (old) void old.close();
    setState(entry, {
      status: 'connecting',
      toolCount: 0,
      skipped: [],
      error: undefined,
      transport: undefined,
      reconnectAt: undefined,
    });
    let connection: McpConnection;
    try {
      const [authProvider, validateSchema] = await Promise.all([
        providerFor(entry, authEnv),
        loadSchemaValidator(),
      ]);
      const authorizer = authEnv.authorizer;
      const browser = authProvider instanceof BrowserOAuthProvider ? authProvider : undefined;
      connection = await connectMcpServer(
        entry.config,
        {
          onToolsChanged(adapted, hash) {
            if (!current()) return;
            entry.tools = { hash, adapted };
            setState(entry, { toolCount: adapted.tools.length, skipped: adapted.skipped });
          },
          onCatalogChanged() {
            if (!current() || !entry.connection) return;
            setState(entry, {
              resourceCount: entry.connection.resources().length,
              promptCount: entry.connection.prompts().length,
            });
          },
          onLost(reason) {
            if (!current()) return;
            entry.connection = undefined;
            queue.cancelServer(name);
            scheduleReconnect(entry, reason);
          },
          onLog(log) {
            if (!current()) return;
            entry.logs.push(log);
            if (entry.logs.length > MCP_MAX_LOG_ENTRIES)
              entry.logs.splice(0, entry.logs.length - MCP_MAX_LOG_ENTRIES);
            emit(name);
          },
        },
        {
          call: entry.call,
          ...(authProvider ? { authProvider } : {}),
          ...(browser && authorizer?.automatic ? { signIn: () => runSignIn(browser, authorizer, name) } : {}),
          ...(browser
            ? {
                reauthorize: async (signal?: AbortSignal) => {
                  if (authorizer?.automatic) return runSignIn(browser, authorizer, name, signal);
                  setState(entry, {
                    status: 'needs-auth',
                    ...authState(
                      entry,
                      'The server asks you to sign in again (expired, or it needs more permissions).',
                    ),
                  });
                  await waitForSignIn(entry, signal);
                },
              }
            : {}),
          host: hostFor(),
          validateSchema,
          ...(options.downscale ? { downscale: options.downscale } : {}),
          ...(entry.tools ? { previousTools: entry.tools } : {}),
        },
      );
    } catch (err) {
      if (!current()) return { ...entry.state };
      if (err instanceof McpAuthRequiredError) {
        setState(entry, { status: 'needs-auth', ...authState(entry), error: undefined });
      } else if (automatic && entry.reconnectAttempts > 0) {
        scheduleReconnect(entry, messageOf(err));
      } else {
        setState(entry, { status: 'failed', error: messageOf(err), ...authState(entry) });
      }
      return { ...entry.state };
    }
    if (!current()) {
      await connection.close();
      return { ...entry.state };
    }
    entry.connection = connection;
    entry.reconnectAttempts = 0;
    entry.tools = { hash: connection.toolsHash, adapted: connection.adapted };
    setState(entry, {
      status: 'connected',
      transport: connection.transport,
      toolCount: connection.adapted.tools.length,
      skipped: connection.adapted.skipped,
      serverInfo: connection.serverInfo,
      error: undefined,
      instructions: connection.instructions,
      resourceCount: connection.resources().length,
      promptCount: connection.prompts().length,
      ...authState(entry),
    });
    settleWaiters(entry);
    return { ...entry.state };
  };

  const closeEntry = async (entry: Entry) => {
    entry.generation++;
    clearTimeout(entry.reconnectTimer);
    entry.reconnectTimer = undefined;
    queue.cancelServer(entry.state.name);
    settleWaiters(entry, new Error(`The MCP server ${entry.state.name} was disconnected.`));
    const c = entry.connection;
    entry.connection = undefined;
    await c?.close();
  };

  const entryOf = (rawName: string): Entry | undefined => {
    try {
      return entries.get(normalizeServerName(rawName));
    } catch {
      return undefined;
    }
  };

  const connectedEntry = (server: string): Entry & { connection: McpConnection } => {
    const e = entryOf(server);
    if (!e) throw new Error(`There is no MCP server named "${server}".`);
    if (!e.connection || e.state.status !== 'connected') {
      throw new Error(`The MCP server ${e.state.name} is not connected (${e.state.status}).`);
    }
    return e as Entry & { connection: McpConnection };
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
        logs: [],
        reconnectAttempts: 0,
        signInWaiters: new Set(),
        state: {
          name: config.name,
          status: 'connecting',
          target: target(config),
          source: config.source ?? 'settings',
          toolCount: 0,
          skipped: [],
          since: Date.now(),
        },
        call: async (tool, args, callOptions) => {
          const conn = await connectionFor(entry, callOptions.signal);
          return conn.callTool(tool, args, callOptions);
        },
      };
      entries.set(config.name, entry);
      if (config.type === 'http' && config.source === 'settings') void persist();
      return connect(entry);
    },

    async removeServer(rawName) {
      const entry = entryOf(rawName);
      if (!entry) return false;
      const name = entry.state.name;
      entries.delete(name);
      const persisted = entry.config.type === 'http' && entry.config.source === 'settings';
      emit(name);
      await closeEntry(entry);
      // Removing a server forgets its sign-in too (the tokens are of no use without it).
      if (entry.provider) await authEnv.store.clear(entry.provider.key).catch(() => {});
      if (persisted) await persist();
      return true;
    },

    async reconnect(rawName) {
      const entry = entryOf(rawName);
      if (!entry || disposed) return undefined;
      entry.reconnectAttempts = 0;
      await closeEntry(entry);
      return connect(entry);
    },

    signIn(rawName) {
      const entry = entryOf(rawName);
      const authorizer = authEnv.authorizer;
      if (!entry || disposed) return Promise.resolve(undefined);
      const provider = entry.provider;
      if (!authorizer || !provider) {
        setState(entry, { ...authState(entry, 'Signing in is not available in this page.') });
        return Promise.resolve({ ...entry.state });
      }
      // Called synchronously from the click: runSignIn opens the popup before its first await.
      const signingIn = runSignIn(provider, authorizer, entry.state.name);
      return (async () => {
        try {
          await signingIn;
        } catch (err) {
          const message =
            err instanceof SignInError ? err.message : `Sign-in did not finish: ${messageOf(err)}`;
          setState(entry, { ...authState(entry, message) });
          return { ...entry.state };
        }
        if (entry.connection) {
          // Mid-session sign-in: the live connection goes on with the new tokens.
          setState(entry, { status: 'connected', error: undefined, ...authState(entry) });
          settleWaiters(entry);
          return { ...entry.state };
        }
        return connect(entry);
      })();
    },

    async signOut(rawName) {
      const entry = entryOf(rawName);
      if (!entry?.provider) return entry ? { ...entry.state } : undefined;
      await entry.provider.invalidateCredentials('all');
      await closeEntry(entry);
      return connect(entry);
    },

    servers: () => [...entries.values()].map((e) => ({ ...e.state, skipped: [...e.state.skipped] })),
    server(rawName) {
      const e = entryOf(rawName);
      return e ? { ...e.state } : undefined;
    },
    logs: (rawName) => [...(entryOf(rawName)?.logs ?? [])],
    tools: () => toolList,
    connectingServers: () =>
      [...entries.values()].filter((e) => e.state.status === 'connecting').map((e) => e.state.name),

    resources(server) {
      const out: McpResourceInfo[] = [];
      for (const e of entries.values()) {
        if (server !== undefined && e !== entryOf(server)) continue;
        if (e.connection && e.state.status === 'connected')
          for (const r of e.connection.resources()) out.push(r);
      }
      return out;
    },
    async readResource(server, uri, signal) {
      const e = connectedEntry(server);
      return e.connection.readResource(uri, signal);
    },
    async readResourceContent(server, uri, signal) {
      const e = connectedEntry(server);
      const raw = await e.connection.readResource(uri, signal);
      return mapResourceContents(raw, {
        displayName: `The resource ${uri}`,
        server: e.state.name,
        ...(options.downscale ? { downscale: options.downscale } : {}),
      });
    },
    prompts() {
      const out: McpPromptInfo[] = [];
      for (const e of entries.values()) {
        if (e.connection && e.state.status === 'connected')
          for (const p of e.connection.prompts()) out.push(p);
      }
      return out;
    },
    async getPrompt(server, name, args, signal) {
      const e = connectedEntry(server);
      return e.connection.getPrompt(name, args, signal);
    },

    interactions: () => queue.list(),
    answer: (id, answer) => queue.answer(id, answer),
    setSampler(next) {
      sampler = next;
    },

    takeReminders() {
      const out: string[] = [];
      for (const e of entries.values()) {
        const text = e.state.status === 'connected' ? e.state.instructions : undefined;
        if (!text || text === e.announced) continue;
        e.announced = text;
        out.push(
          `The MCP server "${e.state.name}" (tools mcp__${e.state.name}__*) gives these instructions for using it:\n${text}`,
        );
      }
      return out;
    },

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
