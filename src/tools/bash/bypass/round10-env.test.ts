/** Bypass corpus, run for real: red-team round 10, variables wrappers set. See cases-round10-env.ts and harness.ts. */
import { describe, it } from 'vitest';
import { ENV_CHDIR_CODE, ENV_WRAPPER_FORMS, ENV_WRAPPER_VARIABLES } from './cases-round10-env.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: the variables env sets reach the code the command runs', () => {
  it.each(ENV_WRAPPER_VARIABLES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: the same through env -i, -S, timeout and find -exec', () => {
  it.each(ENV_WRAPPER_FORMS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: the code a command started by env -C runs, runs from its directory', () => {
  it.each(ENV_CHDIR_CODE.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
