/**
 * Bypass corpus, run for real: a later red-team round (env and wrapper option spellings, sed labels,
 * uniq's output operand, git configured by the session's environment). See cases-fresh.ts and harness.ts.
 */
import { describe, it } from 'vitest';
import {
  BRACES,
  CONFIGURED_PROGRAMS,
  ENV_SPELLINGS,
  GIT_ENVIRONMENT,
  INTERPRETED,
  INTO_DIRECTORIES,
  LINE_VARIABLES,
  OPERAND_WRITES,
  PROC_LINKS,
  PROGRAM_PATHS,
  SED_LABELS,
  WRAPPER_SPELLINGS,
} from './cases-fresh.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: env options read as getopt reads them', () => {
  it.each(ENV_SPELLINGS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: sed commands after a label', () => {
  it.each(SED_LABELS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: operands that are written', () => {
  it.each(OPERAND_WRITES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: wrappers' abbreviated long options", () => {
  it.each(WRAPPER_SPELLINGS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: git configured by the session's environment", () => {
  it.each(GIT_ENVIRONMENT.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: programs configured to run code their words do not show', () => {
  it.each(CONFIGURED_PROGRAMS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: programs named by their path in a system bin directory', () => {
  it.each(PROGRAM_PATHS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: writes into a denied directory named alone', () => {
  it.each(INTO_DIRECTORIES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: interpreters running code the line does not show', () => {
  it.each(INTERPRETED.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: kernel links to a process's directories", () => {
  it.each(PROC_LINKS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: brace expansion', () => {
  it.each(BRACES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: variables the line sets that make programs run code', () => {
  it.each(LINE_VARIABLES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
