/**
 * Hosts MCP servers (real SDK `Server`/`McpServer` objects) over HTTP on loopback for tests: the
 * Streamable HTTP transport at /mcp (stateful sessions, one server object per session), or the
 * deprecated HTTP+SSE transport (GET /mcp opens the stream, POST /messages carries requests, POST /mcp
 * answers 405 — what makes a client fall back to SSE).
 *
 * Browser pages reach it cross-origin: every answer carries CORS headers (any origin, the MCP headers
 * allowed and `mcp-session-id` exposed, so the client can read its session id) and
 * `Cross-Origin-Resource-Policy: cross-origin`, which a cross-origin isolated page (COEP require-corp)
 * needs for anything it loads without CORS. Preflights also answer Chrome's Private Network Access
 * (`Access-Control-Allow-Private-Network: true`).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Anything with `connect(transport)` and `close()`: a low-level Server or an McpServer. */
export interface ConnectableServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface McpHttpHostOptions {
  /** Makes the server object for a new session. */
  createServer: () => ConnectableServer;
  /** 'streamable-http' (default) or 'sse' (legacy HTTP+SSE only). */
  mode?: 'streamable-http' | 'sse';
  /** Send CORS + CORP headers (default true). */
  cors?: boolean;
  /** Delay before answering each HTTP request (ms): a slow server. */
  delayMs?: number;
  host?: string;
  port?: number;
  /**
   * Checks each request to /mcp before it is handled (e.g. a bearer token): return an answer to send
   * instead (401 with WWW-Authenticate…), or undefined to let it through. Gets the parsed body of POSTs.
   */
  guard?: (req: IncomingMessage, body: unknown) => GuardAnswer | undefined;
  /** Serves other paths (e.g. /.well-known/oauth-protected-resource); true when it answered. */
  routes?: (req: IncomingMessage, res: ServerResponse, path: string) => boolean | Promise<boolean>;
  /** Answers that body of POST /mcp as given (malformed JSON-RPC tests): a string is sent as is. */
  rawAnswer?: (body: unknown) => { status: number; contentType: string; body: string } | undefined;
}

/** What a guard sends instead of handling the request. */
export interface GuardAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface McpHttpHost {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  url: string;
  port: number;
  /** Open sessions (Streamable HTTP) or streams (SSE). */
  sessionCount(): number;
  /** Every request seen: method and path. */
  requests: Array<{ method: string; path: string }>;
  /** Forgets every session, as a restarted server would (the next request with an old id gets 404). */
  dropSessions(): Promise<void>;
  /** Closes every session and the HTTP server (drops open sockets). */
  close(): Promise<void>;
}

/** The CORS + CORP headers every answer carries. */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const requested = req.headers['access-control-request-headers'];
  return {
    'Access-Control-Allow-Origin': req.headers.origin ?? '*',
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers':
      typeof requested === 'string' && requested
        ? requested
        : 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
    'Access-Control-Expose-Headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function jsonError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Starts the host; resolves once it listens. */
export async function startMcpHttpHost(options: McpHttpHostOptions): Promise<McpHttpHost> {
  const mode = options.mode ?? 'streamable-http';
  const streamable = new Map<
    string,
    { transport: StreamableHTTPServerTransport; server: ConnectableServer }
  >();
  const sse = new Map<string, { transport: SSEServerTransport; server: ConnectableServer }>();
  const requests: McpHttpHost['requests'] = [];
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://host').pathname;
    requests.push({ method: req.method ?? '', path });
    if (options.cors !== false) for (const [k, v] of Object.entries(corsHeaders(req))) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      if (req.headers['access-control-request-private-network'] === 'true') {
        res.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
      res.writeHead(204).end();
      return;
    }
    if (options.delayMs) await sleep(options.delayMs);

    if (mode === 'sse') {
      if (req.method === 'GET' && path === '/mcp') {
        const transport = new SSEServerTransport('/messages', res);
        const server = options.createServer();
        sse.set(transport.sessionId, { transport, server });
        transport.onclose = () => sse.delete(transport.sessionId);
        await server.connect(transport);
        return;
      }
      if (req.method === 'POST' && path === '/messages') {
        const id = new URL(req.url ?? '/', 'http://host').searchParams.get('sessionId') ?? '';
        const entry = sse.get(id);
        if (!entry) return jsonError(res, 404, 'Unknown session');
        await entry.transport.handlePostMessage(req, res, await readJson(req));
        return;
      }
      if (path === '/mcp') {
        res.writeHead(405, { allow: 'GET' }).end('Method Not Allowed: this server speaks HTTP+SSE only');
        return;
      }
      return jsonError(res, 404, 'Not found');
    }

    if (path !== '/mcp') {
      if (options.routes && (await options.routes(req, res, path))) return;
      return jsonError(res, 404, 'Not found');
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const refused = options.guard?.(req, body);
    if (refused) {
      res.writeHead(refused.status, { 'content-type': 'application/json', ...refused.headers });
      res.end(refused.body ?? JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const raw = options.rawAnswer?.(body);
    if (raw) {
      res.writeHead(raw.status, { 'content-type': raw.contentType });
      res.end(raw.body);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? streamable.get(sessionId) : undefined;
    if (existing) {
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return jsonError(res, sessionId ? 404 : 400, 'No valid session');
    if (sessionId) return jsonError(res, 404, 'Session not found');
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        streamable.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) streamable.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => jsonError(res, 500, `Internal error: ${String(err)}`));
  });
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/mcp`,
    port,
    sessionCount: () => streamable.size + sse.size,
    requests,
    async dropSessions() {
      const all = [...streamable.values(), ...sse.values()];
      streamable.clear();
      sse.clear();
      await Promise.all(all.map((e) => e.server.close().catch(() => {})));
    },
    async close() {
      const all = [...streamable.values(), ...sse.values()];
      streamable.clear();
      sse.clear();
      await Promise.all(all.map((e) => e.server.close().catch(() => {})));
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
