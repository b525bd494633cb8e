/** Bypass corpus, run for real: red-team round 13. See cases-round13.ts and harness.ts. */
import { describe, it } from 'vitest';
import { COMMAND_OPTIONS, SPLIT_SUFFIX, TAC_WORDS, XARGS_DASH } from './cases-round13.ts';
import { type BypassCase, runCase } from './harness.ts';

const table = (cases: BypassCase[]) => cases.map((c) => [c.what, c] as const);

describe("bypass corpus: just-bash's xargs skips a lone - and runs the next word", () => {
  it.each(table(XARGS_DASH))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: split writes PREFIX, a suffix, then --additional-suffix, lexically', () => {
  it.each(table(SPLIT_SUFFIX))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's tac reads its first word, whatever it looks like", () => {
  it.each(table(TAC_WORDS))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's command takes every - word up to -- as options", () => {
  it.each(table(COMMAND_OPTIONS))('%s', async (_what, c) => runCase(c));
});
