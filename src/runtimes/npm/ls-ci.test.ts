/** `npm ci` (exactly the lock) and `npm ls` (the installed tree) in a real just-bash shell. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRegistry } from '../../../e2e/registry/server.ts';
import { makeShell, PROJECT, pkgJson, readJson, startFixtureRegistry } from './testing/harness.ts';

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
});
afterAll(() => registry.stop());

const APP = {
  name: 'app',
  version: '1.0.0',
  dependencies: { 'hello-cli': '^1.0.0', 'tiny-math': '^2.0.0', 'optional-host': '^1.0.0' },
  devDependencies: { 'multi-bin': '^1.0.0' },
};

async function installedApp() {
  const bash = makeShell({ registry: registry.url, files: { 'package.json': pkgJson(APP) } });
  expect((await bash.exec('npm install')).exitCode).toBe(0);
  return bash;
}

describe('npm ci', () => {
  it('installs exactly the lock into a fresh node_modules and never writes package.json or the lock', async () => {
    const bash = await installedApp();
    // Pin greet's tiny-math to 1.0.0 in the lock (1.1.0 is newer): ci must install the lock's version.
    const lock = await readJson(bash, 'package-lock.json');
    const nested = lock.packages['node_modules/greet/node_modules/tiny-math'];
    Object.assign(nested, {
      version: '1.0.0',
      resolved: `${registry.url}tiny-math/-/tiny-math-1.0.0.tgz`,
      integrity: (await fetchIntegrity('tiny-math', '1.0.0')) as string,
    });
    const lockText = `${JSON.stringify(lock, null, 2)}\n`;
    await bash.fs.writeFile(`${PROJECT}/package-lock.json`, lockText);
    await bash.exec('mkdir -p node_modules/stray && touch node_modules/stray/x');
    const pkgText = await bash.fs.readFile(`${PROJECT}/package.json`);
    registry.clearRequests();
    const r = await bash.exec('npm ci');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\nadded 6 packages in \d+m?s\n$/);
    expect((await readJson(bash, 'node_modules/greet/node_modules/tiny-math/package.json')).version).toBe(
      '1.0.0',
    );
    expect(await bash.fs.exists(`${PROJECT}/node_modules/stray`)).toBe(false);
    expect(await bash.fs.exists(`${PROJECT}/node_modules/darwin-only`)).toBe(false);
    expect(await bash.fs.readFile(`${PROJECT}/package-lock.json`)).toBe(lockText);
    expect(await bash.fs.readFile(`${PROJECT}/package.json`)).toBe(pkgText);
    // The lock has every URL and integrity: no packument is fetched.
    expect(registry.requests.every((q) => q.kind === 'tarball')).toBe(true);
    expect((await bash.fs.readdir(`${PROJECT}/node_modules/.bin`)).sort()).toEqual([
      'hello-cli',
      'mb-one',
      'mb-two',
    ]);
  });

  it('--omit=dev leaves development dependencies out', async () => {
    const bash = await installedApp();
    const r = await bash.exec('npm ci --omit=dev');
    expect(r.exitCode).toBe(0);
    expect(await bash.fs.exists(`${PROJECT}/node_modules/multi-bin`)).toBe(false);
    expect(await bash.fs.exists(`${PROJECT}/node_modules/.bin/mb-one`)).toBe(false);
    expect(await bash.fs.exists(`${PROJECT}/node_modules/hello-cli`)).toBe(true);
  });
});

async function fetchIntegrity(name: string, version: string) {
  const res = await fetch(`${registry.url}${name}`);
  const doc = (await res.json()) as { versions: Record<string, { dist: { integrity: string } }> };
  return doc.versions[version].dist.integrity;
}

describe('npm ls', () => {
  it('draws the top level, --all with deduped, a filter, --parseable and --json', async () => {
    const bash = await installedApp();
    const top = await bash.exec('npm ls');
    expect(top.exitCode).toBe(0);
    expect(top.stdout).toBe(
      [
        `app@1.0.0 ${PROJECT}`,
        '├── hello-cli@1.0.0',
        '├── multi-bin@1.0.0',
        '├── optional-host@1.0.0',
        '└── tiny-math@2.0.0',
        '',
        '',
      ].join('\n'),
    );
    const all = await bash.exec('npm ls --all');
    expect(all.stdout).toBe(
      [
        `app@1.0.0 ${PROJECT}`,
        '├─┬ hello-cli@1.0.0',
        '│ └─┬ greet@1.0.0',
        '│   └── tiny-math@1.1.0',
        '├── multi-bin@1.0.0',
        '├── optional-host@1.0.0',
        '└── tiny-math@2.0.0',
        '',
        '',
      ].join('\n'),
    );
    const filtered = await bash.exec('npm ls tiny-math');
    expect(filtered.stdout).toBe(
      [
        `app@1.0.0 ${PROJECT}`,
        '├─┬ hello-cli@1.0.0',
        '│ └─┬ greet@1.0.0',
        '│   └── tiny-math@1.1.0',
        '└── tiny-math@2.0.0',
        '',
        '',
      ].join('\n'),
    );
    const parseable = await bash.exec('npm ls --parseable');
    expect(parseable.stdout.split('\n')[1]).toBe(`${PROJECT}/node_modules/hello-cli`);
    const json = JSON.parse((await bash.exec('npm ls --all --json')).stdout);
    expect(json.dependencies['hello-cli'].dependencies.greet.dependencies['tiny-math'].version).toBe('1.1.0');
  });

  it('marks missing, invalid and extraneous packages and exits 1', async () => {
    const bash = await installedApp();
    await bash.fs.writeFile(
      `${PROJECT}/package.json`,
      pkgJson({
        ...APP,
        dependencies: { 'hello-cli': '^1.0.0', 'tiny-math': '^1.0.0', 'esm-only': '^1.0.0' },
      }),
    );
    const r = await bash.exec('npm ls');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(
      [
        `app@1.0.0 ${PROJECT}`,
        '├── UNMET DEPENDENCY esm-only@^1.0.0',
        '├── hello-cli@1.0.0',
        '├── multi-bin@1.0.0',
        '├── optional-host@1.0.0 extraneous',
        `└── tiny-math@2.0.0 invalid: "^1.0.0" from the root project`,
        '',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toContain('npm error code ELSPROBLEMS');
    expect(r.stderr).toContain('npm error missing: esm-only@^1.0.0, required by the root project');
    expect(r.stderr).toContain(
      `npm error extraneous: optional-host@1.0.0 ${PROJECT}/node_modules/optional-host`,
    );
  });

  it('an empty project', async () => {
    const r = await makeShell({ files: { 'package.json': pkgJson({ name: 'e', version: '0.1.0' }) } }).exec(
      'npm ls',
    );
    expect(r.stdout).toBe(`e@0.1.0 ${PROJECT}\n└── (empty)\n\n`);
    expect(r.exitCode).toBe(0);
  });
});
