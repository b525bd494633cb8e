import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { type FeatureName, featureDefines } from './src/core/features.ts';
import { storageNamespaceDefines } from './src/core/storage-namespace.ts';
import { pyodideAssets } from './src/runtimes/python/assets-plugin.ts';
import { sentenceEncoderDevAssets } from './src/tools/tool-search/encoder-dev-plugin.ts';
import { fetchProxyPlugin } from './src/tools/web-fetch/fetch-proxy-plugin.ts';

/**
 * Headers every page needs: WebContainer requires cross-origin isolation (COOP + COEP), and
 * resources we serve must be loadable by an isolated page.
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/**
 * The app's Content-Security-Policy. Scripts only from our origin (no inline script, no other origin:
 * markup that gets into the page cannot run), wasm for the sandbox engines, workers from our origin and
 * blob: (python's start script), no plugins, no <base>.
 *
 * connect-src: the API base URL and MCP servers are the user's to choose at run time, after the page and
 * its policy have loaded, so the policy cannot name them one by one. It allows any https (and wss)
 * origin, and plain http only to this machine (local proxies, the mock API, `vite dev`): a key is never
 * sent in clear text across the network. A base URL on plain http to another host is refused by the
 * browser (the error names the policy).
 *
 * 'unsafe-eval' only with python on: Pyodide evaluates its generated glue code, and its worker starts from
 * a srcdoc frame, which inherits this policy. `dev` allows `vite dev`'s inline React-refresh preamble.
 * `frameAncestors` is only honoured in a header (a <meta> policy cannot set it).
 */
export function contentSecurityPolicy(options: {
  python: boolean;
  dev?: boolean;
  frameAncestors?: string;
}): string {
  const local = [
    'http://localhost:*',
    'http://127.0.0.1:*',
    // (CSP host sources cannot name an IPv6 literal such as [::1]: browsers ignore it with an error.)
    'ws://localhost:*',
    'ws://127.0.0.1:*',
  ];
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval'${options.python ? " 'unsafe-eval'" : ''}${options.dev ? " 'unsafe-inline'" : ''}`,
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' https: wss: ${local.join(' ')}`,
    // WebContainer boots in StackBlitz's frames; previews of its servers are framed from there too.
    "frame-src 'self' blob: https://stackblitz.com https://*.stackblitz.com https://*.webcontainer-api.io https://*.webcontainer.io",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    ...(options.frameAncestors ? [`frame-ancestors ${options.frameAncestors}`] : []),
  ].join('; ');
}

/**
 * The modules workers start from (`new Worker(new URL(…, import.meta.url))`, `?worker&url`), with the
 * feature gate a worker is built under. Vite's dependency scan does not follow a worker, so these are
 * scan entries beside the pages (src/dev-deps.test.ts checks the list against the source).
 */
export const WORKER_ENTRIES: readonly { path: string; feature?: FeatureName }[] = [
  { path: 'src/sandbox/worker/sandbox.worker.ts' },
  { path: 'src/agent/fetch.worker.ts' },
  { path: 'src/runtimes/node/worker.ts' },
  { path: 'src/runtimes/python/worker.ts', feature: 'PYTHON' },
  // The TypeScript language service: pre-bundling it costs seconds at startup, so only with LSP on.
  { path: 'src/tools/lsp/lsp-worker.ts', feature: 'LSP' },
  { path: 'src/tools/grep/match.worker.ts' },
  { path: 'src/shell/analysis.worker.ts' },
  { path: 'src/ui/highlight.worker.ts' },
  { path: 'src/tools/tool-search/semantic-worker.ts' },
  { path: 'src/tools/tool-search/sentence-worker.ts' },
  { path: 'src/tools/tool-search/glossary-worker.ts' },
];

/** The dependency scan's entries: the pages, and the workers whose gates are on. */
export function depScanEntries(features: Record<string, string>): string[] {
  const on = (w: (typeof WORKER_ENTRIES)[number]) =>
    !w.feature || features[`__FEATURE_${w.feature}__`] === 'true';
  return ['index.html', 'embed.html', ...WORKER_ENTRIES.filter(on).map((w) => w.path)];
}

/** Who may frame embed.html (TABCODE_EMBED_FRAME_ANCESTORS, CSP source list); the stand-alone page: nobody. */
export const DEFAULT_EMBED_FRAME_ANCESTORS = '*';

/**
 * The policy on every response of the dev and preview servers (frame-ancestors 'none', embed.html: the
 * configured list), and as a <meta> in the built pages, so a static host without headers still gets
 * everything but frame-ancestors.
 */
function cspPlugin(python: boolean, embedAncestors: string): Plugin {
  const header = (dev: boolean, base: string) => {
    // embed.html at the server's base path (`/embed.html`, `/playground/embed.html`), and nowhere else:
    // a page at another path keeps frame-ancestors 'none'. A relative base is served at `/`.
    const prefix = base.startsWith('/') ? base : '/';
    const embedPath = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}embed\\.html(?:[?#]|$)`);
    return (req: { url?: string }, res: { setHeader(n: string, v: string): void }) => {
      const embed = embedPath.test(req.url ?? '');
      res.setHeader(
        'Content-Security-Policy',
        contentSecurityPolicy({ python, dev, frameAncestors: embed ? embedAncestors : "'none'" }),
      );
    };
  };
  return {
    name: 'tabcode-csp',
    configureServer(server) {
      const set = header(true, server.config.base);
      server.middlewares.use((req, res, next) => {
        set(req, res);
        next();
      });
    },
    configurePreviewServer(server) {
      const set = header(false, server.config.base);
      server.middlewares.use((req, res, next) => {
        set(req, res);
        next();
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (ctx.server) return html;
        const meta = `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy({ python })}" />`;
        return html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    ${meta}`);
      },
    },
  };
}

export default defineConfig(({ mode, command }) => {
  const env = { ...process.env, ...loadEnv(mode, process.cwd(), ['ANTHROPIC_', 'TABCODE_']) };
  const apiKey = env.ANTHROPIC_API_KEY;
  const features = featureDefines(mode, env);
  // Throws (the build stops with its message) for a bad TABCODE_STORAGE_NAMESPACE / TABCODE_EMBED_STORAGE_NAMESPACE.
  const namespaces = storageNamespaceDefines(env);
  return {
    // Relative asset URLs: one build serves from any path or origin (`/`, `/playground/`, a docs CDN);
    // `vite build --base /x/` still gives absolute ones. Worker, wasm, Pyodide and word-vector files
    // are resolved against the script that loads them (new URL(…, import.meta.url)), so they follow.
    base: './',
    // Gate PYTHON: Pyodide's files are copied into the build (and served in dev) only with it on.
    // WebFetch's proxy at /api/fetch, on the dev server and `vite preview` only (never in a build).
    plugins: [
      react(),
      cspPlugin(
        features.__FEATURE_PYTHON__ === 'true',
        env.TABCODE_EMBED_FRAME_ANCESTORS ?? DEFAULT_EMBED_FRAME_ANCESTORS,
      ),
      fetchProxyPlugin(),
      sentenceEncoderDevAssets(),
      ...(features.__FEATURE_PYTHON__ === 'true' ? [pyodideAssets()] : []),
    ],
    define: {
      ...features,
      ...namespaces,
      __TABCODE_DEV_PROXY__: JSON.stringify(Boolean(apiKey) && command === 'serve'),
      // The parent origins embed.html obeys (src/embed/host-bridge.ts), baked in so no framing page can change it.
      'import.meta.env.TABCODE_EMBED_ALLOWED_ORIGINS': JSON.stringify(
        env.TABCODE_EMBED_ALLOWED_ORIGINS ?? '*',
      ),
    },
    server: {
      headers: ISOLATION_HEADERS,
      // With ANTHROPIC_API_KEY in the dev server's environment, the page talks to /api/anthropic and
      // the key is added here, so it never reaches the browser.
      proxy: apiKey
        ? {
            '/api/anthropic': {
              target: env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
              changeOrigin: true,
              rewrite: (path) => path.replace(/^\/api\/anthropic/, ''),
              configure: (proxy) => {
                proxy.on('proxyReq', (req) => {
                  // The page's SDK sends a placeholder key as a bearer token; replace it with the real key.
                  req.removeHeader('authorization');
                  req.setHeader('x-api-key', apiKey);
                  req.removeHeader('anthropic-dangerous-direct-browser-access');
                  req.removeHeader('origin');
                });
              },
            },
          }
        : undefined,
    },
    preview: { headers: ISOLATION_HEADERS },
    // Every package the page or a worker may import is pre-bundled at startup: a package found later (the
    // first `node`, npm install, python3, ToolSearch's semantic stage) makes `vite dev` reload the page,
    // losing the draft, the output and a key held in memory. The scan starts from the pages and from
    // each worker's entry (it does not follow `new Worker(new URL(…))`).
    optimizeDeps: { entries: depScanEntries(features), include: ['just-bash/browser'] },
    build: {
      target: 'es2022',
      sourcemap: false,
      chunkSizeWarningLimit: 1500,
      // The page, and the iframe page a host embeds (src/embed).
      rolldownOptions: { input: { main: 'index.html', embed: 'embed.html' } },
    },
    worker: { format: 'es' },
  };
});
