/** Bypass corpus: actions hidden in a builtin's or program's own syntax (see cases-builtins.ts, harness.ts). */
import { describe, it } from 'vitest';
import { HIDDEN_ACTIONS } from './cases-builtins.ts';
import { runCase } from './harness.ts';

describe("bypass corpus: actions hidden in a builtin's or program's own syntax", () => {
  it.each(HIDDEN_ACTIONS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
