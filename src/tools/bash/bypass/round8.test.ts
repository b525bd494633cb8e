/** Bypass corpus, run for real: red-team round 8. See cases-round8.ts and harness.ts. */
import { describe, it } from 'vitest';
import { ATTRIBUTES_LATER, GLOB_CD, GLOB_OPTIONS, NAMEREFS_INTEGERS, PIPELINE_CD } from './cases-round8.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: a cd inside a pipeline outlives it (just-bash runs stages in the shell)', () => {
  it.each(PIPELINE_CD.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: a cd or pushd target that is a glob', () => {
  it.each(GLOB_CD.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: extglob, dotglob and GLOBIGNORE', () => {
  it.each(GLOB_OPTIONS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: namerefs and integer variables', () => {
  it.each(NAMEREFS_INTEGERS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: a declaration walked after its assignment (a loop), or through an alias', () => {
  it.each(ATTRIBUTES_LATER.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
