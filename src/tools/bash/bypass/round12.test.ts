/** Bypass corpus, run for real: red-team round 12. See cases-round12.ts and harness.ts. */
import { describe, it } from 'vitest';
import {
  AWK_APPEND_READS,
  AWK_GETLINE_COMMAND,
  AWK_REGEX_BRACKET,
  ENV_CLUSTER_UNSET,
  FIND_COMMA,
  GZIP_OUTPUT,
  SED_BRACKET_CLASS,
  SED_DEV_STDIN,
  SED_NAME_END,
  SHELL_FIRST_WORD,
  TIME_OPTIONS,
  UNIQ_OUTPUT_READ,
} from './cases-round12.ts';
import { type BypassCase, runCase } from './harness.ts';

const table = (cases: BypassCase[]) => cases.map((c) => [c.what, c] as const);

describe('bypass corpus: a sed class ends at the first ] in just-bash', () => {
  it.each(table(SED_BRACKET_CLASS))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's sed ends a file name at ; only", () => {
  it.each(table(SED_NAME_END))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: sed reads /dev/stdin as a plain file', () => {
  it.each(table(SED_DEV_STDIN))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's awk ends a regex at its first /", () => {
  it.each(table(AWK_REGEX_BRACKET))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: awk's | getline runs the whole expression before it", () => {
  it.each(table(AWK_GETLINE_COMMAND))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's awk reads the file it appends to", () => {
  it.each(table(AWK_APPEND_READS))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's uniq reads its OUT operand", () => {
  it.each(table(UNIQ_OUTPUT_READ))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's find takes a , as a starting point", () => {
  it.each(table(FIND_COMMA))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: gzip and gunzip write FILE with or without its suffix', () => {
  it.each(table(GZIP_OUTPUT))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's env takes no value after a u inside a cluster", () => {
  it.each(table(ENV_CLUSTER_UNSET))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's time takes values after -f and -o alone", () => {
  it.each(table(TIME_OPTIONS))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's bash runs its first word as a script unless it is -c", () => {
  it.each(table(SHELL_FIRST_WORD))('%s', async (_what, c) => runCase(c));
});
