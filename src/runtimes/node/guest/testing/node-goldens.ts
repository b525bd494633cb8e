/**
 * Golden files for the guest's node:test: what real Node prints for a fixture, normalised so that a
 * run in QuickJS can be compared with it. A golden is `<fixture>.spec.txt` next to the fixture: the
 * normalised stdout of `node --test-reporter=spec <fixture>` (run from a temporary folder, as
 * CommonJS), then a line `[exit N]`.
 *
 * Regenerate them with the machine's Node (Node 20.20 and Node 22 print the same `spec` format):
 *   REGENERATE_NODE_GOLDENS=1 npx vitest run src/runtimes/node/guest/node-test.test.ts
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Removes what differs between two runs of the same tests: durations, and stack frames (engines name
 * frames differently; a frame line ending in `{` starts the error's own properties, kept as `{`).
 */
export function normalizeReport(text: string): string {
  return text
    .replace(/ \(\d+(?:\.\d+)?(?:e-?\d+)?ms\)/g, ' (Nms)')
    .replace(/^(ℹ duration_ms) .*$/gm, '$1 N')
    .replace(/^(\s*)at .* \{$/gm, '$1{')
    .split('\n')
    .filter((line) => !/^\s*at .+$/.test(line))
    .join('\n');
}

/** Runs `fixture` with the machine's Node (`args` before the file) and returns its golden text. */
export function recordWithNode(fixture: string, args: string[] = ['--test-reporter=spec']): string {
  const dir = mkdtempSync(join(tmpdir(), 'node-golden-'));
  try {
    const copy = join(dir, basename(fixture));
    copyFileSync(fixture, copy);
    const result = spawnSync(process.execPath, [...args, basename(fixture)], { cwd: dir, encoding: 'utf8' });
    return `${normalizeReport(result.stdout)}\n[exit ${result.status}]\n`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const REGENERATE = process.env.REGENERATE_NODE_GOLDENS === '1';

/** Writes a golden (only in regenerate mode). */
export function writeGolden(path: string, text: string): void {
  writeFileSync(path, text);
}
