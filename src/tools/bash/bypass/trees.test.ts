/**
 * Bypass corpus, run for real: directories given to programs that go through what is inside them. See
 * cases-trees.ts and harness.ts.
 */
import { describe, it } from 'vitest';
import { DIRECTORY_OPERANDS, LISTED_TREES } from './cases-trees.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: a directory operand the file system names', () => {
  it.each(DIRECTORY_OPERANDS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: a listed tree that still reaches a denied file', () => {
  it.each(LISTED_TREES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
