/**
 * Node in the tab, in Chromium (a production build of bench/node-page, served without COOP/COEP as an
 * embedding docs page would be), measured side by side in one run:
 * - `node` cold (a new page: worker start, engine load, the demo's run) vs warm (the same run again);
 * - a CPU-bound script on tabcode's node (QuickJS) vs the same code in a plain Worker on the browser's
 *   own engine (V8);
 * - how long a runaway program takes to stop after Esc (its abort);
 * - time to a ready sandbox on the app page with `auto` vs `?sandbox=just-bash`.
 */
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { serveStatic } from '../e2e/support/static-server.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { median, ms, ratio, table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title =
  'Node in the tab: node cold vs warm, CPU vs the browser engine, stop latency, time to ready (Chromium)';

export async function run(ctx: BenchContext): Promise<string[]> {
  const outDir = resolve(ctx.root, 'node_modules/.cache/tabcode-bench-node');
  const appDir = resolve(ctx.root, 'node_modules/.cache/tabcode-bench-node-app');
  const configFile = resolve(ctx.root, 'vite.config.ts');
  await build({
    configFile,
    root: ctx.root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: { input: resolve(ctx.root, 'bench/node-page/index.html') },
    },
  });
  await build({
    configFile,
    root: ctx.root,
    logLevel: 'error',
    build: { outDir: appDir, emptyOutDir: true },
  });
  const pageServer = await serveStatic(outDir);
  const appServer = await serveStatic(appDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const sample = async (phase: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${pageServer.url}/bench/node-page/index.html?phase=${phase}`);
      await page.waitForFunction(() => window.benchResult !== undefined, undefined, { timeout: 300_000 });
      const result = (await page.evaluate(() => window.benchResult)) as Record<string, number | string>;
      await context.close();
      if (typeof result.error === 'string') throw new Error(result.error);
      return result as Record<string, number>;
    };
    const colds: Record<string, number>[] = [];
    for (let i = 0; i < 5; i++) colds.push(await sample('cold'));
    const m = (key: string) => median(colds.map((c) => c[key]));
    const cpu = await sample('cpu');
    const stop = await sample('stop');

    const ready = async (query: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const t = Date.now();
        await page.goto(`${appServer.url}/${query}`);
        await page.locator('[data-testid="sandbox-badge"][data-kind]').waitFor({ timeout: 60_000 });
        await page.getByTestId('prompt-input').waitFor();
        times.push(Date.now() - t);
        await context.close();
      }
      return median(times);
    };
    const auto = await ready('');
    const justBash = await ready('?sandbox=just-bash');
    return [
      `Chromium ${browser.version()}, production build, page without COOP/COEP (median of 5 fresh pages)`,
      ...table(
        ['node', 'median', 'vs warm'],
        [
          ['cold: first `node src/index.js` in a new page', ms(m('coldMs')), ratio(m('coldMs'), m('warmMs'))],
          ['warm: the same run again', ms(m('warmMs')), '1.00×'],
          ['`npm test` (node --test), warm', ms(m('npmTestMs')), ratio(m('npmTestMs'), m('warmMs'))],
          ['for scale: `echo hi`', ms(m('echoMs')), ratio(m('echoMs'), m('warmMs'))],
        ],
      ),
      '',
      ...table(
        ['CPU-bound script (sieve to 2M + strings)', 'median of 3', 'vs browser engine'],
        [
          [
            "tabcode's node (QuickJS-ng in a worker), whole command",
            ms(cpu.quickjsMs),
            ratio(cpu.quickjsMs, cpu.nativeMs),
          ],
          [
            '  of which a command that does nothing',
            ms(cpu.quickjsNoopMs),
            ratio(cpu.quickjsNoopMs, cpu.nativeMs),
          ],
          ['the same code in a plain Worker (V8)', ms(cpu.nativeMs), '1.00×'],
        ],
      ),
      '',
      ...table(
        ['stopping a runaway (`for (;;) {}`) after Esc', 'time'],
        [
          ['median of 5', ms(stop.stopMedianMs)],
          ['slowest of 5', ms(stop.stopMaxMs)],
        ],
      ),
      '',
      ...table(
        ['app page: navigation → sandbox ready and prompt box shown', 'median of 5', 'vs just-bash'],
        [
          ['auto (the default)', ms(auto), ratio(auto, justBash)],
          ['?sandbox=just-bash', ms(justBash), '1.00×'],
        ],
      ),
    ];
  } finally {
    await browser.close();
    await pageServer.close();
    await appServer.close();
  }
}
