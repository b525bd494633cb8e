/**
 * The loopback registry as a process (Playwright's webServer, or by hand):
 *   npx tsx e2e/registry/cli.ts [--port 4873] [--bench]
 * Packs the fixtures (and with --bench the generated 30-package tree), serves them, prints the URL,
 * and stops on SIGINT / SIGTERM.
 */
import { packBenchTree } from './bench-tree.ts';
import { packFixtures } from './pack.ts';
import { startRegistry } from './server.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const packages = [
  ...(await packFixtures()),
  ...(process.argv.includes('--bench') ? await packBenchTree() : []),
];
const registry = await startRegistry({ packages, port: Number(arg('port') ?? 0) });
registry.setDistTag('tiny-math', 'next', '2.1.0-beta.1');
console.log(`registry listening at ${registry.url} (${packages.length} package versions)`);
const stop = async () => {
  await registry.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
