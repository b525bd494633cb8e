/**
 * Bypass corpus, run for real: the first corpus, second half (wrappers, here-docs, shells, find,
 * xargs). See harness.ts and classic-first.test.ts.
 */
import { describe, it } from 'vitest';
import { CLASSIC } from './cases-classic.ts';
import { runCase } from './harness.ts';

const HALF = Math.ceil(CLASSIC.length / 2);

describe('bypass corpus: the first corpus, run for real (second half)', () => {
  it.each(CLASSIC.slice(HALF).map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
