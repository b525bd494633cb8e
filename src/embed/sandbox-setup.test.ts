/**
 * The playground's sandbox for real (just-bash): read-only files refused through every writing method
 * (and folders holding them), the config's dependencies installed by the sandbox's own npm from a
 * loopback registry (its URL in the project's .npmrc), and the failures of an install said plainly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRegistry } from '../../e2e/registry/server.ts';
import { startFixtureRegistry } from '../runtimes/npm/testing/harness.ts';
import { readOnlyRules } from './embed-controller.ts';
import { installDependencies, openPlaygroundSandbox } from './sandbox-setup.ts';

describe('read-only files', () => {
  it('are refused by writeFile, rm and rename, with a message the model can act on', async () => {
    const sandbox = await openPlaygroundSandbox({
      preference: 'just-bash',
      files: { 'README.md': '# Docs\n', 'src/lib/keep.js': 'x\n', 'src/app.js': 'y\n', 'notes.txt': 'n\n' },
      readOnly: ['README.md', 'src/lib/**'],
    });
    const root = sandbox.root;
    await expect(sandbox.writeFile(`${root}/README.md`, 'changed')).rejects.toThrow(
      /README\.md is read-only in this playground/,
    );
    await expect(sandbox.writeFile('src/lib/new.js', 'z')).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(sandbox.rm(`${root}/README.md`)).rejects.toThrow(/read-only/);
    // A folder that holds a read-only file can be neither removed nor moved.
    await expect(sandbox.rm(`${root}/src`, { recursive: true })).rejects.toThrow(
      /src\/lib\/keep\.js is read-only/,
    );
    await expect(sandbox.rename(`${root}/src`, `${root}/moved`)).rejects.toThrow(/read-only/);
    await expect(sandbox.rename(`${root}/notes.txt`, `${root}/README.md`)).rejects.toThrow(/read-only/);
    // Everything else still works, through the same sandbox.
    await sandbox.writeFile(`${root}/src/app.js`, 'changed\n');
    await sandbox.rename(`${root}/notes.txt`, `${root}/notes.md`);
    expect(await sandbox.readFile(`${root}/README.md`)).toBe('# Docs\n');
    expect(await sandbox.readFile(`${root}/src/app.js`)).toBe('changed\n');
    expect(await sandbox.exists(`${root}/notes.md`)).toBe(true);
    expect(sandbox.info().kind).toBe('just-bash');
    await sandbox.dispose();
  });

  it('become Edit deny rules anchored at the project root', () => {
    expect(readOnlyRules(['README.md', 'src/lib/**'])).toEqual(['Edit(/README.md)', 'Edit(/src/lib/**)']);
  });
});

describe('dependencies', () => {
  let registry: LocalRegistry;
  beforeAll(async () => {
    registry = await startFixtureRegistry();
  });
  afterAll(() => registry.stop());

  it('are installed with the sandbox npm from the registry in .npmrc, next to the existing manifest', async () => {
    const sandbox = await openPlaygroundSandbox({
      preference: 'just-bash',
      files: {
        '.npmrc': `registry=${registry.url.replace(/\/$/, '')}/\n`,
        'package.json': JSON.stringify({
          name: 'docs-demo',
          version: '1.0.0',
          scripts: { start: 'node index.js' },
        }),
        'index.js': "console.log(require('tiny-math').add(2, 3));\n",
      },
    });
    const result = await installDependencies(sandbox, { 'tiny-math': '^2.0.0' });
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    const manifest = JSON.parse(await sandbox.readFile(`${sandbox.root}/package.json`));
    expect(manifest).toMatchObject({
      name: 'docs-demo',
      scripts: { start: 'node index.js' },
      dependencies: { 'tiny-math': '^2.0.0' },
    });
    expect(await sandbox.exists(`${sandbox.root}/node_modules/tiny-math/package.json`)).toBe(true);
    expect(await sandbox.exists(`${sandbox.root}/package-lock.json`)).toBe(true);
    expect(registry.requests.some((r) => r.kind === 'tarball')).toBe(true);
    await sandbox.dispose();
  }, 30_000);

  it('say why when the package does not exist, or the manifest is broken', async () => {
    const sandbox = await openPlaygroundSandbox({
      preference: 'just-bash',
      files: { '.npmrc': `registry=${registry.url.replace(/\/$/, '')}/\n` },
    });
    const missing = await installDependencies(sandbox, { 'no-such-package-here': '^1.0.0' });
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(
      /npm install failed \(exit \d+\): .*no-such-package-here/s,
    );
    await sandbox.writeFile(`${sandbox.root}/package.json`, '{ not json');
    const broken = await installDependencies(sandbox, { 'tiny-math': '^2.0.0' });
    expect(broken).toEqual({
      ok: false,
      message: 'package.json is not valid JSON: the dependencies were not installed.',
    });
    await sandbox.dispose();
  }, 30_000);
});
