/**
 * Bypass corpus, run for real: writes hidden in option values, operands and sed/awk programs, and
 * paths whose meaning the shell session changed (HOME, cd, CDPATH). See harness.ts.
 */
import { describe, it } from 'vitest';
import { IMPLICIT_PATHS, OPTION_VALUES, PROGRAM_WRITES, PROTECTED, SESSION_PATHS } from './cases-paths.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: option values and operands that are files', () => {
  it.each(OPTION_VALUES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: writes inside sed and awk programs', () => {
  it.each(PROGRAM_WRITES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: protected paths reached without naming them', () => {
  it.each(PROTECTED.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: HOME, cd, CDPATH, PATH and BASH_ENV from the session', () => {
  it.each(SESSION_PATHS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: files read without being named', () => {
  it.each(IMPLICIT_PATHS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
