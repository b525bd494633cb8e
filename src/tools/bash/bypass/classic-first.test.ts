/**
 * Bypass corpus, run for real: the first corpus, first half (compound commands, quoting, variables,
 * paths), plus commands the rules must let through. See harness.ts; the second half is in
 * classic-second.test.ts (one file would run too long).
 */
import { describe, expect, it } from 'vitest';
import { CLASSIC, CONTROLS } from './cases-classic.ts';
import { decisionOf, RULES, runCase } from './harness.ts';

const HALF = Math.ceil(CLASSIC.length / 2);

describe('bypass corpus: the first corpus, run for real (first half)', () => {
  it('has at least 100 attempts', () => {
    expect(CLASSIC.length).toBeGreaterThanOrEqual(100);
  });

  it.each(CLASSIC.slice(0, HALF).map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));

  it.each(CONTROLS)('control, allowed and run in bypassPermissions mode: %s', async (_what, command) => {
    expect(await decisionOf(command, 'bypassPermissions', RULES)).toBe('allow');
  });
});
