import type { McpPromptInfo, McpResourceInfo } from './catalog.ts';
import type { McpInteraction, McpInteractionAnswer } from './interactions.ts';
import type { McpAuthEnv } from './oauth/provider.ts';
import type { ImageDownscaler, McpResultBlock } from './results.ts';
import type { McpConfigStore } from './storage.ts';
import type { McpLogEntry, McpServerConfig, McpServerState, McpToolSource } from './types.ts';

/** What changed: a server's new state (undefined once removed), and whether tools() changed. */
export interface McpChange {
  server: string;
  state: McpServerState | undefined;
  toolsChanged: boolean;
}

/** Runs a sampling request on tabcode's model (set by the agent session): the MCP CreateMessageResult. */
export type McpSampler = (
  params: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

export interface McpManager extends McpToolSource {
  /**
   * Adds (or replaces) a server and connects to it. Resolves with its state once connected, failed or
   * waiting for a sign-in; rejects only for an invalid config (bad name or URL). Settings-sourced HTTP
   * configs are persisted.
   */
  addServer(config: McpServerConfig): Promise<McpServerState>;
  /** Disconnects and forgets a server (its persisted config and its sign-in). False when there was none. */
  removeServer(name: string): Promise<boolean>;
  /** Connects again to a known server (after a failure or a disconnect). */
  reconnect(name: string): Promise<McpServerState | undefined>;
  /**
   * Signs in to a server that needs it: opens the authorization page (call it from a click, so the
   * browser allows the popup), then connects. Resolves with the new state; a failed sign-in leaves the
   * server `needs-auth` with the reason in `auth.error`.
   */
  signIn(name: string): Promise<McpServerState | undefined>;
  /** Forgets the server's tokens and registration (sign out); it then needs a new sign-in. */
  signOut(name: string): Promise<McpServerState | undefined>;
  /** Every server's state, in the order they were added. */
  servers(): McpServerState[];
  server(name: string): McpServerState | undefined;
  /** The server's latest log messages (notifications/message), oldest first. */
  logs(name: string): McpLogEntry[];
  /** Resources (and templates) of connected servers, of one server when named. */
  resources(server?: string): McpResourceInfo[];
  /** Reads a resource: the raw resources/read result. Rejects with a readable reason. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<unknown>;
  /** Reads a resource as content blocks for the model (text, images, notes for other blobs). */
  readResourceContent(server: string, uri: string, signal?: AbortSignal): Promise<McpResultBlock[]>;
  /** Prompts of connected servers. */
  prompts(): McpPromptInfo[];
  /** Gets a prompt: the raw prompts/get result. Rejects with a readable reason. */
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Elicitation and sampling requests waiting for the user, oldest first. */
  interactions(): McpInteraction[];
  /** Answers one of them; false when it is no longer pending. */
  answer(id: string, answer: McpInteractionAnswer): boolean;
  /** Offers sampling to servers connected from now on (each request still needs the user's approval). */
  setSampler(sampler: McpSampler | undefined): void;
  /**
   * Context the model should get before the next request: the `instructions` of servers that
   * connected (or changed them) since the last call. Each is returned once.
   */
  takeReminders(): string[];
  /** Adds every persisted server (resolves once each has connected or failed). */
  loadPersisted(): Promise<void>;
  onChange(listener: (change: McpChange) => void): () => void;
  /** Closes every connection; the manager is unusable afterwards. */
  dispose(): Promise<void>;
}

export interface McpManagerOptions {
  /** Where settings-sourced configs are saved; none: nothing is persisted. */
  store?: McpConfigStore;
  /** OAuth: the token store (default: memory), redirect URI, authorizer, client metadata document. */
  auth?: Partial<McpAuthEnv>;
  /** The roots offered to servers (default: the workspace); null: the capability is not declared. */
  roots?: (() => Array<{ uri: string; name?: string }>) | null;
  /** False: elicitation is not declared (servers hide their interactive tools). Default true. */
  elicitation?: boolean;
  /** Shrinks images too large for the model (the page's canvas). */
  downscale?: ImageDownscaler;
  /** Reconnect backoff (tests use short ones). */
  reconnect?: { baseMs?: number; maxMs?: number; maxAttempts?: number };
}
