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

/**
 * Runs the fixture files with the machine's Node from one temporary folder (`args` before the files)
 * and returns the golden text; the folder's path in the output reads as `projectDir`.
 */
export function recordWithNode(
  fixtures: string | string[],
  args: string[] = ['--test-reporter=spec'],
  projectDir = '/home/user/project',
): string {
  const list = Array.isArray(fixtures) ? fixtures : [fixtures];
  const dir = mkdtempSync(join(tmpdir(), 'node-golden-'));
  try {
    for (const fixture of list) copyFileSync(fixture, join(dir, basename(fixture)));
    const result = spawnSync(process.execPath, [...args, ...list.map((f) => basename(f))], {
      cwd: dir,
      encoding: 'utf8',
    });
    const stdout = result.stdout.split(dir).join(projectDir);
    return `${normalizeReport(stdout)}\n[exit ${result.status}]\n`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const REGENERATE = process.env.REGENERATE_NODE_GOLDENS === '1';

/** Writes a golden (only in regenerate mode). */
export function writeGolden(path: string, text: string): void {
  writeFileSync(path, text);
}
