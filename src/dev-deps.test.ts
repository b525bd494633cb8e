/**
 * `vite dev` pre-bundles every package a page may import at startup, so it never reloads the page to
 * add one later (losing the draft, the output and a key held in memory). Its scan follows the pages'
 * imports, static and dynamic, but not a worker: each worker's module must be a scan entry. This checks
 * the dev server's real config against every worker the source starts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { loadConfigFromFile } from 'vite';
import { describe, expect, it } from 'vitest';
import { WORKER_ENTRIES } from '../vite.config.ts';
import { featureDefines } from './core/features.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Source files (tests left out), relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [relative(ROOT, path)] : [];
  });
}

/** The module of every worker the source starts: `new Worker(new URL('…', import.meta.url))`, `?worker`. */
function workersInSource(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const specs = [
      ...text.matchAll(/new (?:Shared)?Worker\(\s*new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g),
      ...text.matchAll(/from\s+['"]([^'"]+)\?worker(?:&url)?['"]/g),
    ].map((m) => m[1]);
    for (const spec of specs) found.add(relative(ROOT, resolve(ROOT, dirname(file), spec)));
  }
  return [...found].sort();
}

describe('vite dev pre-bundles what workers import', () => {
  it('every worker the source starts is a dependency-scan entry', () => {
    const workers = workersInSource();
    expect(workers.length).toBeGreaterThanOrEqual(6);
    expect(WORKER_ENTRIES.map((w) => w.path).sort()).toEqual(workers);
  });

  it("the dev server's config scans the pages and the workers whose gates are on", async () => {
    const loaded = await loadConfigFromFile(
      { command: 'serve', mode: 'development' },
      'vite.config.ts',
      ROOT,
      'silent',
    );
    const entries = loaded?.config.optimizeDeps?.entries;
    expect(entries).toEqual(expect.arrayContaining(['index.html', 'embed.html']));
    const flags = featureDefines('development', process.env);
    for (const w of WORKER_ENTRIES) {
      // A gated worker (LSP is off in a standard dev server) is scanned only with its gate on.
      const on = !w.feature || flags[`__FEATURE_${w.feature}__`] === 'true';
      if (on) expect(entries).toContain(w.path);
      else expect(entries).not.toContain(w.path);
    }
  });
});
