/**
 * Serves Pyodide from our own origin (behind the PYTHON gate: vite.config.ts adds this plugin only when
 * the gate is on). Pyodide loads its files by name from one folder (its `indexURL`), so they are
 * copied whole and unhashed into `<assetsDir>/pyodide-<version>/` of the build, next to the python
 * worker's chunk; the folder's name changes with the version, so caches never mix two. `vite dev`
 * serves the same files from node_modules at any URL ending in that folder (the worker's source
 * folder, there). Nothing is fetched from a CDN.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { PYODIDE_DIR, PYODIDE_FILES } from './version.ts';

const CONTENT_TYPES: Record<string, string> = {
  mjs: 'text/javascript; charset=utf-8',
  wasm: 'application/wasm',
  zip: 'application/zip',
};

/** node_modules/pyodide. */
function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
}

export function pyodideAssets(): Plugin {
  let assetsDir = 'assets';
  const files = new Set<string>(PYODIDE_FILES);
  return {
    name: 'tabcode:pyodide-assets',
    configResolved(config) {
      assetsDir = config.build.assetsDir;
    },
    configureServer(server) {
      const dir = packageDir();
      const marker = `/${PYODIDE_DIR}/`;
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        const at = path.lastIndexOf(marker);
        const name = at >= 0 ? path.slice(at + marker.length) : '';
        if (!files.has(name)) return next();
        res.setHeader(
          'Content-Type',
          CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
        );
        res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        res.setHeader('Cache-Control', 'no-cache');
        createReadStream(join(dir, name)).pipe(res);
      });
    },
    generateBundle() {
      const dir = packageDir();
      for (const name of PYODIDE_FILES) {
        this.emitFile({
          type: 'asset',
          fileName: `${assetsDir}/${PYODIDE_DIR}/${name}`,
          source: readFileSync(join(dir, name)),
        });
      }
    },
  };
}
