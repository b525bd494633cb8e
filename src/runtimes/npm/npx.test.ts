/** `npx` and `npm exec` in a real just-bash shell: local bins, and packages installed on demand. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRegistry } from '../../../e2e/registry/server.ts';
import { makeShell, PROJECT, pkgJson, snapshot, startFixtureRegistry } from './testing/harness.ts';

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
});
afterAll(() => registry.stop());

async function project() {
  const bash = makeShell({
    registry: registry.url,
    files: {
      'package.json': pkgJson({
        name: 'app',
        version: '1.0.0',
        dependencies: { 'hello-cli': '^1.0.0', greet: '^1.0.0' },
      }),
    },
  });
  expect((await bash.exec('npm install')).exitCode).toBe(0);
  return bash;
}

describe('npx', () => {
  it('runs a bin from node_modules/.bin, from the project or any folder below it, in the current folder', async () => {
    const bash = await project();
    await bash.exec('mkdir -p src/nested');
    registry.clearRequests();
    const r = await bash.exec('cd src/nested && npx hello-cli "Ada Lovelace" --shout');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `node ["${PROJECT}/node_modules/hello-cli/bin/hello.js","Ada Lovelace","--shout"] cwd=${PROJECT}/src/nested\n`,
    );
    expect(registry.requests).toEqual([]);
  });

  it('npx <package>@<range> uses the installed package when its version satisfies, else fetches', async () => {
    const bash = await project();
    registry.clearRequests();
    const local = await bash.exec('npx hello-cli@^1.0.0 Al');
    expect(local.stdout).toBe(
      `node ["${PROJECT}/node_modules/hello-cli/bin/hello.js","Al"] cwd=${PROJECT}\n`,
    );
    expect(registry.requests).toEqual([]);
    const other = await bash.exec('npx hello-cli@^2.0.0');
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toContain('npm error notarget No matching version found for hello-cli@^2.0.0.');
  });

  it("npm exec -- <bin> and npm exec -c run with npm's environment", async () => {
    const bash = await project();
    const r = await bash.exec('npm exec -- hello-cli Bo');
    expect(r.stdout).toBe(`node ["${PROJECT}/node_modules/hello-cli/bin/hello.js","Bo"] cwd=${PROJECT}\n`);
    const c = await bash.exec(`npm exec -c 'hello-cli Cy && echo "$npm_lifecycle_event $npm_package_name"'`);
    expect(c.stdout).toBe(
      `node ["${PROJECT}/node_modules/hello-cli/bin/hello.js","Cy"] cwd=${PROJECT}\nnpx app\n`,
    );
  });

  it('passes the exit code of the program through', async () => {
    const bash = await project();
    await bash.fs.writeFile(`${PROJECT}/node_modules/.bin/fails`, 'echo failing >&2\nexit 5\n');
    await bash.fs.chmod(`${PROJECT}/node_modules/.bin/fails`, 0o755);
    const r = await bash.exec('npx fails; echo "rc=$?"');
    expect(r.stdout).toBe('rc=5\n');
    expect(r.stderr).toBe('failing\n');
  });

  it('installs a package that is not in the project into a scratch prefix (the project is untouched), then runs it', async () => {
    const bash = await project();
    const before = await snapshot(bash);
    const r = await bash.exec('npx multi-bin');
    // multi-bin has two commands and neither is named like it.
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('could not determine executable to run');
    const two = await bash.exec('npx -p multi-bin mb-two hello');
    expect(two.exitCode).toBe(0);
    expect(two.stdout).toMatch(
      /^node \["\/tmp\/\.npm\/_npx\/[0-9a-f]{16}\/node_modules\/multi-bin\/bin\/two\.js","hello"\]/,
    );
    expect(two.stderr).toContain(
      'npm warn exec The following package was not found and will be installed: multi-bin',
    );
    expect(await snapshot(bash)).toEqual(before);
    // Once installed there, a second run makes no request.
    registry.clearRequests();
    expect((await bash.exec('npx -p multi-bin mb-one')).exitCode).toBe(0);
    expect(registry.requests).toEqual([]);
  });

  it('npx <package> runs its bin when the package names one', async () => {
    const bash = makeShell({ registry: registry.url, files: { 'package.json': pkgJson({ name: 'empty' }) } });
    const r = await bash.exec('npx hello-cli@1.0.0 Zoe');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /node \["\/tmp\/\.npm\/_npx\/[0-9a-f]+\/node_modules\/hello-cli\/bin\/hello\.js","Zoe"\]/,
    );
  });

  it('--no-install refuses to install; a package without a bin and an unknown name are clear errors', async () => {
    const bash = await project();
    const no = await bash.exec('npx --no-install multi-bin');
    expect(no.exitCode).toBe(1);
    expect(no.stderr).toContain(
      'npm error npx canceled due to missing packages and no YES option: ["multi-bin"]',
    );
    expect(no.stderr).toContain('npm install multi-bin');
    const noBin = await bash.exec('npx greet');
    expect(noBin.exitCode).toBe(1);
    expect(noBin.stderr).toContain('npm error could not determine executable to run: greet');
    const unknown = await bash.exec('npx no-such-tool');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain(`npm error 404 Not Found - GET ${registry.url}no-such-tool`);
    expect(unknown.stderr).toContain('`no-such-tool` is not a command in any node_modules/.bin here');
  });

  it('npx with nothing to run prints its usage', async () => {
    const r = await makeShell().exec('npx');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('npm error npx <command> [args...]');
  });
});
