/**
 * Bypass corpus, run for real: options whose value is optional, awk strings spelled with escapes. See
 * cases-options.ts and harness.ts.
 */
import { describe, it } from 'vitest';
import { OPTIONAL_VALUES, OPTIONAL_VALUES_GNU, TAR_DIRECTORIES } from './cases-options.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: an option that takes no separate value (just-bash)', () => {
  it.each(OPTIONAL_VALUES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: an option that takes no separate value (GNU programs)', () => {
  it.each(OPTIONAL_VALUES_GNU.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: tar members after several -C', () => {
  it.each(TAR_DIRECTORIES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
