/**
 * python3 in the tab, in Chromium (a production build of bench/python-page, served without COOP/COEP
 * as an embedding docs page would be), measured side by side in one run:
 * - `python3` cold (a new page: worker start, Pyodide load from our origin, the run on a 2,000-row
 *   CSV) vs warm (the same run again) and a run that does nothing;
 * - what the first python3 fetches (Pyodide's files, raw and gzip);
 * - stopping a runaway loop (its abort terminates the worker) and the next run (a new worker).
 * The test server sends no caching headers, so every new worker fetches and compiles Pyodide again.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { serveStatic } from '../e2e/support/static-server.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { PYODIDE_DIR, PYODIDE_FILES } from '../src/runtimes/python/version.ts';
import { median, ms, ratio, table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title = 'python3 in the tab: cold vs warm, bytes fetched, stop and restart (Chromium)';

export async function run(ctx: BenchContext): Promise<string[]> {
  const outDir = resolve(ctx.root, 'node_modules/.cache/tabcode-bench-python');
  const configFile = resolve(ctx.root, 'vite.config.ts');
  await build({
    configFile,
    root: ctx.root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: { input: resolve(ctx.root, 'bench/python-page/index.html') },
    },
  });
  const server = await serveStatic(outDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const fetched: string[] = [];
    const sample = async (phase: string) => {
      const context = await browser.newContext();
      context.on('request', (r) => fetched.push(r.url()));
      const page = await context.newPage();
      await page.goto(`${server.url}/bench/python-page/index.html?phase=${phase}`);
      await page.waitForFunction(() => window.benchResult !== undefined, undefined, { timeout: 300_000 });
      const result = (await page.evaluate(() => window.benchResult)) as Record<string, number | string>;
      await context.close();
      if (typeof result.error === 'string') throw new Error(result.error);
      return result as Record<string, number>;
    };
    const colds: Record<string, number>[] = [];
    for (let i = 0; i < 3; i++) colds.push(await sample('cold'));
    const m = (key: string) => median(colds.map((c) => c[key]));
    const stop = await sample('stop');
    // blob: is the worker's own start script (browser-worker.ts); anything else must be our server.
    const offOrigin = fetched.filter((u) => !u.startsWith(server.url) && !u.startsWith('blob:'));
    const files = PYODIDE_FILES.map((name) => {
      const bytes = readFileSync(resolve(outDir, 'assets', PYODIDE_DIR, name));
      return { name, raw: bytes.byteLength, gzip: gzipSync(bytes).byteLength };
    });
    const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en')} KB`;
    const total = files.reduce((a, f) => ({ raw: a.raw + f.raw, gzip: a.gzip + f.gzip }), {
      raw: 0,
      gzip: 0,
    });
    return [
      `Chromium ${browser.version()}, production build, page without COOP/COEP (median of 3 fresh pages)`,
      ...table(
        ['python3', 'median', 'vs warm'],
        [
          [
            'cold: first `python3 summarize.py sales.csv` in a new page',
            ms(m('coldMs')),
            ratio(m('coldMs'), m('warmMs')),
          ],
          ['warm: the same run again', ms(m('warmMs')), '1.00×'],
          ['warm: `python3 -c pass`', ms(m('noopMs')), ratio(m('noopMs'), m('warmMs'))],
        ],
      ),
      '',
      ...table(
        ['fetched on the first python3 (0 bytes before)', 'raw', 'gzip'],
        [...files.map((f) => [f.name, kb(f.raw), kb(f.gzip)]), ['total', kb(total.raw), kb(total.gzip)]],
      ),
      `requests off our origin: ${offOrigin.length}`,
      '',
      ...table(
        ['runaway `while True: pass`', 'time'],
        [
          ['abort → command returned (worker terminated)', ms(stop.stopMs)],
          ['next python3 run (a new worker loads Pyodide again)', ms(stop.nextMs)],
        ],
      ),
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
