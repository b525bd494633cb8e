/**
 * One live connection to an MCP server on the real `@modelcontextprotocol/sdk` Client: transport
 * choice (Streamable HTTP, SSE fallback, in-page), connect with a timeout, tools/list (paginated,
 * parsed leniently so one malformed tool cannot sink the others), tools/list_changed refetches, and
 * tools/call with a timeout and the turn's abort signal. The SDK is loaded on first use, so a page
 * without MCP servers never downloads it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { MCP_CONNECT_TIMEOUT_MS, MCP_TOOL_TIMEOUT_MS } from '../core/constants.ts';
import { type AdaptedTools, adaptMcpTools } from './adapter.ts';
import type { McpServerConfig, McpServerState } from './types.ts';

/** The client's name and version sent in initialize. */
export const MCP_CLIENT_INFO = { name: 'tabcode', version: '0.1.0' };
/** Most tools/list pages read from one server (a guard against a server that never stops paging). */
const MAX_LIST_PAGES = 100;

const ListToolsLoose = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const CallToolLoose = z.looseObject({});

type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdkPromise: ReturnType<typeof loadSdk> | undefined;

async function loadSdk() {
  const [client, streamable, sse, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { ...client, ...streamable, ...sse, ...types };
}

function sdk(): ReturnType<typeof loadSdk> {
  sdkPromise ??= loadSdk();
  return sdkPromise;
}

export type TransportKind = NonNullable<McpServerState['transport']>;

export interface ConnectionHooks {
  /** The tool list changed (after a tools/list_changed refetch). */
  onToolsChanged(adapted: AdaptedTools): void;
  /** The connection ended without close() being called (server closed it, stream lost). */
  onLost(reason: string): void;
}

export interface McpConnection {
  readonly transport: TransportKind;
  readonly serverInfo?: { name: string; version: string };
  readonly adapted: AdaptedTools;
  /** Refetches tools/list now (also done on tools/list_changed). Never throws. */
  refresh(): Promise<void>;
  /** Ends the session (DELETE for Streamable HTTP) and closes the transport. Never throws. */
  close(): Promise<void>;
}

/** `promise`, or a rejection with `message` after `ms` (calling `onTimeout` first). */
async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  message: string,
  onTimeout: () => void,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(message));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const errMessage = (err: unknown): string => (err instanceof Error ? err.message || err.name : String(err));

/** A readable reason for a failed HTTP connect. */
function httpFailure(url: string, err: unknown): string {
  const msg = errMessage(err);
  if (err instanceof TypeError || /fetch failed|Failed to fetch|NetworkError|ECONNREFUSED/i.test(msg)) {
    return `Could not reach ${url} (${msg}). Is the server running, and does it answer CORS requests from this page?`;
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number' && code >= 100) return `HTTP ${code} from ${url}: ${msg}`;
  return msg;
}

function isFallbackStatus(s: Sdk, err: unknown): boolean {
  if (!(err instanceof s.StreamableHTTPError)) return false;
  const code = err.code ?? 0;
  return code >= 400 && code < 500 && code !== 401 && code !== 403;
}

/** Every tools/list page, raw. */
async function listAllTools(client: Client, timeoutMs: number): Promise<unknown[]> {
  const all: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const res = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      ListToolsLoose,
      { timeout: timeoutMs },
    );
    all.push(...res.tools);
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return all;
}

/**
 * Connects to the server of `config` (normalized name), lists its tools and watches for changes.
 * Rejects with a readable reason when it cannot connect within the timeout; a server without the
 * tools capability connects with no tools.
 */
export async function connectMcpServer(
  config: McpServerConfig,
  hooks: ConnectionHooks,
): Promise<McpConnection> {
  const s = await sdk();
  const connectTimeout = config.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS;
  const toolTimeout = config.toolTimeoutMs ?? MCP_TOOL_TIMEOUT_MS;
  let closing = false;
  let lost = false;

  const newClient = (): Client => new s.Client(MCP_CLIENT_INFO, { capabilities: {} });

  /** connect() on a fresh client, within the timeout; closes the transport on failure. */
  const tryConnect = async (transport: Transport, what: string): Promise<Client> => {
    const client = newClient();
    try {
      await withTimeout(
        client.connect(transport, { timeout: connectTimeout }),
        connectTimeout,
        `${what} did not answer initialize within ${connectTimeout} ms.`,
        () => void transport.close().catch(() => {}),
      );
      return client;
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  };

  let client: Client;
  let kind: TransportKind;
  const started = Date.now();
  if (config.type === 'in-page') {
    let transport: Transport;
    try {
      transport = await config.connect();
    } catch (err) {
      throw new Error(`The in-page server could not start: ${errMessage(err)}`);
    }
    client = await tryConnect(transport, 'The in-page server');
    kind = 'in-page';
  } else {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new Error(`Invalid server URL: ${config.url}`);
    }
    const requestInit: RequestInit | undefined = config.headers ? { headers: config.headers } : undefined;
    const mode = config.transport ?? 'auto';
    const viaSse = async (): Promise<Client> =>
      tryConnect(new s.SSEClientTransport(url, { requestInit }), `The server at ${url.href} (SSE)`);
    if (mode === 'sse') {
      try {
        client = await viaSse();
      } catch (err) {
        throw new Error(httpFailure(url.href, err));
      }
      kind = 'sse';
    } else {
      try {
        client = await tryConnect(
          new s.StreamableHTTPClientTransport(url, { requestInit }),
          `The server at ${url.href}`,
        );
        kind = 'streamable-http';
      } catch (err) {
        if (mode !== 'auto' || !isFallbackStatus(s, err)) throw new Error(httpFailure(url.href, err));
        try {
          client = await viaSse();
          kind = 'sse';
        } catch (sseErr) {
          throw new Error(
            `Streamable HTTP failed (${httpFailure(url.href, err)}) and so did the SSE fallback (${httpFailure(url.href, sseErr)}).`,
          );
        }
      }
    }
  }

  const serverInfo = client.getServerVersion();
  const hasTools = client.getServerCapabilities()?.tools !== undefined;
  const server = config.name;

  const call = async (
    toolName: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<unknown> => {
    if (lost || closing) throw new Error(`The MCP server ${server} is not connected.`);
    try {
      return await client.request(
        { method: 'tools/call', params: { name: toolName, arguments: args } },
        CallToolLoose,
        {
          signal,
          timeout: toolTimeout,
        },
      );
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof s.McpError && err.code === s.ErrorCode.RequestTimeout) {
        throw new Error(
          `The MCP server ${server} did not answer ${toolName} within ${toolTimeout} ms (timed out).`,
        );
      }
      throw new Error(`The MCP server ${server} failed to run ${toolName}: ${errMessage(err)}`);
    }
  };

  const list = async (timeout: number): Promise<AdaptedTools> =>
    adaptMcpTools(hasTools ? await listAllTools(client, timeout) : [], { server, call });

  let adapted: AdaptedTools;
  try {
    const left = Math.max(1, connectTimeout - (Date.now() - started));
    adapted = await withTimeout(
      list(left),
      left,
      `tools/list did not answer within ${connectTimeout} ms.`,
      () => {},
    );
  } catch (err) {
    await client.close().catch(() => {});
    throw new Error(`Connected, but listing tools failed: ${errMessage(err)}`);
  }

  // tools/list_changed: refetch, one at a time; a change during a refetch triggers one more.
  let refreshing: Promise<void> | undefined;
  let again = false;
  const refresh = async (): Promise<void> => {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          const next = await list(toolTimeout);
          if (closing || lost) return;
          connection.adapted = next;
          hooks.onToolsChanged(next);
        } catch (err) {
          if (!closing && !lost)
            console.warn(`tabcode: refreshing the tools of MCP server ${server} failed`, err);
        }
      } while (again && !closing && !lost);
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };
  client.setNotificationHandler(s.ToolListChangedNotificationSchema, () => void refresh());

  const markLost = (reason: string) => {
    if (closing || lost) return;
    lost = true;
    hooks.onLost(reason);
  };
  client.onclose = () => markLost('The server closed the connection.');
  client.onerror = (err) => {
    // The Streamable HTTP transport gives up on its event stream after a few retries: the server is gone.
    if (/Maximum reconnection attempts/i.test(errMessage(err))) {
      markLost('Lost the connection: the server stopped answering.');
    }
  };

  const connection: McpConnection & { adapted: AdaptedTools } = {
    transport: kind,
    ...(serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
    adapted,
    refresh,
    async close() {
      if (closing) return;
      closing = true;
      const transport = client.transport;
      if (transport instanceof s.StreamableHTTPClientTransport && !lost) {
        await withTimeout(transport.terminateSession(), 2_000, 'terminate timed out', () => {}).catch(
          () => {},
        );
      }
      await client.close().catch(() => {});
    },
  };
  return connection;
}
