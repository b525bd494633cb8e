/**
 * Bypass corpus, run for real: wrappers, here-docs fed to shells, symlinks, look-alike Unicode.
 * See harness.ts.
 */
import { describe, it } from 'vitest';
import { HERE_DOCS, LOOK_ALIKES, SYMLINKS, WRAPPERS } from './cases-shells.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: wrappers', () => {
  it.each(WRAPPERS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: here-docs', () => {
  it.each(HERE_DOCS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: symlinks', () => {
  it.each(SYMLINKS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: look-alike Unicode', () => {
  it.each(LOOK_ALIKES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
