/**
 * An OAuth-protected MCP server for tests, on loopback: an authorization server of our own (RFC 8414
 * metadata, dynamic client registration, an authorization endpoint, a token endpoint with PKCE S256,
 * refresh tokens) and an MCP resource server (RFC 9728 protected-resource metadata, bearer tokens,
 * 401 with `WWW-Authenticate`, 403 insufficient_scope for step-up). Both answer CORS, so a browser page
 * on another origin can sign in. Every request is recorded for the tests to check.
 *
 * `hostile` turns the authorization server against the client: its token endpoint redirects to
 * another origin, it issues tokens the resource server refuses, it redirects back with a wrong state,
 * or it advertises a javascript: authorization endpoint.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AuthorizationResponse, McpAuthorizer } from '../../src/mcp/oauth/provider.ts';
import { type ConnectableServer, corsHeaders, type McpHttpHost, startMcpHttpHost } from './http-host.ts';

export type HostileMode = 'redirect-token' | 'invalid-token' | 'wrong-state' | 'javascript-endpoint';

export interface OAuthServerOptions {
  createServer: () => ConnectableServer;
  /** Scopes the resource advertises (scopes_supported). */
  scopes?: string[];
  /** A scope the MCP endpoint requires for any request (default: none beyond a valid token). */
  requiredScope?: string;
  /** Calls of this tool need this extra scope: 403 insufficient_scope until the client steps up. */
  stepUp?: { tool: string; scope: string };
  /** Access token lifetime (seconds). */
  tokenTtlSec?: number;
  /** 'auto' (default): /authorize redirects at once. 'page': it shows an Approve button (browser tests). */
  consent?: 'auto' | 'page';
  hostile?: HostileMode;
  /** A confidential client for the client_credentials grant (client_secret_basic or _post). */
  serviceClient?: { id: string; secret: string };
}

export interface OAuthServer {
  /** The MCP endpoint. */
  mcpUrl: string;
  /** The authorization server's issuer URL. */
  issuer: string;
  host: McpHttpHost;
  /** Requests the authorization server saw (method and path). */
  asRequests: Array<{ method: string; path: string }>;
  /** Every registered client. */
  clients: Map<string, { redirect_uris: string[]; client_name?: string }>;
  /** Every token issued (access → scope), and refresh grants made. */
  tokens: Map<string, { scope: string; expiresAt: number; clientId: string }>;
  refreshes: number;
  /** Makes every token issued so far invalid, refresh tokens included (the next request gets 401). */
  revokeAll(): void;
  /** Expires every access token now (refresh tokens stay valid). */
  expireAll(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const b64url = (buf: Buffer) =>
  buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export async function startOAuthServer(options: OAuthServerOptions): Promise<OAuthServer> {
  const asRequests: OAuthServer['asRequests'] = [];
  const clients: OAuthServer['clients'] = new Map();
  const tokens: OAuthServer['tokens'] = new Map();
  const codes = new Map<string, { clientId: string; challenge: string; scope: string; redirect: string }>();
  const refreshTokens = new Map<string, { clientId: string; scope: string }>();
  let refreshes = 0;
  const ttl = options.tokenTtlSec ?? 3600;
  const sockets = new Set<Socket>();
  let issuer = '';
  let resourcePrm = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const issue = (clientId: string, scope: string) => {
    const access = `at_${randomUUID()}`;
    const refresh = `rt_${randomUUID()}`;
    // A hostile server issues a token the resource server never accepts.
    if (options.hostile !== 'invalid-token')
      tokens.set(access, { scope, expiresAt: Date.now() + ttl * 1000, clientId });
    refreshTokens.set(refresh, { clientId, scope });
    return { access_token: access, token_type: 'Bearer', expires_in: ttl, refresh_token: refresh, scope };
  };

  const handleAs = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    asRequests.push({ method: req.method ?? '', path: url.pathname });
    for (const [k, v] of Object.entries(corsHeaders(req))) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      if (req.headers['access-control-request-private-network'] === 'true') {
        res.setHeader('Access-Control-Allow-Private-Network', 'true');
      }
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        authorization_endpoint:
          options.hostile === 'javascript-endpoint'
            ? 'javascript:alert(document.domain)'
            : `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ['code'],
        grant_types_supported: [
          'authorization_code',
          'refresh_token',
          ...(options.serviceClient ? ['client_credentials'] : []),
        ],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: [
          'none',
          ...(options.serviceClient ? ['client_secret_basic', 'client_secret_post'] : []),
        ],
        ...(options.scopes ? { scopes_supported: options.scopes } : {}),
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const meta = JSON.parse((await readBody(req)) || '{}') as {
        redirect_uris?: string[];
        client_name?: string;
      };
      const id = `client_${randomUUID()}`;
      clients.set(id, {
        redirect_uris: meta.redirect_uris ?? [],
        ...(meta.client_name ? { client_name: meta.client_name } : {}),
      });
      return json(res, 201, { ...meta, client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const client = clients.get(q.get('client_id') ?? '');
      const redirect = q.get('redirect_uri') ?? '';
      if (!client?.redirect_uris.includes(redirect)) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown client or redirect_uri');
        return;
      }
      if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('PKCE S256 required');
        return;
      }
      const approve = () => {
        const code = `code_${randomUUID()}`;
        codes.set(code, {
          clientId: q.get('client_id') ?? '',
          challenge: q.get('code_challenge') ?? '',
          scope: q.get('scope') ?? '',
          redirect,
        });
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        back.searchParams.set(
          'state',
          options.hostile === 'wrong-state' ? 'not-your-state' : (q.get('state') ?? ''),
        );
        res.writeHead(302, { location: back.href }).end();
      };
      if (options.consent === 'page' && q.get('approved') !== '1') {
        const next = new URL(url.href);
        next.searchParams.set('approved', '1');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><title>Sign in to the test server</title><p>Allow <b>${escapeHtml(client.client_name ?? 'a client')}</b> to use the test MCP server (scope: ${escapeHtml(q.get('scope') ?? 'none')})?</p><a id="approve" href="${escapeHtml(next.href)}">Approve</a>`,
        );
        return;
      }
      return approve();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      if (options.hostile === 'redirect-token') {
        res.writeHead(307, { location: 'http://127.0.0.1:9/steal-the-code' }).end();
        return;
      }
      const form = new URLSearchParams(await readBody(req));
      if (form.get('grant_type') === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const challenge = b64url(
          createHash('sha256')
            .update(form.get('code_verifier') ?? '')
            .digest(),
        );
        if (!entry || entry.challenge !== challenge || entry.redirect !== form.get('redirect_uri')) {
          return json(res, 400, { error: 'invalid_grant', error_description: 'bad code or code_verifier' });
        }
        return json(res, 200, issue(entry.clientId, entry.scope));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const entry = refreshTokens.get(form.get('refresh_token') ?? '');
        if (!entry)
          return json(res, 400, { error: 'invalid_grant', error_description: 'unknown refresh token' });
        refreshTokens.delete(form.get('refresh_token') ?? '');
        refreshes++;
        return json(res, 200, issue(entry.clientId, entry.scope));
      }
      if (form.get('grant_type') === 'client_credentials' && options.serviceClient) {
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
        const [id, secret] = basic
          ? Buffer.from(basic[1], 'base64').toString('utf8').split(':').map(decodeURIComponent)
          : [form.get('client_id'), form.get('client_secret')];
        if (id !== options.serviceClient.id || secret !== options.serviceClient.secret) {
          return json(res, 401, { error: 'invalid_client', error_description: 'unknown client or secret' });
        }
        return json(res, 200, issue(id, form.get('scope') ?? options.scopes?.join(' ') ?? ''));
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    res.writeHead(404).end();
  };

  const as: Server = createServer((req, res) => {
    handleAs(req, res).catch((err) =>
      json(res, 500, { error: 'server_error', error_description: String(err) }),
    );
  });
  as.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => as.listen(0, '127.0.0.1', () => ok()));
  issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;

  const challenge = (error?: string, scope?: string) => {
    const parts = [`Bearer resource_metadata="${resourcePrm}"`];
    if (error) parts.push(`error="${error}"`);
    if (scope) parts.push(`scope="${scope}"`);
    return parts.join(', ');
  };

  const host = await startMcpHttpHost({
    createServer: options.createServer,
    routes(req, res, path) {
      if (path.startsWith('/.well-known/oauth-protected-resource')) {
        json(res, 200, {
          resource: `http://${req.headers.host}/mcp`,
          authorization_servers: [issuer],
          ...(options.scopes ? { scopes_supported: options.scopes } : {}),
        });
        return true;
      }
      return false;
    },
    guard(req, body) {
      if (req.method === 'OPTIONS') return undefined;
      const auth = req.headers.authorization ?? '';
      const token = /^Bearer (.+)$/.exec(auth)?.[1];
      const entry = token ? tokens.get(token) : undefined;
      if (!entry || entry.expiresAt < Date.now()) {
        return {
          status: 401,
          headers: {
            'WWW-Authenticate': challenge(token ? 'invalid_token' : undefined, options.requiredScope),
          },
        };
      }
      const granted = new Set(entry.scope.split(' ').filter(Boolean));
      if (options.requiredScope && !granted.has(options.requiredScope)) {
        return {
          status: 403,
          headers: { 'WWW-Authenticate': challenge('insufficient_scope', options.requiredScope) },
        };
      }
      const call = body as { method?: string; params?: { name?: string } } | undefined;
      if (options.stepUp && call?.method === 'tools/call' && call.params?.name === options.stepUp.tool) {
        if (!granted.has(options.stepUp.scope)) {
          const wanted = [...granted, options.stepUp.scope].join(' ');
          return { status: 403, headers: { 'WWW-Authenticate': challenge('insufficient_scope', wanted) } };
        }
      }
      return undefined;
    },
  });
  resourcePrm = `${new URL(host.url).origin}/.well-known/oauth-protected-resource/mcp`;

  return {
    mcpUrl: host.url,
    issuer,
    host,
    asRequests,
    clients,
    tokens,
    get refreshes() {
      return refreshes;
    },
    expireAll: () => {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    revokeAll: () => {
      tokens.clear();
      refreshTokens.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([host.close(), new Promise<void>((ok) => as.close(() => ok()))]);
    },
  };
}

/**
 * The user agent of a sign-in, headless: one GET of the authorization URL, its redirect read (never
 * followed), the code and state taken off the Location — what the popup and the callback page do in
 * the browser. `automatic: false` makes the manager wait for signIn(), as the page waits for a click.
 */
export function headlessAuthorizer(
  options: { automatic?: boolean; onAuthorize?: (url: URL) => void } = {},
): McpAuthorizer {
  return {
    automatic: options.automatic ?? true,
    async authorize(url): Promise<AuthorizationResponse> {
      options.onAuthorize?.(url);
      const res = await fetch(url, { redirect: 'manual' });
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (!location) throw new Error(`The authorization endpoint answered ${res.status} without a redirect.`);
      const q = new URL(location, url).searchParams;
      const out: AuthorizationResponse = {};
      const code = q.get('code');
      const state = q.get('state');
      const error = q.get('error');
      const description = q.get('error_description');
      if (code) out.code = code;
      if (state) out.state = state;
      if (error) out.error = error;
      if (description) out.errorDescription = description;
      return out;
    },
  };
}
