/**
 * A generated dependency tree of 30 package versions for the `npm install` benchmark: 28 packages that
 * depend on each other with caret ranges, and two major versions of `bench-shared` (so some copies
 * nest). Folders are written to a temp directory, then packed like the other fixtures.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PackedPackage, packFolders } from './pack.ts';

/** How many `bench-pkg-NN` packages (plus two versions of bench-shared: 30 in all). */
export const BENCH_PACKAGE_COUNT = 28;

const pad = (n: number) => String(n).padStart(2, '0');

/** Some source text, so tarballs have a realistic few kilobytes to gunzip and hash. */
function sourceFor(name: string, deps: string[]): string {
  const lines = [`'use strict';`, `// ${name}: a generated benchmark package.`];
  for (const dep of deps) lines.push(`const dep_${dep.replace(/\W/g, '_')} = require('${dep}');`);
  for (let i = 0; i < 60; i++) {
    lines.push(`exports.fn${i} = function fn${i}(value) { return String(value) + ' from ${name} #${i}'; };`);
  }
  return `${lines.join('\n')}\n`;
}

/** The root project's dependencies (the top of the tree). */
export const BENCH_ROOT_DEPENDENCIES: Record<string, string> = {
  'bench-pkg-01': '^1.0.0',
  'bench-pkg-02': '^1.0.0',
  'bench-pkg-03': '^1.0.0',
  'bench-pkg-04': '^1.0.0',
  'bench-shared': '^2.0.0',
};

/** Writes the package folders under `base` and returns their paths. */
export async function writeBenchTree(base: string): Promise<string[]> {
  const dirs: string[] = [];
  const write = async (folder: string, manifest: Record<string, unknown>, deps: string[]) => {
    const dir = join(base, folder);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(dir, 'index.js'), sourceFor(String(manifest.name), deps));
    await writeFile(
      join(dir, 'README.md'),
      `# ${manifest.name}\n\n${'Generated for a benchmark. '.repeat(40)}\n`,
    );
    dirs.push(dir);
  };
  for (const major of [1, 2]) {
    await write(
      `bench-shared-${major}`,
      { name: 'bench-shared', version: `${major}.0.0`, main: 'index.js', license: 'MIT' },
      [],
    );
  }
  for (let i = 1; i <= BENCH_PACKAGE_COUNT; i++) {
    const deps: Record<string, string> = {};
    // Each package depends on the next two (a chain with shared children, deduplicated at the top).
    for (const j of [i + 4, i + 5]) if (j <= BENCH_PACKAGE_COUNT) deps[`bench-pkg-${pad(j)}`] = '^1.0.0';
    // Every third package wants the old bench-shared, which then nests under it.
    if (i % 3 === 0) deps['bench-shared'] = '^1.0.0';
    const manifest: Record<string, unknown> = {
      name: `bench-pkg-${pad(i)}`,
      version: '1.0.0',
      main: 'index.js',
      license: 'MIT',
      dependencies: deps,
    };
    if (i % 7 === 0) manifest.bin = { [`bench-bin-${pad(i)}`]: 'index.js' };
    await write(`bench-pkg-${pad(i)}`, manifest, Object.keys(deps));
  }
  return dirs;
}

/** The 30 benchmark package versions, packed. */
export async function packBenchTree(): Promise<PackedPackage[]> {
  const base = join(tmpdir(), `tabcode-bench-tree-${process.pid}-${Date.now()}`);
  try {
    return await packFolders(await writeBenchTree(base));
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
