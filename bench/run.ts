/**
 * `npm run bench`: runs every benchmark in one process and prints figures as ratios measured side by
 * side in the same run. Bench modules are loaded through Vite (ssrLoadModule) so they see the same
 * transforms as the app (?raw prompts, feature defines).
 *
 *   npm run bench                      # all
 *   npm run bench -- --only schema     # benchmarks whose name contains "schema"
 *   npm run bench -- --data DIR        # bench data folder (default ../shared/bench-data)
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from 'vite';
import type { BenchContext, BenchModule } from './types.ts';

const BENCHES: string[] = [
  '/bench/read-parallel.ts',
  '/bench/schema-cache.ts',
  '/bench/deferred-tokens.ts',
  '/bench/tool-search.ts',
  '/bench/cache-share.ts',
  '/bench/sandbox.ts',
  '/bench/workbench.ts',
  '/bench/embed.ts',
  '/bench/shell-analysis.ts',
  '/bench/npm-install.ts',
  '/bench/node.ts',
  '/bench/python.ts',
  '/bench/mcp-connect.ts',
  '/bench/compaction.ts',
  '/bench/tool-set.ts',
  '/bench/long-tasks.ts',
];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const only = arg('only');
  const dataDir = resolve(arg('data') ?? resolve(import.meta.dirname, '../../shared/bench-data'));
  const ctx: BenchContext = {
    dataDir: existsSync(dataDir) ? dataDir : undefined,
    root: resolve(import.meta.dirname, '..'),
  };
  console.log(`tabcode benchmarks — node ${process.version}, ${new Date().toISOString()}`);
  console.log(
    `bench data: ${ctx.dataDir ?? `absent (${dataDir}); data-driven benchmarks will say so and skip`}\n`,
  );
  const vite = await createServer({
    configFile: resolve(ctx.root, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  let failed = 0;
  for (const id of BENCHES) {
    if (only && !id.includes(only)) continue;
    const module = (await vite.ssrLoadModule(id)) as BenchModule;
    console.log(`## ${module.title}`);
    try {
      const lines = await module.run(ctx);
      for (const line of lines) console.log(line);
    } catch (err) {
      failed++;
      console.log(`FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    console.log('');
  }
  await vite.close();
  process.exit(failed ? 1 : 0);
}

main();
