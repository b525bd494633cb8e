/**
 * MCP server configs and states. A config says where a server is (a URL, or a transport the host page
 * provides); a state says what the client knows about it right now. Both are plain data except the
 * in-page config, which carries a transport factory and is never persisted.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnyTool } from '../core/tool.ts';

/** Where a config came from: the user's settings (persisted), the embed config, or the host page. */
export type McpConfigSource = 'settings' | 'embed' | 'host';

interface McpServerConfigBase {
  /**
   * The server's name, used in tool names (`mcp__<name>__<tool>`). Normalized on add: characters
   * outside [a-zA-Z0-9_-] become `_`, at most MCP_MAX_SERVER_NAME_CHARS characters.
   */
  name: string;
  source?: McpConfigSource;
  /** Connect (transport + initialize + first tools/list) timeout; default MCP_CONNECT_TIMEOUT_MS. */
  connectTimeoutMs?: number;
  /** Per tools/call timeout; default MCP_TOOL_TIMEOUT_MS. */
  toolTimeoutMs?: number;
}

/**
 * How tabcode signs in to a server that asks for OAuth. Without it, sign-in still works: the
 * authorization-code flow with discovery and registration needs nothing configured. Settings keep only
 * `clientId` and `scope`; secrets, keys and ID tokens are accepted from a host page's config only and
 * never persisted.
 */
export interface McpOAuthConfig {
  /** 'authorization_code' (default: the user signs in in the browser), or a non-interactive grant. */
  grant?: 'authorization_code' | 'client_credentials' | 'cross_app_access';
  /** A client registered beforehand (no dynamic registration). */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
  /** client_credentials with private_key_jwt instead of a secret. */
  privateKeyPem?: string;
  signingAlgorithm?: string;
  /**
   * client_credentials: the issuer URL of the authorization server the credentials belong to. They are
   * then sent to that server only, whatever authorization server the MCP server names. Without it the
   * MCP server's choice is trusted (and the SDK warns).
   */
  issuer?: string;
  /** cross_app_access: the identity provider and the user's ID token from it. */
  idp?: { tokenEndpoint: string; idToken: string; clientId: string };
}

/**
 * A remote server over HTTP. `transport`: 'streamable-http', 'sse' (the deprecated HTTP+SSE
 * transport), or 'auto' (default): Streamable HTTP first, SSE when the server answers the initialize
 * POST with a 4xx (the spec's backwards-compatibility rule). A browser page reaches the server only if
 * it answers CORS (see src/mcp/README.md).
 */
export interface McpHttpServerConfig extends McpServerConfigBase {
  type: 'http';
  url: string;
  transport?: 'auto' | 'streamable-http' | 'sse';
  /** Extra request headers. A server that uses OAuth needs none: tabcode signs in (see `oauth`). */
  headers?: Record<string, string>;
  /** OAuth options (pre-registered client, scopes, non-interactive grants). */
  oauth?: McpOAuthConfig;
}

/**
 * A server the host page runs in the same page (or a worker/iframe it talks to): `connect` returns a
 * fresh client-side Transport each time the client connects, e.g. one end of
 * `InMemoryTransport.createLinkedPair()` or a `MessagePortTransport`. Never persisted.
 */
export interface McpInPageServerConfig extends McpServerConfigBase {
  type: 'in-page';
  connect: () => Transport | Promise<Transport>;
}

export type McpServerConfig = McpHttpServerConfig | McpInPageServerConfig;

/** A config that can be stored (JSON): HTTP servers only. */
export type PersistedMcpServerConfig = McpHttpServerConfig;

/** A tool the server listed that could not become a Tool, and why. */
export interface SkippedMcpTool {
  /** The tool's name as the server gave it (or `#<index>` when it had none). */
  name: string;
  reason: string;
}

/**
 * 'needs-auth': the server asked for OAuth and the user has to press "Sign in" (the browser opens the
 * authorization server's page). 'disconnected': it was connected and dropped; tabcode reconnects on
 * its own with backoff (`reconnectAt` says when it tries next).
 */
export type McpConnectionStatus = 'connecting' | 'connected' | 'needs-auth' | 'failed' | 'disconnected';

/** One `notifications/message` from a server (logging), as the MCP panel shows it. */
export interface McpLogEntry {
  level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
  logger?: string;
  /** The data as text (JSON for non-strings), cut to MCP_MAX_LOG_ENTRY_CHARS. */
  text: string;
  at: number;
}

/** What the client knows about one server right now (plain data, for the UI). */
export interface McpServerState {
  name: string;
  status: McpConnectionStatus;
  /** Where it was configured to be: the URL, or 'in-page'. */
  target: string;
  source: McpConfigSource;
  /** The transport in use once connected: 'streamable-http', 'sse' or 'in-page'. */
  transport?: 'streamable-http' | 'sse' | 'in-page';
  /** Number of usable tools (connected only). */
  toolCount: number;
  /** Tools the server listed that were skipped (malformed schema...), with reasons. */
  skipped: SkippedMcpTool[];
  /** Why it failed or disconnected. */
  error?: string;
  /** The server's own name/version from initialize. */
  serverInfo?: { name: string; version: string };
  /** OAuth: whether tabcode holds a token for this server (signed in), and the last sign-in problem. */
  auth?: { signedIn: boolean; error?: string };
  /** What the server offers besides tools (connected only). */
  resourceCount?: number;
  promptCount?: number;
  /** The server's `instructions` from initialize, cut to MCP_MAX_INSTRUCTIONS_CHARS. */
  instructions?: string;
  /** Set while disconnected: when the next automatic reconnect is tried (ms since epoch). */
  reconnectAt?: number;
  /** Set when the status last changed (ms since epoch). */
  since: number;
}

/** A live source of MCP tools, as the agent session reads it at every turn. */
export interface McpToolSource {
  /** Usable tools of every connected server, sorted by name. Same objects until something changes. */
  tools(): readonly AnyTool[];
  /** Names of servers still connecting (ToolSearch mentions them when nothing matches). */
  connectingServers(): string[];
}
