/**
 * Support for the docs example site's tests and benchmark: a plain static server on loopback for
 * examples/ with the package build at /tabcode/ (no isolation headers, as a simple docs host serves
 * it), extra pages given by the test, React as ES modules (for react.html's import map, built from
 * node_modules with esbuild and served in place of the CDN), and a guard that lets no request leave
 * loopback.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import type { BrowserContext } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
export const EXAMPLES_DIR = join(ROOT, 'examples');
/** The package build the site uses (`npm run build:lib`; E2E_LIB_DIST for another folder). */
export const LIB_DIR = resolve(ROOT, process.env.E2E_LIB_DIST ?? 'dist-lib');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
  '.bin': 'application/octet-stream',
};

export interface SiteServer {
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface SiteOptions {
  /** Folders by URL prefix (default: the package at /tabcode/, examples/ at /). */
  mounts?: Record<string, string>;
}

/** Serves examples/ at / and the package at /tabcode/; `pages` adds (or replaces) pages by path. */
export async function serveSite(
  pages: Record<string, string> = {},
  options: SiteOptions = {},
): Promise<SiteServer> {
  const mounts = Object.entries(options.mounts ?? { '/tabcode/': LIB_DIR, '/': EXAMPLES_DIR }).sort(
    (a, b) => b[0].length - a[0].length,
  );
  if (!options.mounts && !existsSync(join(LIB_DIR, 'tabcode.js')))
    throw new Error(`${LIB_DIR}/tabcode.js is missing: run npm run build:lib (or set E2E_LIB_DIST).`);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[path]);
      return;
    }
    const [prefix, base] = mounts.find(([p]) => path.startsWith(p)) ?? ['/', EXAMPLES_DIR];
    const rel = path.slice(prefix.length - 1);
    let file = normalize(join(base, rel));
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      statSync(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'max-age=3600',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let reactModules: Promise<{ react: string; client: string }> | undefined;

/** React and react-dom/client as ES modules (production builds), the second importing `react`. */
export function reactEsm(): Promise<{ react: string; client: string }> {
  reactModules ??= (async () => {
    const { build } = await import('esbuild');
    const require = createRequire(import.meta.url);
    const exportsOf = (id: string) =>
      Object.keys(require(id) as object).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
    const bundle = async (contents: string, shareReact: boolean) => {
      const out = await build({
        stdin: { contents, resolveDir: ROOT, loader: 'js' },
        bundle: true,
        format: 'esm',
        write: false,
        minify: true,
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'silent',
        // react-dom requires `react`: answered by a module that re-exports the page's `react` (an ES
        // import the import map resolves), so the page, react-dom and tabcode/react share one React.
        plugins: shareReact
          ? [
              {
                name: 'share-react',
                setup(b) {
                  b.onResolve({ filter: /^react$/ }, (args) =>
                    args.namespace === 'shared-react'
                      ? { path: 'react', external: true }
                      : { path: 'react', namespace: 'shared-react' },
                  );
                  b.onLoad({ filter: /.*/, namespace: 'shared-react' }, () => ({
                    contents: "export * from 'react';",
                    loader: 'js',
                  }));
                },
              },
            ]
          : [],
      });
      return out.outputFiles[0].text;
    };
    // CommonJS modules: their exports named one by one (an ES module cannot `export *` them).
    const esmOf = (id: string) =>
      `import M from '${id}'; export default M; export const { ${exportsOf(id).join(', ')} } = M;`;
    return {
      react: await bundle(esmOf('react'), false),
      client: await bundle(esmOf('react-dom/client'), true),
    };
  })();
  return reactModules;
}

const LOOPBACK = /^(?:https?|wss?):\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?\//;

/**
 * Lets requests reach loopback only; react.html's CDN modules are answered from node_modules. Returns
 * the URLs that were refused (a test expects none).
 */
export async function loopbackOnly(context: BrowserContext): Promise<string[]> {
  const refused: string[] = [];
  const esm = await reactEsm();
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (LOOPBACK.test(url) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    if (/^https:\/\/esm\.sh\/react@/.test(url))
      return route.fulfill({
        contentType: 'text/javascript',
        body: esm.react,
        headers: { 'access-control-allow-origin': '*' },
      });
    if (/^https:\/\/esm\.sh\/react-dom@/.test(url))
      return route.fulfill({
        contentType: 'text/javascript',
        body: esm.client,
        headers: { 'access-control-allow-origin': '*' },
      });
    refused.push(url);
    return route.abort('blockedbyclient');
  });
  return refused;
}
