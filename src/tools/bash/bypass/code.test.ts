/**
 * Bypass corpus, run for real: "read-only" commands that evaluate code, eval, ANSI-C names. Each case
 * goes through the real engine in every mode and the real just-bash sandbox, then runs unchecked to
 * prove the attack does what it says (see harness.ts).
 */
import { describe, it } from 'vitest';
import { ANSI_C, CODE_VARIABLES, EVAL, EVALUATING } from './cases-code.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: code the shell evaluates', () => {
  it.each(EVALUATING.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: variables whose value the shell runs', () => {
  it.each(CODE_VARIABLES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: eval', () => {
  it.each(EVAL.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: obfuscated ANSI-C strings', () => {
  it.each(ANSI_C.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
