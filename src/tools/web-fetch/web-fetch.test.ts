/**
 * WebFetch: what it refuses (private addresses, other schemes), the server-side web fetch on the real
 * SDK and the mock Messages API, and the page path through the real fetch proxy (fetch-proxy-plugin's
 * handler on a loopback HTTP server started here) to a loopback site: HTML to markdown, paging,
 * cross-host redirects reported, a proxy that is down or refuses, a site without CORS fetched directly.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockApi, startMockApi } from '../../../e2e/mock-api/server.ts';
import { createSchemaCache } from '../../core/api-schema.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { createAnthropicClient } from '../../core/model/anthropic.ts';
import { ToolInputError } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { createServerToolSupport } from '../shared/server-tools.ts';
import { checkFetchUrl, isPrivateHost } from './addresses.ts';
import { guardedLookup, handleFetchProxy } from './fetch-proxy-plugin.ts';
import { startFetchProxy } from './fetch-proxy-server.ts';
import { WEB_FETCH_MAX_CHARS } from './html.ts';
import { createWebFetchTool, type WebFetchOutput } from './web-fetch.ts';

const PAGE = `<!doctype html><html><head><title>T</title><style>body{}</style><script>alert(1)</script></head>
<body><h1>Example Docs</h1><p>Use <a href="https://example.com/x">the guide</a> and <code>npm test</code>.</p>
<ul><li>one</li><li>two</li></ul></body></html>`;

let api: MockApi;
let bare: MockApi;
let site: Server;
let siteUrl: string;
let proxy: Server;
let proxyUrl: string;
let ctx: ToolUseContext;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

beforeAll(async () => {
  api = await startMockApi();
  bare = await startMockApi({ serverTools: false });
  site = createServer((req, res) => {
    if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (req.url === '/long')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(WEB_FETCH_MAX_CHARS + 10));
    if (req.url === '/hop') return res.writeHead(302, { location: '/page' }).end();
    if (req.url === '/away') return res.writeHead(301, { location: 'https://elsewhere.example/' }).end();
    if (req.url === '/cors')
      return res
        .writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
        .end('open data');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  siteUrl = await listen(site);
  // The site answers for a public-looking name (the proxy's hosts file maps it to loopback).
  proxy = createServer(
    (req, res) => void handleFetchProxy(req, res, { hosts: { 'docs.example': new URL(siteUrl).host } }),
  );
  proxyUrl = `${await listen(proxy)}/api/fetch`;
});
afterAll(async () => {
  await api.close();
  await bare.close();
  site.closeAllConnections();
  proxy.closeAllConnections();
  await new Promise((r) => site.close(r));
  await new Promise((r) => proxy.close(r));
});
beforeEach(async () => {
  api.reset();
  ctx = createToolUseContext({ sandbox: await createJustBashSandbox({ files: {} }) });
});

function withRuntime(url: string): ToolUseContext {
  const client = createAnthropicClient({ apiKey: 'test', baseURL: url, maxRetries: 0 });
  return {
    ...ctx,
    options: {
      ...ctx.options,
      runtime: { client, model: 'm', maxTokens: 1024, systemPrompt: 's', schemaCache: createSchemaCache() },
    },
  };
}

const text = (tool: ReturnType<typeof createWebFetchTool>, out: WebFetchOutput) =>
  tool.mapToolResultToToolResultBlockParam(out, 't') as { content: string; is_error?: boolean };

describe('which URLs', () => {
  it('refuses private, loopback and internal addresses in every spelling, other schemes, credentials', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://localhost:5173/',
      'http://printer.local/',
      'http://10.1.2.3/',
      'http://192.168.0.1/',
      'http://172.20.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]/',
      'http://intranet/',
    ]) {
      expect(checkFetchUrl(url), url).toMatchObject({
        ok: false,
        reason: expect.stringContaining('private, loopback or internal'),
      });
    }
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'javascript:alert(1)',
      'data:text/html,x',
    ]) {
      expect(checkFetchUrl(url), url).toMatchObject({
        ok: false,
        reason: expect.stringContaining('http and https URLs only'),
      });
    }
    expect(checkFetchUrl('https://user:pw@example.com/')).toMatchObject({ ok: false });
    expect(checkFetchUrl('not a url')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not a valid URL'),
    });
    expect(checkFetchUrl('https://example.com/docs')).toMatchObject({ ok: true });
    expect(isPrivateHost('8.8.8.8')).toBe(false);
  });
});

describe('WebFetch through the server-side web fetch tool', () => {
  it('answers the prompt from the page the server read', async () => {
    api.script([
      (r) => {
        expect(r.body.tools).toEqual([
          {
            type: 'web_fetch_20250910',
            name: 'web_fetch',
            max_uses: 1,
            allowed_domains: ['example.com'],
            max_content_tokens: 20000,
          },
        ]);
        return {
          content: [
            { type: 'server_tool_use', name: 'web_fetch', input: { url: 'https://example.com/docs' } },
            {
              type: 'web_fetch_tool_result',
              content: {
                type: 'web_fetch_result',
                url: 'https://example.com/docs',
                content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } },
              },
            },
            { type: 'text', text: 'The heading is Example Docs.' },
          ],
        };
      },
      {
        content: [
          { type: 'server_tool_use', name: 'web_fetch', input: { url: 'https://example.com/gone' } },
          {
            type: 'web_fetch_tool_result',
            content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' },
          },
        ],
      },
    ]);
    const tool = createWebFetchTool();
    const { data } = await tool.call(
      { url: 'https://example.com/docs', prompt: 'heading?' },
      withRuntime(api.url),
    );
    expect(data).toMatchObject({ via: 'server', result: 'The heading is Example Docs.' });
    await expect(
      tool.call({ url: 'https://example.com/gone', prompt: 'p' }, withRuntime(api.url)),
    ).rejects.toThrow(/could not fetch https:\/\/example.com\/gone: url_not_accessible/);
  });

  it('falls back to the proxy when the endpoint has no server tools, and remembers it', async () => {
    const support = createServerToolSupport();
    const tool = createWebFetchTool({ support, proxy: () => proxyUrl });
    const { data } = await tool
      .call({ url: 'https://docs.example/page', prompt: 'p' }, withRuntime(bare.url))
      .catch((e) => {
        throw e;
      });
    expect(data.via).toBe('proxy');
    expect(support.available('web_fetch')).toBe(false);
  });
});

describe('WebFetch through the fetch proxy', () => {
  const viaProxy = () => createWebFetchTool({ proxy: () => proxyUrl, serverFetch: false });
  const call = (tool: ReturnType<typeof createWebFetchTool>, path: string, offset?: number) =>
    tool.call(
      {
        url: `https://docs.example${path}`,
        prompt: 'What does it say?',
        ...(offset !== undefined ? { offset } : {}),
      },
      ctx,
    );

  it('turns HTML into markdown, without scripts and styles', async () => {
    const tool = viaProxy();
    const { data } = await call(tool, '/page');
    expect(data).toMatchObject({ via: 'proxy', code: 200 });
    expect(data.result).toContain('# Example Docs');
    expect(data.result).toContain('[the guide](https://example.com/x)');
    expect(data.result).toContain('`npm test`');
    expect(data.result).toMatch(/-\s+one/);
    expect(data.result).not.toContain('alert(1)');
    expect(text(tool, data).content).toContain('Use this to answer: What does it say?');
  });

  it('pages long text with offset, follows a same-host redirect, reports one to another host', async () => {
    const tool = viaProxy();
    const first = await call(tool, '/long');
    expect(first.data.result.length).toBe(WEB_FETCH_MAX_CHARS);
    expect(text(tool, first.data).content).toContain(`offset ${WEB_FETCH_MAX_CHARS}`);
    const rest = await call(tool, '/long', WEB_FETCH_MAX_CHARS);
    expect(rest.data.result).toBe('x'.repeat(10));
    expect((await call(tool, '/hop')).data.result).toContain('# Example Docs');
    const away = await call(tool, '/away');
    expect(text(tool, away.data).content).toContain('redirects to another host: https://elsewhere.example/');
    const missing = await call(tool, '/missing');
    expect(text(tool, missing.data)).toMatchObject({
      is_error: true,
      content: expect.stringContaining('HTTP 404'),
    });
  });

  it('a proxy that is down, or one that refuses, is a clear error', async () => {
    const down = createWebFetchTool({ proxy: () => 'http://127.0.0.1:9/api/fetch', serverFetch: false });
    await expect(down.call({ url: 'https://example.com/', prompt: 'p' }, ctx)).rejects.toThrow(
      /The fetch proxy at http:\/\/127.0.0.1:9\/api\/fetch could not be reached/,
    );
    // The tool refuses a private address before the proxy is asked; the proxy refuses one itself too,
    // and where it connects, a name that resolves to one (DNS cannot point it inward).
    const refusing = createWebFetchTool({ proxy: () => proxyUrl, serverFetch: false });
    await expect(refusing.call({ url: 'http://127.0.0.2:1/', prompt: 'p' }, ctx)).rejects.toBeInstanceOf(
      ToolInputError,
    );
    const resolved = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (err) => resolve(err)),
    );
    expect(resolved?.code).toBe('EPRIVATE');
    expect(resolved?.message).toMatch(/localhost resolves to a private address/);
    const res = await fetch(`${proxyUrl}?url=${encodeURIComponent('http://127.0.0.2:1/')}`, {
      headers: { 'x-tabcode-fetch': '1' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-tabcode-fetch-proxy')).toBe('1');
    // A request without the proxy's header (a cross-origin page's simple request) is refused.
    expect((await fetch(`${proxyUrl}?url=${encodeURIComponent('https://docs.example/page')}`)).status).toBe(
      400,
    );
  });

  it('the standalone proxy on another origin answers the CORS preflight of the origins it allows, and only theirs', async () => {
    const app = 'http://app.example:4401';
    // The standalone proxy a user runs (fetch-proxy-server.ts), on a free loopback port.
    const cross = await startFetchProxy({
      port: 0,
      hosts: { 'docs.example': new URL(siteUrl).host },
      allowOrigins: [app],
    });
    const crossUrl = cross.url;
    try {
      const target = `${crossUrl}?url=${encodeURIComponent('https://docs.example/page')}`;
      const preflight = await fetch(target, {
        method: 'OPTIONS',
        headers: { origin: app, 'access-control-request-headers': 'x-tabcode-fetch' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(app);
      expect(preflight.headers.get('access-control-allow-headers')).toBe('x-tabcode-fetch');
      const page = await fetch(target, { headers: { origin: app, 'x-tabcode-fetch': '1' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('access-control-allow-origin')).toBe(app);
      expect(page.headers.get('access-control-expose-headers')).toContain('x-tabcode-final-url');
      expect(await page.text()).toContain('<h1>Example Docs</h1>');
      // A refusal reaches an allowed page too (it can show the reason).
      const refused = await fetch(`${crossUrl}?url=${encodeURIComponent('http://10.0.0.1/')}`, {
        headers: { origin: app, 'x-tabcode-fetch': '1' },
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBe(app);
      // Another origin gets no preflight answer and no CORS header: its browser blocks the call.
      const other = await fetch(target, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-headers': 'x-tabcode-fetch' },
      });
      expect(other.status).toBe(405);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      // The same-origin proxy (no allowOrigins) sends none either.
      const same = await fetch(target.replace(crossUrl, proxyUrl), {
        headers: { origin: app, 'x-tabcode-fetch': '1' },
      });
      expect(same.headers.get('access-control-allow-origin')).toBeNull();
      // Only the proxy's path is served.
      expect((await fetch(crossUrl.replace('/api/fetch', '/other'))).status).toBe(404);
    } finally {
      await cross.close();
    }
  });

  it('fetches directly (CORS) when there is no proxy', async () => {
    // The page's fetch reaches the loopback site under a public name (what a browser would resolve).
    const routed: typeof fetch = (input, init) =>
      fetch(String(input).replace('https://open.example', siteUrl), init);
    const tool = createWebFetchTool({ serverFetch: false, fetch: routed });
    const { data } = await tool.call({ url: 'https://open.example/cors', prompt: 'p' }, ctx);
    expect(data).toMatchObject({ via: 'direct', result: 'open data' });
    const failing = createWebFetchTool({
      serverFetch: false,
      fetch: async () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(failing.call({ url: 'https://closed.example/', prompt: 'p' }, ctx)).rejects.toThrow(
      /CORS.*fetch proxy in Settings/,
    );
  });

  it('keeps its input JSON schema stable (prompt-cache key)', async () => {
    await expect(JSON.stringify(createWebFetchTool().inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/web-fetch.schema.json',
    );
  });
});
