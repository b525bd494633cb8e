/**
 * The bad cases of `npm install`: each fails with npm's error and leaves the project byte-identical
 * (every file, folder and mode under it compared before and after).
 */
import { Bash, defineCommand, InMemoryFs } from 'just-bash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRegistry, startRegistry } from '../../../e2e/registry/server.ts';
import { makeTarball, packageTarball } from '../../../e2e/registry/tarballs.ts';
import { npmCommandHandlers } from './just-bash-host.ts';
import {
  fixturePackages,
  makeShell,
  PROJECT,
  pkgJson,
  snapshot,
  startFixtureRegistry,
} from './testing/harness.ts';

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
  registry.publishRaw(
    'dotdot',
    '1.0.0',
    packageTarball('dotdot', '1.0.0', [{ name: 'package/../../evil.js', data: 'x' }]),
  );
  registry.publishRaw(
    'absolute',
    '1.0.0',
    packageTarball('absolute', '1.0.0', [{ name: '/tmp/evil.js', data: 'x' }]),
  );
  registry.publishRaw(
    'link-out',
    '1.0.0',
    packageTarball('link-out', '1.0.0', [
      { name: 'package/lib/secret', type: 'symlink', linkname: '../../../../etc/passwd' },
    ]),
  );
  registry.publishRaw(
    'link-abs',
    '1.0.0',
    packageTarball('link-abs', '1.0.0', [{ name: 'package/root', type: 'symlink', linkname: '/' }]),
  );
  registry.publishRaw('not-gzip', '1.0.0', new TextEncoder().encode('this is not a tarball'));
  registry.publishRaw('truncated', '1.0.0', packageTarball('truncated', '1.0.0').slice(0, 40));
  registry.publishRaw('needs-missing', '1.0.0', packageTarball('needs-missing', '1.0.0'), {
    name: 'needs-missing',
    version: '1.0.0',
    dependencies: { 'never-published': '^1.0.0' },
  });
});
afterAll(() => registry.stop());

const START = pkgJson({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^2.0.0' } });

/** A project with tiny-math installed (node_modules and lock present). */
async function installed(options: Parameters<typeof makeShell>[0] = {}) {
  const bash = makeShell({ registry: registry.url, files: { 'package.json': START }, ...options });
  const r = await bash.exec('npm install');
  expect(r.exitCode).toBe(0);
  return bash;
}

/** Runs `command`; expects failure, `stderr` to contain every fragment, and the tree unchanged. */
async function failsCleanly(bash: Bash, command: string, fragments: string[], exitCode = 1) {
  const before = await snapshot(bash);
  const r = await bash.exec(command);
  expect(r.exitCode).toBe(exitCode);
  for (const fragment of fragments) expect(r.stderr).toContain(fragment);
  expect(await snapshot(bash)).toEqual(before);
  return r;
}

describe('npm install failures leave node_modules, package.json and the lock as they were', () => {
  it('a package that does not exist: npm error 404 with the URL', async () => {
    const bash = await installed();
    const r = await failsCleanly(bash, 'npm i no-such-package', [
      'npm error code E404',
      `npm error 404 Not Found - GET ${registry.url}no-such-package`,
      "npm error 404  'no-such-package@latest' is not in this registry.",
    ]);
    expect(r.stdout).toBe('');
  });

  it('a version that does not exist: npm error notarget', async () => {
    const bash = await installed();
    await failsCleanly(bash, 'npm i tiny-math@^9', [
      'npm error code ETARGET',
      'npm error notarget No matching version found for tiny-math@^9.',
    ]);
  });

  it('a dependency of a dependency that does not exist names who required it', async () => {
    const bash = await installed();
    await failsCleanly(bash, 'npm i needs-missing', [
      `npm error 404 Not Found - GET ${registry.url}never-published`,
      'npm error 404  (never-published@^1.0.0 is required by needs-missing@1.0.0)',
    ]);
  });

  it('a corrupt tarball: EINTEGRITY', async () => {
    const bash = await installed();
    registry.fail({ path: '/greet/-/greet-1.0.0.tgz', kind: 'corrupt' });
    try {
      await failsCleanly(bash, 'npm i greet', [
        'npm error code EINTEGRITY',
        'integrity checksum failed when using sha512',
        `The download of greet@1.0.0 from ${registry.url}greet/-/greet-1.0.0.tgz is damaged`,
      ]);
    } finally {
      registry.clearFailures();
    }
  });

  it("a server error (after npm's retries): E500", async () => {
    const bash = await installed();
    registry.fail({ path: '/greet', kind: 'server-error' });
    registry.clearRequests();
    try {
      await failsCleanly(bash, 'npm i greet', [
        'npm error code E500',
        `npm error 500 Internal Server Error - GET ${registry.url}greet`,
      ]);
      expect(registry.requests.filter((q) => q.path === '/greet')).toHaveLength(3);
    } finally {
      registry.clearFailures();
    }
  });

  it('a registry that answers once after a failure: the retry succeeds', async () => {
    const bash = await installed();
    registry.fail({ path: '/greet', kind: 'drop', times: 1 });
    try {
      expect((await bash.exec('npm i greet')).exitCode).toBe(0);
    } finally {
      registry.clearFailures();
    }
  });

  it('a registry that drops the connection: says npm needs the registry and could not reach it', async () => {
    const bash = await installed();
    registry.fail({ path: '/tiny-math/-/tiny-math-1.1.0.tgz', kind: 'drop' });
    try {
      await failsCleanly(bash, 'npm i greet', [
        'npm error code ENETWORK',
        `npm error network \`npm install\` needs the package registry at ${registry.url} and could not reach it.`,
        `npm error network Request: GET ${registry.url}tiny-math/-/tiny-math-1.1.0.tgz`,
      ]);
    } finally {
      registry.clearFailures();
    }
  });

  it('a registry that is down', async () => {
    const down = await startRegistry({ packages: await fixturePackages() });
    const url = down.url;
    await down.stop();
    const bash = await installed();
    await failsCleanly(bash, `npm i greet --registry=${url}`, [
      `npm error network \`npm install\` needs the package registry at ${url} and could not reach it.`,
      'npm error network Reason: fetch failed (ECONNREFUSED)',
    ]);
  });

  it('no network at all (no fetch): the same plain message', async () => {
    const bash = await installed();
    const offline = makeShell({ registry: registry.url, fetch: null, files: {} });
    // Same tree in an offline shell: copy the project over.
    for (const [path] of Object.entries(await snapshot(bash))) {
      const st = await bash.fs.lstat(path);
      if (st.isDirectory) await offline.fs.mkdir(path, { recursive: true });
      else await offline.fs.writeFile(path, await bash.fs.readFileBuffer(path));
    }
    await failsCleanly(offline, 'npm i greet', [
      `npm error network \`npm install\` needs the package registry at ${registry.url} and could not reach it.`,
      'npm error network Reason: this sandbox has no network access',
    ]);
  });

  it('npm ci without a lock, and with a lock out of sync: EUSAGE', async () => {
    const bash = await installed();
    await bash.exec('rm package-lock.json');
    await failsCleanly(bash, 'npm ci', [
      'npm error code EUSAGE',
      'can only install with an existing package-lock.json',
    ]);
    const synced = await installed();
    await synced.fs.writeFile(
      `${PROJECT}/package.json`,
      pkgJson({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^1.0.0', greet: '^1.0.0' } }),
    );
    await failsCleanly(synced, 'npm ci', [
      'npm error `npm ci` can only install packages when your package.json and package-lock.json or',
      "npm error Invalid: lock file's tiny-math@2.0.0 does not satisfy tiny-math@^1.0.0",
      'npm error Missing: greet@^1.0.0 from lock file',
    ]);
  });
});

describe('hostile and broken tarballs are refused before anything is written', () => {
  it.each([
    ['dotdot', 'package/../../evil.js'],
    ['absolute', '/tmp/evil.js'],
    ['link-out', 'package/lib/secret -> ../../../../etc/passwd'],
    ['link-abs', 'package/root -> /'],
  ])('%s: an entry outside the package folder', async (name, entry) => {
    const bash = await installed();
    const outside = await snapshot(bash, '/home');
    await failsCleanly(bash, `npm i ${name}`, [
      'npm error code EBADTARBALL',
      `npm error The tarball of ${name}@1.0.0 has an entry that points outside its package folder: ${entry}`,
    ]);
    expect(await snapshot(bash, '/home')).toEqual(outside);
    expect(await bash.fs.exists('/tmp/evil.js')).toBe(false);
  });

  it.each([
    ['not-gzip', 'no tar entries found'],
    ['truncated', 'gzip data is corrupt'],
  ])('%s: not a valid archive', async (name, why) => {
    const bash = await installed();
    await failsCleanly(bash, `npm i ${name}`, ['npm error code EBADTARBALL', why]);
  });

  it('a link that stays inside the package is skipped, as npm does', async () => {
    registry.publishRaw(
      'link-in',
      '1.0.0',
      makeTarball([
        { name: 'package/package.json', data: '{"name":"link-in","version":"1.0.0"}' },
        { name: 'package/lib/real.js', data: 'real' },
        { name: 'package/lib/alias.js', type: 'symlink', linkname: 'real.js' },
      ]),
    );
    const bash = await installed();
    expect((await bash.exec('npm i link-in')).exitCode).toBe(0);
    expect(await bash.fs.readFile(`${PROJECT}/node_modules/link-in/lib/real.js`)).toBe('real');
    expect(await bash.fs.exists(`${PROJECT}/node_modules/link-in/lib/alias.js`)).toBe(false);
  });
});

describe('interrupted and failing installs', () => {
  it('Esc during a download: stops promptly with 130, nothing written', async () => {
    const bash = await installed();
    registry.fail({ path: '/greet/-/greet-1.0.0.tgz', kind: 'hang' });
    try {
      const before = await snapshot(bash);
      const controller = new AbortController();
      registry.clearRequests();
      const running = bash.exec('npm i greet', { signal: controller.signal });
      const started = Date.now();
      while (
        !registry.requests.some((q) => q.path === '/greet/-/greet-1.0.0.tgz') &&
        Date.now() - started < 5000
      ) {
        await new Promise((r) => setTimeout(r, 5));
      }
      const abortedAt = Date.now();
      controller.abort();
      const r = await running;
      expect(Date.now() - abortedAt).toBeLessThan(500);
      expect(r.exitCode).not.toBe(0);
      expect(await snapshot(bash)).toEqual(before);
    } finally {
      registry.clearFailures();
    }
  });

  it('a write that fails half way (the file system is full): every change is undone', async () => {
    const pkgs = await fixturePackages();
    const used = pkgs.find((p) => p.name === 'tiny-math' && p.version === '2.0.0')!;
    // Room for the project and the first install, not for a second package set.
    const fs = new InMemoryFs({}, { maxTotalBytes: 12_000 });
    const handlers = npmCommandHandlers({});
    const bash = new Bash({
      fs,
      cwd: PROJECT,
      env: { HOME: '/home/user', npm_config_registry: registry.url },
      customCommands: [defineCommand('npm', handlers.npm)],
    });
    await bash.fs.mkdir(PROJECT, { recursive: true });
    await bash.fs.writeFile(`${PROJECT}/package.json`, START);
    expect((await bash.exec('npm install')).exitCode).toBe(0);
    expect(used.tarball.length).toBeGreaterThan(0);
    // tiny-math 2.0.0 is moved aside to make room for 1.x, then must come back.
    await failsCleanly(bash, 'npm i tiny-math@^1.0.0 hello-cli exports-map deep-paths esm-only multi-bin', [
      'npm error code EWRITE',
      'Every change was undone; node_modules is as it was.',
    ]);
  });
});
