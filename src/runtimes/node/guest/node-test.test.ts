/**
 * node:test in the real QuickJS engine, compared with what Node prints for the same test files
 * (goldens recorded from Node, see testing/node-goldens.ts), plus the `node --test` runner seam.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { GuestHarness } from './testing/harness.ts';
import { normalizeReport, REGENERATE, recordWithNode, writeGolden } from './testing/node-goldens.ts';

const FIXTURES = new URL('./testing/fixtures/node-test/', import.meta.url).pathname;
const PROJECT = '/home/user/project';

let harness: GuestHarness | undefined;
afterEach(() => {
  harness?.dispose();
  harness = undefined;
});

/** Runs a fixture as the main script of a guest process; returns its output and exit code. */
async function runFixture(name: string): Promise<{ output: string; exitCode: number }> {
  harness = await GuestHarness.create();
  const source = readFileSync(`${FIXTURES}${name}`, 'utf8');
  harness.eval(source, `${PROJECT}/${name}`);
  const exitCode = harness.runToExit();
  return { output: harness.takeOutput(), exitCode };
}

describe('node:test reports as Node does', () => {
  for (const name of ['basic.test.js', 'hooks.test.js', 'lifecycle.test.js', 'mock.test.js']) {
    it(name, async () => {
      const golden = `${FIXTURES}${name.replace(/\.js$/, '.spec.txt')}`;
      if (REGENERATE) writeGolden(golden, recordWithNode(`${FIXTURES}${name}`));
      const { output, exitCode } = await runFixture(name);
      expect(`${normalizeReport(output)}\n[exit ${exitCode}]\n`).toBe(readFileSync(golden, 'utf8'));
    });
  }
});
