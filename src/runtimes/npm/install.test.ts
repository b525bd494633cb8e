/**
 * `npm install` in a real just-bash shell against the loopback registry serving tarballs made by
 * `npm pack` of e2e/registry/fixtures: placement, bins, the lock file, saving, prereleases, peers,
 * optional dependencies, install scripts, root lifecycle scripts, `.npmrc` registries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../e2e/registry/pack.ts';
import { type LocalRegistry, startRegistry } from '../../../e2e/registry/server.ts';
import {
  fixturePackages,
  makeShell,
  PROJECT,
  pkgJson,
  readJson,
  startFixtureRegistry,
} from './testing/harness.ts';

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
});
afterAll(() => registry.stop());

const shell = (pkg: Record<string, unknown>, files: Record<string, string> = {}) =>
  makeShell({ registry: registry.url, files: { 'package.json': pkgJson(pkg), ...files } });

const integrityOf = async (name: string, version: string) =>
  (await fixturePackages()).find((p) => p.name === name && p.version === version)!.integrity;

describe('npm install', () => {
  it('installs the tree npm would: hoisted, nested on a version conflict, scoped, with bins and a v3 lock', async () => {
    const bash = shell({
      name: 'app',
      version: '1.0.0',
      dependencies: {
        'tiny-math': '^2.0.0',
        'hello-cli': '^1.0.0',
        '@fixtures/scoped-util': '^1.0.0',
        'exports-map': '1.0.0',
        'esm-only': '^1.0.0',
        'deep-paths': '*',
      },
      devDependencies: { 'multi-bin': '^1.0.0' },
    });
    const r = await bash.exec('npm install');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\nadded 9 packages in \d+m?s\n$/);

    const version = async (path: string) => (await readJson(bash, `${path}/package.json`)).version;
    expect(await version('node_modules/tiny-math')).toBe('2.0.0');
    // greet wants tiny-math ^1: the highest 1.x nests under it.
    expect(await version('node_modules/greet')).toBe('1.0.0');
    expect(await version('node_modules/greet/node_modules/tiny-math')).toBe('1.1.0');
    expect(await version('node_modules/@fixtures/scoped-util')).toBe('1.0.0');
    expect(await bash.fs.exists(`${PROJECT}/node_modules/hello-cli/node_modules`)).toBe(false);

    // Files are the packed ones, byte for byte, with the `package/` prefix gone (long paths included).
    for (const file of ['esm/index.mjs', 'cjs/index.cjs', 'feature.js', 'package.json']) {
      expect(await bash.fs.readFile(`${PROJECT}/node_modules/exports-map/${file}`)).toBe(
        readFileSync(join(FIXTURES_DIR, 'exports-map-1.0.0', file), 'utf8'),
      );
    }
    const long =
      'lib/a-very-long-directory-name-for-testing-the-ustar-prefix-field/another-quite-long-directory-name/third-level/file-with-a-long-name.js';
    expect(await bash.fs.readFile(`${PROJECT}/node_modules/deep-paths/${long}`)).toBe(
      "module.exports = 'deep';\n",
    );

    // .bin shims just-bash can run: the interpreter and the absolute path of the package's file.
    expect(await bash.fs.readFile(`${PROJECT}/node_modules/.bin/hello-cli`)).toBe(
      [
        '#!/bin/sh',
        '# tabcode npm: the "hello-cli" command of hello-cli@1.0.0',
        `exec node ${PROJECT}/node_modules/hello-cli/bin/hello.js "$@"`,
        '',
      ].join('\n'),
    );
    expect((await bash.fs.readdir(`${PROJECT}/node_modules/.bin`)).sort()).toEqual([
      'hello-cli',
      'mb-one',
      'mb-two',
    ]);
    // Shims and their targets are executable (npm pack stores bin files as 0644).
    expect((await bash.fs.stat(`${PROJECT}/node_modules/.bin/hello-cli`)).mode & 0o111).not.toBe(0);
    expect((await bash.fs.stat(`${PROJECT}/node_modules/hello-cli/bin/hello.js`)).mode & 0o111).not.toBe(0);
    const run = await bash.exec('hello-cli Ada; echo "rc=$?"; mb-two "x y"', {
      env: { PATH: `${PROJECT}/node_modules/.bin:/usr/bin:/bin` },
    });
    expect(run.stdout).toBe(
      [
        `node ["${PROJECT}/node_modules/hello-cli/bin/hello.js","Ada"] cwd=${PROJECT}`,
        'rc=0',
        `node ["${PROJECT}/node_modules/multi-bin/bin/two.js","x y"] cwd=${PROJECT}`,
        '',
      ].join('\n'),
    );

    const lock = await readJson(bash, 'package-lock.json');
    expect(lock.lockfileVersion).toBe(3);
    expect(lock.requires).toBe(true);
    expect(Object.keys(lock.packages)).toEqual([
      '',
      'node_modules/@fixtures/scoped-util',
      'node_modules/deep-paths',
      'node_modules/esm-only',
      'node_modules/exports-map',
      'node_modules/greet',
      'node_modules/greet/node_modules/tiny-math',
      'node_modules/hello-cli',
      'node_modules/multi-bin',
      'node_modules/tiny-math',
    ]);
    expect(lock.packages['']).toEqual({
      name: 'app',
      version: '1.0.0',
      dependencies: {
        '@fixtures/scoped-util': '^1.0.0',
        'deep-paths': '*',
        'esm-only': '^1.0.0',
        'exports-map': '1.0.0',
        'hello-cli': '^1.0.0',
        'tiny-math': '^2.0.0',
      },
      devDependencies: { 'multi-bin': '^1.0.0' },
    });
    expect(lock.packages['node_modules/greet/node_modules/tiny-math']).toEqual({
      version: '1.1.0',
      resolved: `${registry.url}tiny-math/-/tiny-math-1.1.0.tgz`,
      integrity: await integrityOf('tiny-math', '1.1.0'),
      license: 'MIT',
    });
    expect(lock.packages['node_modules/hello-cli']).toEqual({
      version: '1.0.0',
      resolved: `${registry.url}hello-cli/-/hello-cli-1.0.0.tgz`,
      integrity: await integrityOf('hello-cli', '1.0.0'),
      license: 'MIT',
      dependencies: { greet: '~1.0.0' },
      bin: { 'hello-cli': 'bin/hello.js' },
    });
    expect(lock.packages['node_modules/multi-bin']).toMatchObject({
      dev: true,
      bin: { 'mb-one': 'bin/one.js', 'mb-two': 'bin/two.js' },
    });
    expect(lock.packages['node_modules/@fixtures/scoped-util'].resolved).toBe(
      `${registry.url}@fixtures/scoped-util/-/scoped-util-1.0.0.tgz`,
    );
    // npm's key order: plain values first, then objects.
    expect(Object.keys(lock.packages['node_modules/hello-cli'])).toEqual([
      'version',
      'resolved',
      'integrity',
      'license',
      'dependencies',
      'bin',
    ]);

    // A second install changes nothing and says so.
    const lockText = await bash.fs.readFile(`${PROJECT}/package-lock.json`);
    const again = await bash.exec('npm install');
    expect(again.stdout).toMatch(/^\nup to date in \d+m?s\n$/);
    expect(await bash.fs.readFile(`${PROJECT}/package-lock.json`)).toBe(lockText);
  });

  it('npm i <name> saves ^version; -D saves to devDependencies; -E saves exactly; the lock follows', async () => {
    const bash = shell({ name: 'app', version: '1.0.0' });
    const r = await bash.exec(
      'npm i tiny-math && npm i -D greet@~1.0.0 && npm install --save-exact multi-bin',
    );
    expect(r.exitCode).toBe(0);
    const pkg = await readJson(bash, 'package.json');
    expect(pkg.dependencies).toEqual({ 'multi-bin': '1.0.0', 'tiny-math': '^2.0.0' });
    expect(pkg.devDependencies).toEqual({ greet: '~1.0.0' });
    const lock = await readJson(bash, 'package-lock.json');
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
    expect(lock.packages[''].devDependencies).toEqual(pkg.devDependencies);
    expect(lock.packages['node_modules/greet'].dev).toBe(true);
    expect(lock.packages['node_modules/greet/node_modules/tiny-math'].dev).toBe(true);
    expect(lock.packages['node_modules/tiny-math'].dev).toBeUndefined();

    // Moving a dependency: -P takes greet out of devDependencies.
    await bash.exec('npm i -P greet');
    const moved = await readJson(bash, 'package.json');
    expect(moved.dependencies.greet).toBe('^1.0.0');
    expect(moved.devDependencies).toEqual({});
  });

  it('--no-save installs without touching package.json or the lock', async () => {
    const bash = shell({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^2.0.0' } });
    await bash.exec('npm install');
    const pkgBefore = await bash.fs.readFile(`${PROJECT}/package.json`);
    const lockBefore = await bash.fs.readFile(`${PROJECT}/package-lock.json`);
    const r = await bash.exec('npm i esm-only --no-save');
    expect(r.exitCode).toBe(0);
    expect(await bash.fs.exists(`${PROJECT}/node_modules/esm-only/index.js`)).toBe(true);
    expect(await bash.fs.readFile(`${PROJECT}/package.json`)).toBe(pkgBefore);
    expect(await bash.fs.readFile(`${PROJECT}/package-lock.json`)).toBe(lockBefore);
  });

  it('prereleases as npm treats them: ranges skip them, a tag or a prerelease range picks one', async () => {
    const bash = shell({ name: 'app', version: '1.0.0' });
    await bash.exec('npm i tiny-math@^2.0.0');
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('2.0.0');
    await bash.exec('npm i tiny-math@next');
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('2.1.0-beta.1');
    expect((await readJson(bash, 'package.json')).dependencies['tiny-math']).toBe('^2.1.0-beta.1');
    await bash.exec('npm i tiny-math@">=2.1.0-beta.0 <3"');
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('2.1.0-beta.1');
    await bash.exec('npm i tiny-math@latest');
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('2.0.0');
  });

  it('reuses lock versions that still satisfy (no request for them) and re-resolves ones that do not', async () => {
    const bash = shell({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '1.0.0' } });
    await bash.exec('npm install');
    // Loosen the range: 1.0.0 still satisfies ^1.0.0, so it stays although 1.1.0 exists.
    await bash.fs.writeFile(
      `${PROJECT}/package.json`,
      pkgJson({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^1.0.0' } }),
    );
    registry.clearRequests();
    const r = await bash.exec('npm install');
    expect(r.exitCode).toBe(0);
    expect(registry.requests).toEqual([]);
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('1.0.0');
    const lock = await readJson(bash, 'package-lock.json');
    expect(lock.packages['node_modules/tiny-math'].version).toBe('1.0.0');
    expect(lock.packages[''].dependencies).toEqual({ 'tiny-math': '^1.0.0' });
    // A range the locked version misses: resolved again.
    await bash.fs.writeFile(
      `${PROJECT}/package.json`,
      pkgJson({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^2.0.0' } }),
    );
    const up = await bash.exec('npm install');
    expect(up.stdout).toMatch(/changed 1 package in/);
    expect((await readJson(bash, 'node_modules/tiny-math/package.json')).version).toBe('2.0.0');
  });

  it('installs peer dependencies (not optional peers), and reports a peer conflict as ERESOLVE', async () => {
    const bash = shell({ name: 'app', version: '1.0.0', dependencies: { 'peer-plugin': '^1.0.0' } });
    expect((await bash.exec('npm install')).exitCode).toBe(0);
    const lock = await readJson(bash, 'package-lock.json');
    expect(lock.packages['node_modules/tiny-math']).toMatchObject({ version: '2.0.0', peer: true });
    expect(lock.packages['node_modules/optional-peer']).toBeUndefined();

    const conflict = shell({
      name: 'app',
      version: '1.0.0',
      dependencies: { 'peer-plugin': '^1.0.0', 'tiny-math': '^1.0.0' },
    });
    const r = await conflict.exec('npm install');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error code ERESOLVE');
    expect(r.stderr).toContain('npm error peer tiny-math@"^2.0.0" from peer-plugin@1.0.0');
    expect(r.stderr).toContain('--legacy-peer-deps');
    expect(await conflict.fs.exists(`${PROJECT}/node_modules`)).toBe(false);
    const legacy = await conflict.exec('npm install --legacy-peer-deps');
    expect(legacy.exitCode).toBe(0);
    expect((await readJson(conflict, 'node_modules/tiny-math/package.json')).version).toBe('1.1.0');
  });

  it('optional dependencies: another platform stays in the lock uninstalled; an unpublished one is skipped', async () => {
    const bash = shell({ name: 'app', version: '1.0.0', dependencies: { 'optional-host': '^1.0.0' } });
    const r = await bash.exec('npm install');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/added 1 package in/);
    const lock = await readJson(bash, 'package-lock.json');
    expect(lock.packages['node_modules/darwin-only']).toMatchObject({
      version: '1.0.0',
      optional: true,
      os: ['darwin'],
      cpu: ['arm64'],
    });
    expect(lock.packages['node_modules/never-published']).toBeUndefined();
    expect(await bash.fs.exists(`${PROJECT}/node_modules/darwin-only`)).toBe(false);
  });

  it('does not run install scripts of dependencies and says which were skipped', async () => {
    const bash = shell({ name: 'app', version: '1.0.0', dependencies: { 'install-script': '1.0.0' } });
    const r = await bash.exec('npm install');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      "npm warn install-scripts skipped the install scripts of 1 package (tabcode's npm does not run dependency install scripts): install-script@1.0.0\n",
    );
    expect(await bash.fs.exists('/tmp/install-script-ran')).toBe(false);
    expect(
      (await readJson(bash, 'package-lock.json')).packages['node_modules/install-script'].hasInstallScript,
    ).toBe(true);
  });

  it("runs the project's own lifecycle scripts after npm install, not after npm i <name>", async () => {
    const bash = shell({
      name: 'app',
      version: '1.0.0',
      scripts: { postinstall: 'echo postinstall ran', prepare: 'echo prepare ran' },
    });
    const r = await bash.exec('npm install');
    expect(r.stdout).toContain('> app@1.0.0 postinstall\n> echo postinstall ran\n\npostinstall ran\n');
    expect(r.stdout.indexOf('postinstall ran')).toBeLessThan(r.stdout.indexOf('prepare ran'));
    const add = await bash.exec('npm i tiny-math');
    expect(add.stdout).not.toContain('postinstall ran');
    // Nor does uninstall (npm 7+ has no uninstall scripts, and runs the root's install ones only for an
    // install naming no package): the permission analysis counts none for either (npm-scripts.ts).
    const remove = await bash.exec('npm uninstall tiny-math');
    expect(remove.exitCode).toBe(0);
    expect(remove.stdout).not.toMatch(/postinstall ran|prepare ran/);
    expect(add.stdout).not.toContain('prepare ran');
    const skipped = await bash.exec('npm install --ignore-scripts');
    expect(skipped.stdout).not.toContain('postinstall ran');
  });

  it('removes packages that are no longer needed, and uninstall (rm) takes them out of package.json', async () => {
    const bash = shell({
      name: 'app',
      version: '1.0.0',
      dependencies: { 'hello-cli': '^1.0.0', 'tiny-math': '^2.0.0' },
    });
    await bash.exec('npm install');
    const r = await bash.exec('npm rm hello-cli');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\nremoved 3 packages in \d+m?s\n$/);
    expect((await readJson(bash, 'package.json')).dependencies).toEqual({ 'tiny-math': '^2.0.0' });
    expect(await bash.fs.readdir(`${PROJECT}/node_modules`)).toEqual(['tiny-math']);
    expect(Object.keys((await readJson(bash, 'package-lock.json')).packages)).toEqual([
      '',
      'node_modules/tiny-math',
    ]);
    // A stray folder in node_modules is extraneous: npm install removes it.
    await bash.exec(
      'mkdir -p node_modules/stray && echo \'{"name":"stray","version":"0.1.0"}\' > node_modules/stray/package.json',
    );
    const prune = await bash.exec('npm install');
    expect(prune.stdout).toMatch(/removed 1 package in/);
    expect(await bash.fs.exists(`${PROJECT}/node_modules/stray`)).toBe(false);
  });

  it('installs an alias (npm:) under its alias name', async () => {
    const bash = shell({
      name: 'app',
      version: '1.0.0',
      dependencies: { 'math-one': 'npm:tiny-math@^1.0.0' },
    });
    expect((await bash.exec('npm install')).exitCode).toBe(0);
    const pkg = await readJson(bash, 'node_modules/math-one/package.json');
    expect([pkg.name, pkg.version]).toEqual(['tiny-math', '1.1.0']);
    expect((await readJson(bash, 'package-lock.json')).packages['node_modules/math-one']).toMatchObject({
      name: 'tiny-math',
      version: '1.1.0',
    });
  });

  it('without package.json, npm i <name> creates one with the dependency', async () => {
    const bash = makeShell({ registry: registry.url });
    expect((await bash.exec('npm i greet')).exitCode).toBe(0);
    expect(await readJson(bash, 'package.json')).toEqual({ dependencies: { greet: '^1.0.0' } });
  });
});

describe('registry configuration', () => {
  it('reads registry= from the project .npmrc, then ~/.npmrc; npm_config_registry and --registry win', async () => {
    const other = await startRegistry({ packages: await fixturePackages() });
    try {
      const pkg = pkgJson({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^1.0.0' } });
      const project = makeShell({
        files: { 'package.json': pkg, '.npmrc': `; comment\nregistry=${other.url}\n` },
      });
      other.clearRequests();
      expect((await project.exec('npm install')).exitCode).toBe(0);
      expect(other.requests.length).toBeGreaterThan(0);
      expect((await readJson(project, 'package-lock.json')).packages['node_modules/tiny-math'].resolved).toBe(
        `${other.url}tiny-math/-/tiny-math-1.1.0.tgz`,
      );

      const home = makeShell({
        files: { 'package.json': pkg, '/home/user/.npmrc': `registry = ${other.url}\n` },
      });
      other.clearRequests();
      expect((await home.exec('npm install')).exitCode).toBe(0);
      expect(other.requests.length).toBeGreaterThan(0);

      // The environment beats .npmrc; the command line beats both.
      const env = makeShell({
        registry: registry.url,
        files: { 'package.json': pkg, '.npmrc': `registry=${other.url}\n` },
      });
      other.clearRequests();
      expect((await env.exec('npm install')).exitCode).toBe(0);
      expect(other.requests).toEqual([]);
      const cli = makeShell({ registry: 'http://127.0.0.1:9/', files: { 'package.json': pkg } });
      expect((await cli.exec(`npm install --registry=${other.url}`)).exitCode).toBe(0);

      // A scope can have its own registry.
      const scoped = makeShell({
        files: {
          'package.json': pkgJson({ name: 'app', dependencies: { '@fixtures/scoped-util': '^1.0.0' } }),
          '.npmrc': `registry=${registry.url}\n@fixtures:registry=${other.url}\n`,
        },
      });
      other.clearRequests();
      registry.clearRequests();
      expect((await scoped.exec('npm install')).exitCode).toBe(0);
      expect(other.requests.map((q) => q.path)).toEqual([
        '/@fixtures/scoped-util',
        '/@fixtures/scoped-util/-/scoped-util-1.0.0.tgz',
      ]);
      expect(registry.requests.map((q) => q.path)).toEqual([
        '/tiny-math',
        '/tiny-math/-/tiny-math-2.0.0.tgz',
      ]);
    } finally {
      await other.stop();
    }
  });

  it('asks for abbreviated packuments', async () => {
    registry.clearRequests();
    await shell({ name: 'app', dependencies: { 'tiny-math': '^1.0.0' } }).exec('npm install');
    const packument = registry.requests.find((q) => q.kind === 'packument')!;
    expect(packument.accept).toContain('application/vnd.npm.install-v1+json');
  });
});
