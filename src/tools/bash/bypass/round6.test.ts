/** Bypass corpus, run for real: red-team round 6. See cases-round6.ts and harness.ts. */
import { describe, it } from 'vitest';
import { AWK_READINGS, ROUND7_READINGS, SED_READINGS, UNPACKED_LINKS } from './cases-round6.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: sed text two implementations read differently', () => {
  it.each(SED_READINGS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: awk text two implementations read differently', () => {
  it.each(AWK_READINGS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: links an archive unpacks, cd -P through a link', () => {
  it.each(UNPACKED_LINKS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: round 7, more text two implementations read differently', () => {
  it.each(ROUND7_READINGS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
