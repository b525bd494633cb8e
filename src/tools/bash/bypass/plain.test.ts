/**
 * Bypass corpus, run for real: a script's own variables and functions. See cases-plain.ts and harness.ts.
 */
import { describe, it } from 'vitest';
import { FILE_COMMANDS_RUNNING_CODE, PLAIN_NAMES } from './cases-plain.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: variables and functions of the script', () => {
  it.each(PLAIN_NAMES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: a file command acceptEdits allows, running a planted program', () => {
  it.each(FILE_COMMANDS_RUNNING_CODE.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
