import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { featureDefines } from './src/core/features.ts';
import { pyodideAssets } from './src/runtimes/python/assets-plugin.ts';
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

export default defineConfig(({ mode, command }) => {
  const env = { ...process.env, ...loadEnv(mode, process.cwd(), ['ANTHROPIC_', 'TABCODE_']) };
  const apiKey = env.ANTHROPIC_API_KEY;
  const features = featureDefines(mode, env);
  return {
    // Gate PYTHON: Pyodide's files are copied into the build (and served in dev) only with it on.
    // WebFetch's proxy at /api/fetch, on the dev server and `vite preview` only (never in a build).
    plugins: [
      react(),
      fetchProxyPlugin(),
      ...(features.__FEATURE_PYTHON__ === 'true' ? [pyodideAssets()] : []),
    ],
    define: {
      ...features,
      __TABCODE_DEV_PROXY__: JSON.stringify(Boolean(apiKey) && command === 'serve'),
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
    // Lazily imported packages are pre-bundled at startup, so the first visit does not reload the page.
    optimizeDeps: { include: ['just-bash/browser'] },
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
