/** Bypass corpus, run for real: red-team round 10. See cases-round10.ts and harness.ts. */
import { describe, it } from 'vitest';
import {
  NPM_BIN_PATH,
  NPM_ENV_VARIABLES,
  NPM_NESTED,
  NPM_OPTION_PARSING,
  NPM_SCRIPT_ARGUMENTS,
  NPM_SCRIPTS_PROTECTED,
} from './cases-round10.ts';
import { runCase } from './harness.ts';

describe("bypass corpus: npm's own option parsing decides the command and the package", () => {
  it.each(NPM_OPTION_PARSING.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: npm appends the arguments to the script', () => {
  it.each(NPM_SCRIPT_ARGUMENTS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: a script that runs npm runs another package's scripts", () => {
  it.each(NPM_NESTED.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: npm's PATH puts node_modules/.bin first for scripts", () => {
  it.each(NPM_BIN_PATH.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: the protected paths a script writes', () => {
  it.each(NPM_SCRIPTS_PROTECTED.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: the variables env sets reach the scripts npm runs', () => {
  it.each(NPM_ENV_VARIABLES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
