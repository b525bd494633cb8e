/**
 * The embed API: `mount(element, config)` renders the tabcode workbench into a host's element with the
 * config applied, and hands back a handle to drive it. The embedded page keeps nothing across loads
 * (sessions, settings and the project live in memory) and never shares the stand-alone page's storage.
 *
 * Keys never come from the config: a host either runs the scripted demo (`config.demo`, no key, no
 * network) or points `baseURL` at a proxy that adds the key. A bad config field is reported
 * (console.warn, an `embed-warning` DOM event on `element`, a notice in the page) and ignored.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { SessionRecord, SessionsStore } from '../agent/sessions-store.ts';
import type { AgentSession, AgentSettings, SessionEvent } from '../agent/types.ts';
import { createMemoryStore } from '../core/storage.ts';
import type { McpManager } from '../mcp/manager.ts';
import type { SandboxKind } from '../sandbox/sandbox.ts';
import { loadAgentModule } from '../ui/agent-module.ts';
import { createSettingsStore } from '../ui/settings-store.ts';
import type { CreateSession } from '../ui/use-workbench.ts';
import type { EmbedConfig, EmbedWarning } from './config.ts';
import { createDemoFetch } from './demo-fetch.ts';
import { EmbedShell } from './embed-shell.tsx';
import { type EmbedEvent, toEmbedEvent } from './protocol.ts';
import { validateEmbedConfig } from './validate-config.ts';
import '../ui/styles/base.css';
import '../ui/styles/layout.css';
import '../ui/styles/chat.css';
import '../ui/styles/markdown.css';
import '../ui/styles/highlight.css';
import '../ui/styles/tools.css';
import '../ui/styles/panels.css';
import '../ui/styles/dialog.css';

export type { EmbedConfig, EmbedWarning } from './config.ts';
export type { EmbedEvent } from './protocol.ts';

/** The DOM event dispatched on the mount element for each refused config field (`detail`: EmbedWarning). */
export const EMBED_WARNING_EVENT = 'embed-warning';

export interface EmbedHandle {
  /** Runs one user turn (shown in the transcript). Resolves when the turn ends; never rejects. */
  send(prompt: string): Promise<void>;
  /** Stops the running turn, like Esc. */
  interrupt(): void;
  /** Session events as a host sees them (see protocol.ts). Returns the unsubscribe function. */
  subscribe(listener: (event: EmbedEvent) => void): () => void;
  /** Removes the workbench from the element and stops its sandbox and MCP connections. */
  unmount(): Promise<void>;
  /** The config fields that were refused. */
  readonly warnings: readonly EmbedWarning[];
  /** The sandbox the agent works in. */
  readonly sandbox: SandboxKind;
}

/** Sessions kept in memory: an embedded demo starts fresh on every load. */
function memorySessionsStore(): SessionsStore {
  const records = new Map<string, SessionRecord>();
  return {
    list: async () =>
      [...records.values()]
        .map(({ id, title, createdAt, updatedAt, messages }) => ({
          id,
          title,
          createdAt,
          updatedAt,
          messageCount: messages.length,
        }))
        .sort((a, b) => b.updatedAt - a.updatedAt),
    load: async (id) => records.get(id),
    save: async (record) => void records.set(record.id, record),
    remove: async (id) => void records.delete(id),
  };
}

/** Settings kept in memory, with the embed's layout: no sessions list (an embed is narrow). */
function memorySettingsStore() {
  const map = new Map<string, unknown>([['prefs', { sessionsOpen: false }]]);
  return createSettingsStore({
    get: async <T>(key: string) => map.get(key) as T | undefined,
    set: async (key: string, value: unknown) => void map.set(key, value),
    del: async (key: string) => void map.delete(key),
  });
}

/**
 * Renders tabcode into `element` with `config` applied; resolves once the agent is up (its sandbox has
 * the config's files) and `send` works. `config` is checked as untrusted input. Rejects only when the
 * agent cannot start at all (the page then shows why).
 */
export async function mount(element: HTMLElement, config?: EmbedConfig): Promise<EmbedHandle> {
  const { config: cfg, warnings } = validateEmbedConfig(config);
  for (const warning of warnings) {
    console.warn(`tabcode: embed config: ${warning.field}: ${warning.message}`);
    element.dispatchEvent(new CustomEvent(EMBED_WARNING_EVENT, { detail: warning, bubbles: true }));
  }
  const agentModule = await loadAgentModule();
  const initialSettings: AgentSettings = {
    ...agentModule.defaultSettings(),
    apiKey: '',
    ...(cfg.baseURL ? { baseURL: cfg.baseURL } : {}),
    ...(cfg.model ? { model: cfg.model } : {}),
    ...(cfg.maxTokens ? { maxTokens: cfg.maxTokens } : {}),
    ...(cfg.permissionMode ? { permissionMode: cfg.permissionMode } : {}),
  };
  const keyless = Boolean(cfg.demo) || Boolean(cfg.baseURL);
  const managers: McpManager[] = [];

  const createSession: CreateSession = async ({ settings, sessionId }) => {
    const { createMcpManager } = await import('../mcp/manager.ts');
    // Only the config's servers (and those the user adds here, in memory): never the stand-alone page's.
    const mcp = createMcpManager();
    managers.push(mcp);
    for (const server of cfg.mcpServers ?? []) {
      mcp
        .addServer({
          type: 'http',
          name: server.name,
          url: server.url,
          transport:
            server.transport === 'sse' ? 'sse' : server.transport === 'http' ? 'streamable-http' : 'auto',
          ...(server.headers ? { headers: server.headers } : {}),
          source: 'embed',
        })
        .catch((err) => console.warn(`tabcode: embed MCP server ${server.name} is invalid`, err));
    }
    return agentModule.createAgentSession({
      settings,
      sessionId,
      openSandbox: { preference: cfg.sandbox ?? 'auto', files: cfg.files, store: null },
      mcp,
      permissions: { rules: cfg.permissions, storage: null },
      storage: { session: createMemoryStore(), results: createMemoryStore() },
      keyless,
      ...(cfg.demo ? { fetch: createDemoFetch(cfg.demo) } : {}),
    });
  };

  const listeners = new Set<(event: EmbedEvent) => void>();
  const forward = (e: SessionEvent) => {
    const event = toEmbedEvent(e);
    if (!event) return;
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        console.error('tabcode: an embed listener threw', err);
      }
    }
  };
  let agent: AgentSession | undefined;
  let unsubscribe: (() => void) | undefined;
  let resolveReady: (agent: AgentSession) => void = () => {};
  const ready = new Promise<AgentSession>((resolve) => {
    resolveReady = resolve;
  });
  const onAgent = (next: AgentSession) => {
    if (next === agent) return;
    unsubscribe?.();
    agent = next;
    unsubscribe = next.subscribe(forward);
    resolveReady(next);
  };

  const root = createRoot(element);
  // A session that cannot start (createSession rejects) shows its error in the page; mount rejects too.
  let bootFailed: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    bootFailed = reject;
  });
  const guardedCreate: CreateSession = (options) =>
    createSession(options).catch((err: unknown) => {
      bootFailed(err);
      throw err;
    });
  root.render(
    createElement(EmbedShell, {
      warnings,
      app: {
        createSession: guardedCreate,
        initialSettings,
        stores: { sessionsStore: memorySessionsStore(), settingsStore: memorySettingsStore() },
        keyless,
        onAgent,
      },
    }),
  );
  // On failure the page keeps showing why (its boot error banner).
  const first = await Promise.race([ready, failed]);

  let unmounted: Promise<void> | undefined;
  return {
    warnings,
    sandbox: first.sandbox.info().kind,
    async send(prompt) {
      if (unmounted) return;
      await (agent ?? first).send(prompt);
    },
    interrupt() {
      (agent ?? first).interrupt();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    unmount() {
      unmounted ??= (async () => {
        unsubscribe?.();
        listeners.clear();
        // The workbench disposes its agent (sandbox included) as it unmounts.
        root.unmount();
        await Promise.all(managers.map((m) => m.dispose().catch(() => {})));
      })();
      return unmounted;
    },
  };
}
