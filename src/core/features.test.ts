/**
 * Feature gates remove gated tools from the bundle: build the app with the POWERSHELL gate off (the
 * standard production build) and on, and look for a string only the PowerShell tool contains.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { featureDefines } from './features.ts';

const MARKER = 'tabcode PowerShell gate';
const outDirs: string[] = [];

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
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), `tabcode-${mode}-`));
  outDirs.push(outDir);
  await build({ mode, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  return readAll(outDir);
}

afterAll(() => {
  for (const d of outDirs) rmSync(d, { recursive: true, force: true });
});

describe('feature gates', () => {
  it('are off in standard builds and on in their own mode or by env', () => {
    expect(featureDefines('production')).toEqual({ __FEATURE_POWERSHELL__: 'false' });
    expect(featureDefines('development')).toEqual({ __FEATURE_POWERSHELL__: 'false' });
    expect(featureDefines('feature-powershell')).toEqual({ __FEATURE_POWERSHELL__: 'true' });
    expect(featureDefines('production', { TABCODE_FEATURE_POWERSHELL: '1' })).toEqual({
      __FEATURE_POWERSHELL__: 'true',
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
});
