/**
 * `npm install` of a generated 30-package tree (e2e/registry/bench-tree.ts) from the loopback registry,
 * in a real just-bash shell: cold (empty tarball cache), with the tarballs cached in IndexedDB
 * (fake-indexeddb in Node; packuments still fetched), and cached with the lock file (no request at
 * all). Medians of a few runs, side by side. The registry is on loopback, so "cold" has no network
 * latency here: over the internet the gap is larger.
 */
import 'fake-indexeddb/auto';
import { Bash, defineCommand } from 'just-bash';
import { BENCH_ROOT_DEPENDENCIES, packBenchTree } from '../e2e/registry/bench-tree.ts';
import { startRegistry } from '../e2e/registry/server.ts';
import { createIndexedDbTarballCache } from '../src/runtimes/npm/cache.ts';
import type { TarballCache } from '../src/runtimes/npm/host.ts';
import { npmCommandHandlers } from '../src/runtimes/npm/just-bash-host.ts';
import { median, ms, ratio, table } from './stats.ts';

export const title = 'npm install of a 30-package tree from a loopback registry: cold vs cached (IndexedDB)';

const PROJECT = '/home/user/project';
const RUNS = 5;

function shell(registry: string, cache: TarballCache | undefined, lock?: string): Bash {
  const handlers = npmCommandHandlers({ cache });
  const files: Record<string, string> = {
    [`${PROJECT}/package.json`]: `${JSON.stringify({ name: 'bench', version: '1.0.0', dependencies: BENCH_ROOT_DEPENDENCIES }, null, 2)}\n`,
  };
  if (lock) files[`${PROJECT}/package-lock.json`] = lock;
  return new Bash({
    cwd: PROJECT,
    files,
    env: { HOME: '/home/user', npm_config_registry: registry },
    customCommands: [defineCommand('npm', handlers.npm)],
  });
}

export async function run(): Promise<string[]> {
  const packages = await packBenchTree();
  const registry = await startRegistry({ packages });
  try {
    let db = 0;
    const freshCache = () => createIndexedDbTarballCache({ dbName: `bench-npm-${Date.now()}-${++db}` });
    const install = async (bash: Bash) => {
      registry.clearRequests();
      const t = performance.now();
      const r = await bash.exec('npm install');
      const elapsed = performance.now() - t;
      if (r.exitCode !== 0) throw new Error(`npm install failed: ${r.stderr}`);
      return { elapsed, requests: registry.requests.length, stdout: r.stdout.trim() };
    };

    // Warm-up (module loading, the first shell), then the measured runs.
    const warm = await install(shell(registry.url, undefined));
    const cold: number[] = [];
    const cached: number[] = [];
    const locked: number[] = [];
    const requests = { cold: 0, cached: 0, locked: 0 };
    for (let i = 0; i < RUNS; i++) {
      const cache = freshCache();
      const first = shell(registry.url, cache);
      const c = await install(first);
      cold.push(c.elapsed);
      requests.cold = c.requests;
      const lockText = await first.fs.readFile(`${PROJECT}/package-lock.json`);
      const h = await install(shell(registry.url, cache));
      cached.push(h.elapsed);
      requests.cached = h.requests;
      const l = await install(shell(registry.url, cache, lockText));
      locked.push(l.elapsed);
      requests.locked = l.requests;
    }
    const coldMs = median(cold);
    const bytes = packages.reduce((n, p) => n + p.tarball.length, 0);
    return [
      `${packages.length} package versions, ${(bytes / 1024).toFixed(0)} KB of tarballs; "${warm.stdout}" (warm-up run); median of ${RUNS}`,
      ...table(
        ['case', 'median', 'requests', 'vs cold'],
        [
          ['cold: empty cache, no lock', ms(coldMs), requests.cold, '1.00×'],
          [
            'tarballs cached, no lock (packuments fetched)',
            ms(median(cached)),
            requests.cached,
            ratio(median(cached), coldMs),
          ],
          [
            'tarballs cached + package-lock.json',
            ms(median(locked)),
            requests.locked,
            ratio(median(locked), coldMs),
          ],
        ],
      ),
    ];
  } finally {
    await registry.stop();
  }
}
