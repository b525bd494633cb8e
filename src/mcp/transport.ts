/**
 * Opening one MCP session on the real SDK Client: the transport (Streamable HTTP, the deprecated
 * HTTP+SSE as fallback, or in-page), OAuth through the server's provider, the connect timeout, and
 * readable reasons for every way it can fail. The SDK is loaded on first use, so a page without MCP
 * servers never downloads it.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { guardRequest, McpMalformedMessageError, reportMalformed, watchMalformed } from './malformed.ts';
import { guardFetch, guardTransport } from './response-guard.ts';
import type { McpServerConfig, McpServerState } from './types.ts';

/** The client's name and version sent in initialize. */
export const MCP_CLIENT_INFO = { name: 'tabcode', version: '0.1.0' };

async function loadSdk() {
  const [client, streamable, sse, types, auth] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]);
  return {
    ...client,
    ...streamable,
    ...sse,
    ...types,
    auth: auth.auth,
    UnauthorizedError: auth.UnauthorizedError,
  };
}

export type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdkPromise: Promise<Sdk> | undefined;

/** The SDK modules (loaded once). */
export function sdk(): Promise<Sdk> {
  sdkPromise ??= loadSdk();
  return sdkPromise;
}

export type TransportKind = NonNullable<McpServerState['transport']>;

/** The server asked for OAuth and nobody has signed in yet: the user must press "Sign in". */
export class McpAuthRequiredError extends Error {
  constructor(readonly server: string) {
    super(`The server ${server} needs you to sign in (OAuth). Press "Sign in" in the MCP panel.`);
    this.name = 'McpAuthRequiredError';
  }
}

export const errMessage = (err: unknown): string =>
  err instanceof Error ? err.message || err.name : String(err);

/** A readable reason for a failed HTTP request to the server at `url`. */
export function httpFailure(url: string, err: unknown): string {
  const msg = errMessage(err);
  // Already says which server and what was wrong with its message.
  if (err instanceof McpMalformedMessageError) return msg;
  if (err instanceof TypeError || /fetch failed|Failed to fetch|NetworkError|ECONNREFUSED/i.test(msg)) {
    return `Could not reach ${url} (${msg}). Is the server running, and does it answer CORS requests from this page?`;
  }
  if (
    err instanceof SyntaxError ||
    /is not valid JSON|Unexpected token|invalid_union|Invalid input/i.test(msg)
  ) {
    return `The server at ${url} sent a malformed JSON-RPC message: ${msg.slice(0, 300)}`;
  }
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number' && code >= 100) return `HTTP ${code} from ${url}: ${msg}`;
  return msg;
}

/**
 * True when the server no longer knows our session: HTTP 404 on a request carrying the session id
 * (the spec's signal to initialize again), or the 400 "no valid session" some servers send instead.
 */
export function isSessionGone(s: Sdk, err: unknown): boolean {
  if (!(err instanceof s.StreamableHTTPError)) return false;
  if (err.code === 404) return true;
  return err.code === 400 && /session/i.test(err.message);
}

function isFallbackStatus(s: Sdk, err: unknown): boolean {
  if (!(err instanceof s.StreamableHTTPError)) return false;
  const code = err.code ?? 0;
  return code >= 400 && code < 500 && code !== 401 && code !== 403;
}

/** `promise`, or a rejection with `message` after `ms` (calling `onTimeout` first). */
export async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  message: string,
  onTimeout: () => void = () => {},
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

export interface OpenOptions {
  config: McpServerConfig;
  timeoutMs: number;
  clientOptions: ClientOptions;
  /** Registers request and notification handlers on a fresh client before it connects. */
  setup: (client: Client) => void;
  /** The server's OAuth client (HTTP servers). */
  authProvider?: OAuthClientProvider;
  /**
   * Called when the server asks for a sign-in the provider cannot do alone: resolves once tokens are
   * stored (the connect is then tried again), or rejects (McpAuthRequiredError when the user must act).
   */
  signIn?: () => Promise<void>;
  /** Use this transport kind (a re-initialize keeps the one that worked). */
  kind?: TransportKind;
}

export interface OpenSession {
  client: Client;
  kind: TransportKind;
}

/** Most sign-ins one connect goes through (the first, then a step-up) before giving up. */
const MAX_SIGN_INS_PER_CONNECT = 2;

/**
 * Connects a fresh client to the server of `options.config`, within the timeout. Rejects with a
 * readable reason; McpAuthRequiredError when the user must sign in first.
 */
export async function openSession(options: OpenOptions): Promise<OpenSession> {
  const s = await sdk();
  const { config, timeoutMs } = options;

  /** The client of the latest attempt: the one the guarded fetch reports malformed messages to. */
  let current: Client | undefined;
  const tryConnect = async (transport: Transport, what: string): Promise<Client> => {
    const client = new s.Client(MCP_CLIENT_INFO, options.clientOptions);
    current = client;
    options.setup(client);
    // A malformed message during initialize fails the connect at once (malformed.ts).
    watchMalformed(client, transport, config.name);
    try {
      await withTimeout(
        guardRequest(client, (signal) => client.connect(transport, { timeout: timeoutMs, signal })),
        timeoutMs,
        `${what} did not answer initialize within ${timeoutMs} ms.`,
        () => void transport.close().catch(() => {}),
      );
      return client;
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  };

  if (config.type === 'in-page') {
    let transport: Transport;
    try {
      transport = guardTransport(await config.connect());
    } catch (err) {
      throw new Error(`The in-page server could not start: ${errMessage(err)}`);
    }
    return { client: await tryConnect(transport, 'The in-page server'), kind: 'in-page' };
  }

  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new Error(`Invalid server URL: ${config.url}`);
  }
  const requestInit: RequestInit | undefined = config.headers ? { headers: config.headers } : undefined;
  const authProvider = options.authProvider;
  // The OAuth client sees the server's answers (a 403 insufficient_scope starts a step-up).
  const observer = authProvider as { observe?: (res: Response) => void } | undefined;
  const observed: typeof fetch = observer?.observe
    ? async (input, init) => {
        const res = await fetch(input, init);
        observer.observe?.(res);
        return res;
      }
    : (input, init) => fetch(input, init);
  // Malformed answers fail their request at once instead of at its timeout (response-guard.ts).
  const fetchOption = {
    fetch: guardFetch(observed, (detail) => {
      if (current) reportMalformed(current, detail);
    }),
  };
  const mode = options.kind ?? (config.transport === 'sse' ? 'sse' : (config.transport ?? 'auto'));

  const attempt = async (): Promise<OpenSession> => {
    const viaSse = async (): Promise<Client> =>
      tryConnect(
        new s.SSEClientTransport(url, {
          requestInit,
          ...fetchOption,
          ...(authProvider ? { authProvider } : {}),
        }),
        `The server at ${url.href} (SSE)`,
      );
    if (mode === 'sse') return { client: await viaSse(), kind: 'sse' };
    try {
      const transport = new s.StreamableHTTPClientTransport(url, {
        requestInit,
        ...fetchOption,
        ...(authProvider ? { authProvider } : {}),
      });
      return { client: await tryConnect(transport, `The server at ${url.href}`), kind: 'streamable-http' };
    } catch (err) {
      if (mode !== 'auto' || !isFallbackStatus(s, err)) throw err;
      try {
        return { client: await viaSse(), kind: 'sse' };
      } catch (sseErr) {
        if (sseErr instanceof s.UnauthorizedError) throw sseErr;
        throw new Error(
          `Streamable HTTP failed (${httpFailure(url.href, err)}) and so did the SSE fallback (${httpFailure(url.href, sseErr)}).`,
        );
      }
    }
  };

  for (let signIns = 0; ; signIns++) {
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof s.UnauthorizedError && authProvider) {
        if (!options.signIn) throw new McpAuthRequiredError(config.name);
        if (signIns >= MAX_SIGN_INS_PER_CONNECT) {
          throw new Error(`The server at ${url.href} still refuses access after signing in (HTTP 401).`);
        }
        await options.signIn();
        continue;
      }
      if (err instanceof McpAuthRequiredError) throw err;
      if (/Server returned 401 after successful authentication/i.test(errMessage(err))) {
        throw new Error(
          `The server at ${url.href} refused the token its authorization server issued (HTTP 401 after signing in).`,
        );
      }
      if (err instanceof s.UnauthorizedError) {
        throw new Error(`The server at ${url.href} requires authorization (HTTP 401).`);
      }
      throw new Error(httpFailure(url.href, err));
    }
  }
}
