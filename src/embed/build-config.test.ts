/**
 * The build's storage namespaces and base, through the real config files (Vite loads and runs them as
 * `vite build` does): a bad namespace stops the build with a message naming the variable; a good one is
 * compiled in; the app build's asset URLs are relative, so one build serves from any path.
 */
import { loadConfigFromFile, type UserConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';

const VARS = ['TABCODE_STORAGE_NAMESPACE', 'TABCODE_EMBED_STORAGE_NAMESPACE'] as const;
const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));

afterEach(() => {
  for (const v of VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
});

async function config(file: 'vite.config.ts' | 'vite.lib.config.ts'): Promise<UserConfig> {
  const loaded = await loadConfigFromFile(
    { command: 'build', mode: 'production' },
    file,
    undefined,
    'silent',
  );
  if (!loaded) throw new Error(`${file} did not load`);
  return loaded.config;
}

describe('build config', () => {
  it.each(['vite.config.ts', 'vite.lib.config.ts'] as const)(
    '%s: a bad namespace stops the build',
    async (file) => {
      process.env.TABCODE_STORAGE_NAMESPACE = 'My Docs';
      await expect(config(file)).rejects.toThrow(
        'TABCODE_STORAGE_NAMESPACE="My Docs" is not a valid storage namespace: use 1 to 40 lower-case letters',
      );
      process.env.TABCODE_STORAGE_NAMESPACE = 'docs';
      process.env.TABCODE_EMBED_STORAGE_NAMESPACE = 'docs';
      await expect(config(file)).rejects.toThrow("is the stand-alone page's namespace too");
    },
  );

  it('compiles the namespaces in, with a relative base for the app build', async () => {
    process.env.TABCODE_STORAGE_NAMESPACE = 'docs';
    const app = await config('vite.config.ts');
    expect(app.base).toBe('./');
    expect(app.define).toMatchObject({
      __TABCODE_STORAGE_NAMESPACE__: '"docs"',
      __TABCODE_EMBED_STORAGE_NAMESPACE__: '"docs-embed"',
    });
    delete process.env.TABCODE_STORAGE_NAMESPACE;
    expect((await config('vite.lib.config.ts')).define).toMatchObject({
      __TABCODE_EMBED_STORAGE_NAMESPACE__: '"tabcode-embed"',
    });
  });
});
