/**
 * OAuth sign-in through the real manager, connection and the SDK's auth(), against an authorization
 * server and an OAuth-protected MCP server of our own on loopback (e2e/mcp/oauth-server.ts): discovery,
 * dynamic registration, PKCE, tokens stored per server (memory and IndexedDB), refresh, step-up, the
 * "Sign in" state, sign-out, and hostile authorization servers. The browser's popup is replaced by a
 * headless user agent that reads the authorization redirect (the Chromium e2e runs the real popup).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { headlessAuthorizer, type OAuthServer, startOAuthServer } from '../../e2e/mcp/oauth-server.ts';
import { createRichServer } from '../../e2e/mcp/rich-server.ts';
import { createToolUseContext } from '../core/context.ts';
import { createIdbStore } from '../core/storage.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import { createMcpManager, type McpManager, type McpManagerOptions } from './manager.ts';
import { authKey, createAuthStore, createMemoryAuthStore, type McpAuthStore } from './oauth/store.ts';
import { createIdbConfigStore } from './storage.ts';

const REDIRECT = 'http://localhost:5173/mcp-oauth-callback.html';
const servers: OAuthServer[] = [];
const managers: McpManager[] = [];
let ctx: Awaited<ReturnType<typeof createToolUseContext>>;

beforeAll(async () => {
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function oauthServer(options: Omit<Parameters<typeof startOAuthServer>[0], 'createServer'> = {}) {
  const rich = createRichServer();
  const server = await startOAuthServer({ createServer: () => rich.createServer(), ...options });
  servers.push(server);
  return server;
}

function manager(auth: McpManagerOptions['auth'] = {}, extra: McpManagerOptions = {}): McpManager {
  const m = createMcpManager({
    auth: {
      store: createMemoryAuthStore(),
      redirectUrl: REDIRECT,
      authorizer: headlessAuthorizer(),
      ...auth,
    },
    ...extra,
  });
  managers.push(m);
  return m;
}

async function call(m: McpManager, name: string, input: Record<string, unknown> = {}) {
  const tool = m.tools().find((t) => t.name === name);
  if (!tool) throw new Error(`no ${name}: ${m.tools().map((t) => t.name)}`);
  const out = await tool.call(input, { ...ctx, abortController: new AbortController() });
  return tool.mapToolResultToToolResultBlockParam(out.data, 't');
}

describe('OAuth sign-in', () => {
  it('discovers, registers, signs in with PKCE and calls tools with the token; stored per server', async () => {
    const as = await oauthServer({ scopes: ['mcp:read', 'mcp:write'] });
    const store = createMemoryAuthStore();
    const m = manager({ store });
    const state = await m.addServer({ type: 'http', name: 'secure', url: as.mcpUrl });
    expect(state).toMatchObject({ status: 'connected', auth: { signedIn: true }, toolCount: 14 });
    // RFC 9728 then RFC 8414 discovery, dynamic registration, the authorization and the token request.
    expect(as.asRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /.well-known/oauth-authorization-server',
      'POST /register',
      'GET /authorize',
      'POST /token',
    ]);
    expect([...as.clients.values()]).toEqual([{ redirect_uris: [REDIRECT], client_name: 'tabcode' }]);
    const [token] = [...as.tokens.values()];
    expect(token.scope).toBe('mcp:read mcp:write'); // scopes_supported, as the spec says
    expect(await call(m, 'mcp__secure__whoami')).toMatchObject({ content: 'you are signed in' });

    const record = await store.load(authKey(as.mcpUrl));
    expect(record.tokens?.access_token).toMatch(/^at_/);
    expect(record.clientInformation?.client_id).toMatch(/^client_/);
    expect(record.codeVerifier).toBeUndefined(); // gone once used
    expect(await store.keys()).toEqual([authKey(as.mcpUrl)]);

    // A second manager with the same store reuses the sign-in: no new authorization.
    const before = as.asRequests.length;
    const again = manager({ store });
    expect(await again.addServer({ type: 'http', name: 'secure', url: as.mcpUrl })).toMatchObject({
      status: 'connected',
    });
    expect(as.asRequests.slice(before).filter((r) => r.path === '/authorize')).toEqual([]);
  });

  it('a server that needs a sign-in waits for "Sign in", then connects; sign-out forgets the tokens', async () => {
    const as = await oauthServer();
    const opened: URL[] = [];
    const store = createMemoryAuthStore();
    const m = manager({
      store,
      authorizer: headlessAuthorizer({ automatic: false, onAuthorize: (u) => opened.push(u) }),
    });
    const waiting = await m.addServer({ type: 'http', name: 'secure', url: as.mcpUrl });
    expect(waiting).toMatchObject({ status: 'needs-auth', auth: { signedIn: false } });
    expect(m.tools()).toEqual([]);
    expect(opened).toEqual([]); // nothing opens without the user's click

    const signedIn = await m.signIn('secure');
    expect(signedIn).toMatchObject({ status: 'connected', auth: { signedIn: true } });
    expect(opened).toHaveLength(1);
    const q = opened[0].searchParams;
    expect(opened[0].origin + opened[0].pathname).toBe(`${as.issuer}/authorize`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('redirect_uri')).toBe(REDIRECT);
    expect(q.get('resource')).toBe(as.mcpUrl);
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(m.tools().length).toBeGreaterThan(0);

    const out = await m.signOut('secure');
    expect(out).toMatchObject({ status: 'needs-auth', auth: { signedIn: false } });
    expect((await store.load(authKey(as.mcpUrl))).tokens).toBeUndefined();
    await m.signIn('secure');
    expect(await m.removeServer('secure')).toBe(true);
    expect(await store.keys()).toEqual([]); // removing a server forgets its sign-in
  });

  it('refreshes an expired token without the user, and signs in again when the refresh is refused', async () => {
    const as = await oauthServer();
    const m = manager();
    await m.addServer({ type: 'http', name: 'secure', url: as.mcpUrl });
    as.expireAll();
    expect(await call(m, 'mcp__secure__whoami')).toMatchObject({
      content: expect.stringMatching(/^you are /),
    });
    expect(as.refreshes).toBe(1);
    expect(as.asRequests.filter((r) => r.path === '/authorize')).toHaveLength(1);
    // Everything revoked: the refresh is refused (invalid_grant), so a new authorization runs.
    as.revokeAll();
    expect(await call(m, 'mcp__secure__whoami')).toMatchObject({
      content: expect.stringMatching(/^you are /),
    });
    expect(as.asRequests.filter((r) => r.path === '/authorize')).toHaveLength(2);
  });

  it('step-up: a tool that needs a wider scope gets a second authorization with it, then runs', async () => {
    const as = await oauthServer({ scopes: ['mcp:read'], stepUp: { tool: 'make_link', scope: 'mcp:admin' } });
    const opened: URL[] = [];
    const m = manager({ authorizer: headlessAuthorizer({ onAuthorize: (u) => opened.push(u) }) });
    await m.addServer({ type: 'http', name: 'secure', url: as.mcpUrl });
    const link = await call(m, 'mcp__secure__make_link');
    expect(link.is_error).toBeUndefined();
    expect(String(link.content)).toContain('memo://notes/1');
    expect(opened.map((u) => u.searchParams.get('scope'))).toEqual(['mcp:read', 'mcp:read mcp:admin']);
  });

  it('in the page, a step-up waits for the user to sign in again; the call then goes on', async () => {
    const as = await oauthServer({ scopes: ['mcp:read'], stepUp: { tool: 'make_link', scope: 'mcp:admin' } });
    const m = manager({ authorizer: headlessAuthorizer({ automatic: false }) });
    await m.addServer({ type: 'http', name: 'secure', url: as.mcpUrl });
    await m.signIn('secure');
    const pending = call(m, 'mcp__secure__make_link');
    await expect.poll(() => m.server('secure')?.status).toBe('needs-auth');
    expect(m.tools().length).toBeGreaterThan(0); // the live connection keeps its tools meanwhile
    await m.signIn('secure');
    expect(String((await pending).content)).toContain('memo://notes/1');
    expect(m.server('secure')?.status).toBe('connected');
  });

  it('keeps tokens in IndexedDB per server, never in the saved server configs', async () => {
    const a = await oauthServer();
    const b = await oauthServer();
    const id = crypto.randomUUID();
    const store: McpAuthStore = createAuthStore(createIdbStore(`mcp-auth-test-${id}`));
    const configs = createIdbConfigStore(`tabcode-mcp-test-${id}`);
    const m = manager({ store }, { store: configs });
    await m.addServer({ type: 'http', name: 'a', url: a.mcpUrl });
    await m.addServer({ type: 'http', name: 'b', url: b.mcpUrl });
    expect((await store.keys()).sort()).toEqual([authKey(a.mcpUrl), authKey(b.mcpUrl)].sort());
    const tokenA = (await store.load(authKey(a.mcpUrl))).tokens?.access_token;
    const tokenB = (await store.load(authKey(b.mcpUrl))).tokens?.access_token;
    expect(tokenA).not.toBe(tokenB);
    await m.dispose();
    const saved = JSON.stringify(await configs.load());
    expect(saved).toContain(a.mcpUrl);
    expect(saved).not.toContain(String(tokenA));
    expect(saved).not.toContain('access_token');
  });
});

describe('client credentials (a service client, no user)', () => {
  const serviceClient = { id: 'svc-1', secret: 's3cret' };

  it('gets a token with the client secret and calls tools; bound to the configured issuer', async () => {
    const as = await oauthServer({ serviceClient });
    const m = manager();
    const state = await m.addServer({
      type: 'http',
      name: 'svc',
      url: as.mcpUrl,
      oauth: { grant: 'client_credentials', clientId: 'svc-1', clientSecret: 's3cret', issuer: as.issuer },
    });
    expect(state.status).toBe('connected');
    expect((await call(m, 'mcp__svc__whoami')).content).toBe('you are signed in');
    expect([...as.tokens.values()].map((t) => t.clientId)).toEqual(['svc-1']);
  });

  it('an MCP server that names another authorization server never receives the credentials', async () => {
    const as = await oauthServer({ serviceClient });
    const m = manager();
    const state = await m.addServer({
      type: 'http',
      name: 'svc',
      url: as.mcpUrl,
      oauth: {
        grant: 'client_credentials',
        clientId: 'svc-1',
        clientSecret: 's3cret',
        issuer: 'https://auth.example.com',
      },
    });
    expect(state.status).not.toBe('connected');
    expect(`${state.error ?? ''} ${state.auth?.error ?? ''}`).toMatch(/auth\.example\.com|issuer|authoriz/i);
    expect(as.asRequests.filter((r) => r.path === '/token')).toEqual([]);
    expect(as.tokens.size).toBe(0);
  });
});

describe('hostile authorization servers', () => {
  it('a redirect back with a state that is not ours is refused and nothing is exchanged', async () => {
    const as = await oauthServer({ hostile: 'wrong-state' });
    const m = manager({ authorizer: headlessAuthorizer({ automatic: false }) });
    await m.addServer({ type: 'http', name: 'evil', url: as.mcpUrl });
    const after = await m.signIn('evil');
    expect(after?.status).toBe('needs-auth');
    expect(after?.auth?.error).toMatch(/does not belong to this sign-in \(its state does not match\)/);
    expect(as.asRequests.filter((r) => r.path === '/token')).toEqual([]);
  });

  it('a token endpoint that redirects to another origin is not followed', async () => {
    const as = await oauthServer({ hostile: 'redirect-token' });
    const m = manager();
    const state = await m.addServer({ type: 'http', name: 'evil', url: as.mcpUrl });
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/redirect/i);
  });

  it('tokens the resource server refuses end in a clear failed state, not a loop', async () => {
    const as = await oauthServer({ hostile: 'invalid-token' });
    const m = manager();
    const started = Date.now();
    const state = await m.addServer({ type: 'http', name: 'evil', url: as.mcpUrl });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/refused the token|still refuses access/);
    expect(as.asRequests.filter((r) => r.path === '/token').length).toBeLessThanOrEqual(3);
  });

  it('a javascript: authorization endpoint is never opened', async () => {
    const as = await oauthServer({ hostile: 'javascript-endpoint' });
    const opened: URL[] = [];
    const m = manager({ authorizer: headlessAuthorizer({ onAuthorize: (u) => opened.push(u) }) });
    const state = await m.addServer({ type: 'http', name: 'evil', url: as.mcpUrl });
    expect(opened).toEqual([]);
    expect(state.status).toBe('failed');
    expect(state.error).toMatch(/javascript/i);
  });
});
