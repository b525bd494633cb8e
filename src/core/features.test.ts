/**
 * Feature gates remove gated tools from the bundle: build the app with the POWERSHELL gate off (the
 * standard production build) and on, and look for a string only the PowerShell tool contains. The
 * PYTHON gate is the other way round (on in standard builds): a `no-python` build must have none of
 * python3's code and none of Pyodide's files.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureDefines } from './features.ts';

const MARKER = 'tabcode PowerShell gate';
/** In the LSP tool (src/tools/lsp/lsp.ts). */
const LSP_MARKER = 'tabcode LSP gate';
/** The TypeScript language service the LSP worker runs (a function only the compiler package has). */
const TS_MARKER = 'createLanguageService';
/** In python3's help text (src/runtimes/python/cli.ts). */
const PYTHON_MARKER = 'tabcode python gate';
const outDirs: string[] = [];

/** Every file name under `dir`, recursively. */
function namesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

function readAll(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) text += readAll(p);
    else if (/\.(js|mjs|html|css)$/.test(name)) text += readFileSync(p, 'utf8');
  }
  return text;
}

async function buildApp(mode: string): Promise<string> {
  return (await buildInto(mode)).text;
}

/** Builds per mode, shared by the tests (a build takes seconds). */
const builds = new Map<string, Promise<{ text: string; names: string[] }>>();

function buildInto(mode: string): Promise<{ text: string; names: string[] }> {
  let build = builds.get(mode);
  if (!build) {
    build = buildOnce(mode);
    builds.set(mode, build);
  }
  return build;
}

async function buildOnce(mode: string): Promise<{ text: string; names: string[] }> {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), `tabcode-${mode}-`));
  outDirs.push(outDir);
  await build({ mode, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  return { text: readAll(outDir), names: namesIn(outDir) };
}

afterAll(() => {
  for (const d of outDirs) rmSync(d, { recursive: true, force: true });
});

describe('feature gates', () => {
  it('are off in standard builds and on in their own mode or by env', () => {
    expect(featureDefines('production')).toMatchObject({ __FEATURE_POWERSHELL__: 'false' });
    expect(featureDefines('development')).toMatchObject({ __FEATURE_POWERSHELL__: 'false' });
    expect(featureDefines('feature-powershell')).toMatchObject({ __FEATURE_POWERSHELL__: 'true' });
    expect(featureDefines('production', { TABCODE_FEATURE_POWERSHELL: '1' })).toMatchObject({
      __FEATURE_POWERSHELL__: 'true',
    });
  });

  it('PYTHON is on in standard builds, off with --mode no-python or TABCODE_FEATURE_PYTHON=0', () => {
    for (const mode of ['production', 'development', 'test', 'feature-powershell'])
      expect(featureDefines(mode)).toEqual({
        __FEATURE_POWERSHELL__: mode === 'feature-powershell' ? 'true' : 'false',
        __FEATURE_PYTHON__: 'true',
        __FEATURE_LSP__: 'false',
      });
    expect(featureDefines('no-python')).toEqual({
      __FEATURE_POWERSHELL__: 'false',
      __FEATURE_PYTHON__: 'false',
      __FEATURE_LSP__: 'false',
    });
    expect(featureDefines('production', { TABCODE_FEATURE_PYTHON: '0' })).toMatchObject({
      __FEATURE_PYTHON__: 'false',
    });
    expect(featureDefines('no-python', { TABCODE_FEATURE_PYTHON: '1' })).toMatchObject({
      __FEATURE_PYTHON__: 'true',
    });
  });

  it('leave no trace of a gated tool in a build with the gate off, and include it with the gate on', async () => {
    const off = await buildApp('production');
    expect(off.length).toBeGreaterThan(10_000);
    expect(off).toContain('Glob'); // the ungated tools are there
    expect(off).not.toContain(MARKER);
    const on = await buildApp('feature-powershell');
    expect(on).toContain(MARKER);
  }, 240_000);

  it('a no-python build has none of python3 or Pyodide; the standard build has both', async () => {
    const standard = await buildInto('production');
    expect(standard.text).toContain(PYTHON_MARKER);
    expect(standard.names.some((n) => n.endsWith('pyodide.asm.wasm'))).toBe(true);
    expect(standard.names.some((n) => n.endsWith('python_stdlib.zip'))).toBe(true);
    const off = await buildInto('no-python');
    expect(off.text).toContain('Glob');
    expect(off.text).not.toContain(PYTHON_MARKER);
    expect(off.text).not.toContain('loadPyodide');
    expect(off.names.filter((n) => /pyodide|python_stdlib/i.test(n))).toEqual([]);
  }, 240_000);

  it('LSP is off in standard builds, on with --mode feature-lsp or TABCODE_FEATURE_LSP=1', () => {
    expect(featureDefines('production')).toMatchObject({ __FEATURE_LSP__: 'false' });
    expect(featureDefines('feature-lsp')).toMatchObject({ __FEATURE_LSP__: 'true' });
    expect(featureDefines('production', { TABCODE_FEATURE_LSP: '1' })).toMatchObject({
      __FEATURE_LSP__: 'true',
    });
  });

  it('a build with the LSP gate off has none of the LSP tool, its worker or TypeScript', async () => {
    const off = await buildInto('production');
    expect(off.text).toContain('Glob');
    expect(off.text).not.toContain(LSP_MARKER);
    expect(off.text).not.toContain(TS_MARKER);
    expect(off.names.filter((n) => /lsp-worker|typescript/i.test(n))).toEqual([]);
  }, 240_000);

  it.skipIf(!typescriptForLsp())(
    'a feature-lsp build has the LSP tool, and TypeScript only in the worker chunk loaded on first use',
    async () => {
      const on = await buildInto('feature-lsp');
      expect(on.text).toContain(LSP_MARKER);
      const worker = on.names.filter((n) => /lsp-worker/.test(n));
      expect(worker.length).toBeGreaterThan(0);
    },
    300_000,
  );
});

/** True when the LSP worker's TypeScript (the `typescript-5` package) is installed. */
function typescriptForLsp(): boolean {
  try {
    statSync(join(process.cwd(), 'node_modules/typescript-5/lib/typescript.js'));
    return true;
  } catch {
    console.warn(
      'features.test: typescript-5 (npm:typescript@5.9.3) is not installed; the feature-lsp build is not checked.',
    );
    return false;
  }
}
