/**
 * Parity with the real npm CLI: the same package.json installed by `npm install` (the machine's npm,
 * against the same loopback registry, offline otherwise) and by tabcode's npm must give the same lock:
 * the same folders, versions, integrity, flags (dev / optional / peer) and metadata. npm leaves out
 * `resolved` for this registry, so that field is not compared.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LocalRegistry } from '../../../e2e/registry/server.ts';
import { makeShell, pkgJson, readJson, startFixtureRegistry } from './testing/harness.ts';

const run = promisify(execFile);
let registry: LocalRegistry;
let tmp: string;
beforeAll(async () => {
  registry = await startFixtureRegistry();
  tmp = await mkdtemp(join(tmpdir(), 'tabcode-npm-parity-'));
});
afterAll(async () => {
  await registry.stop();
  await rm(tmp, { recursive: true, force: true });
});

type Lock = { packages: Record<string, Record<string, unknown>> };

async function realNpm(name: string, pkg: Record<string, unknown>): Promise<Lock> {
  const dir = join(tmp, name);
  await run('mkdir', ['-p', dir]);
  await writeFile(join(dir, 'package.json'), pkgJson(pkg));
  await run(
    'npm',
    [
      'install',
      '--registry',
      registry.url,
      '--cache',
      join(tmp, 'cache'),
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
    ],
    { cwd: dir, env: { ...process.env, npm_config_update_notifier: 'false' }, timeout: 30_000 },
  );
  return JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8'));
}

async function ours(pkg: Record<string, unknown>): Promise<Lock> {
  const bash = makeShell({ registry: registry.url, files: { 'package.json': pkgJson(pkg) } });
  const r = await bash.exec('npm install');
  expect(r.exitCode).toBe(0);
  return (await readJson(bash, 'package-lock.json')) as Lock;
}

const withoutResolved = (lock: Lock) =>
  Object.fromEntries(Object.entries(lock.packages).map(([k, { resolved: _, ...rest }]) => [k, rest]));

it.each([
  [
    'mixed',
    {
      name: 'mixed',
      version: '1.0.0',
      dependencies: {
        'tiny-math': '^2.0.0',
        'hello-cli': '^1.0.0',
        '@fixtures/scoped-util': '^1.0.0',
        'peer-plugin': '^1.0.0',
        'optional-host': '^1.0.0',
        'install-script': '1.0.0',
        'deep-paths': '*',
        'math-one': 'npm:tiny-math@~1.0.0',
      },
      devDependencies: { 'multi-bin': '^1.0.0', 'esm-only': '^1.0.0', 'exports-map': '1.0.0' },
    },
  ],
  [
    'peers-and-dev',
    {
      name: 'peers',
      version: '0.1.0',
      dependencies: { 'peer-plugin': '^1.0.0', greet: '^1.0.0' },
      devDependencies: { 'hello-cli': '^1.0.0', 'esm-only': '^1.0.0' },
      optionalDependencies: { 'darwin-only': '^1.0.0' },
    },
  ],
])(
  '%s: the same lock as npm',
  async (name, pkg) => {
    const [theirs, mine] = await Promise.all([realNpm(name, pkg), ours(pkg)]);
    expect(withoutResolved(mine)).toEqual(withoutResolved(theirs));
    // The order npm writes keys in, too.
    for (const [key, entry] of Object.entries(theirs.packages)) {
      expect(
        Object.keys(mine.packages[key]).filter((k) => k !== 'resolved'),
        key,
      ).toEqual(Object.keys(entry));
    }
  },
  60_000,
);
