/**
 * The `tabcode` package build (`npm run build:lib` → dist-lib/): ES modules with stable names (no
 * hashes), one stylesheet scoped to the playground (`tabcode.css`), the runtime workers and their
 * assets beside them, and `react.js` (the React component, with `react` left to the host). Asset URLs
 * are relative to the script that needs them, so the folder can be served from any path. The app build
 * (vite.config.ts) is untouched by this file.
 */
import { basename, dirname, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build, defineConfig, loadEnv, type Plugin } from 'vite';
import { featureDefines } from './src/core/features.ts';
import { storageNamespaceDefines } from './src/core/storage-namespace.ts';
import { scopeCss } from './src/embed/package/scope-css.ts';
import { pyodideAssets } from './src/runtimes/python/assets-plugin.ts';

/** Where the package's files go (package.json `files`, `exports`). */
export const LIB_OUT_DIR = process.env.TABCODE_LIB_OUT ?? 'dist-lib';

/** The React entry, built after the main one: `react` stays the host's, `./index.ts` is `./tabcode.js`. */
function reactEntry(outDir: string): Plugin {
  return {
    name: 'tabcode:react-entry',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        publicDir: false,
        logLevel: 'warn',
        plugins: [
          {
            name: 'tabcode:react-imports-package',
            enforce: 'pre',
            resolveId(source, importer) {
              if (source === './index.ts' && importer?.endsWith('/package/react.ts'))
                return { id: './tabcode.js', external: true };
              return null;
            },
          },
        ],
        define: { 'process.env.NODE_ENV': '"production"' },
        build: {
          outDir,
          emptyOutDir: false,
          target: 'es2022',
          minify: false,
          lib: {
            entry: resolve(import.meta.dirname, 'src/embed/package/react.ts'),
            formats: ['es'],
            fileName: () => 'react.js',
          },
          rolldownOptions: { external: ['react'] },
        },
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = { ...process.env, ...loadEnv(mode, process.cwd(), ['TABCODE_']) };
  const features = featureDefines(mode, env);
  const outDir = resolve(import.meta.dirname, LIB_OUT_DIR);
  return {
    base: './',
    publicDir: false,
    plugins: [
      react(),
      ...(features.__FEATURE_PYTHON__ === 'true' ? [pyodideAssets()] : []),
      reactEntry(outDir),
    ],
    // The package is the embed: it uses TABCODE_EMBED_STORAGE_NAMESPACE (a bad value stops the build).
    define: { ...features, ...storageNamespaceDefines(env), __TABCODE_DEV_PROXY__: 'false' },
    css: { postcss: { plugins: [scopeCss()] } },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      chunkSizeWarningLimit: 1500,
      // One stylesheet for the whole package (the lazily loaded terminal's included), linked by the page.
      cssCodeSplit: false,
      // The package must not add <link rel=modulepreload> tags to the host's document.
      modulePreload: false,
      rolldownOptions: {
        input: { tabcode: resolve(import.meta.dirname, 'src/embed/package/index.ts') },
        preserveEntrySignatures: 'strict',
        output: {
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name].js',
          assetFileNames: (asset) =>
            asset.names?.some((n) => n.endsWith('.css')) ? 'tabcode.css' : 'assets/[name][extname]',
        },
      },
    },
    worker: {
      format: 'es',
      rolldownOptions: {
        output: {
          // Beside the assets they load (Pyodide's folder); two runtimes each have a `worker.ts`: named by their folder.
          entryFileNames: (chunk) =>
            `assets/${chunk.facadeModuleId ? `${basename(dirname(chunk.facadeModuleId))}-` : ''}${chunk.name}.js`,
          chunkFileNames: 'assets/[name].js',
          assetFileNames: 'assets/[name][extname]',
        },
      },
    },
  };
});
