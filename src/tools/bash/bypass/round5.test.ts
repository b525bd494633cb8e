/** Bypass corpus, run for real: red-team round 5. See cases-round5.ts and harness.ts. */
import { describe, it } from 'vitest';
import { GIT_TREES, LINK_PLACES, OPTION_WORDS, SCRIPT_NAMES } from './cases-round5.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: functions and variables of the script', () => {
  it.each(SCRIPT_NAMES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: two-word options and values that name paths', () => {
  it.each(OPTION_WORDS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: git comparing the file system or printing a folder', () => {
  it.each(GIT_TREES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: links moved, copied, climbed through', () => {
  it.each(LINK_PLACES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
