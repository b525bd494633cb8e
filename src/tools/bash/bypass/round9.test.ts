/** Bypass corpus, run for real: red-team round 9. See cases-round9.ts and harness.ts. */
import { describe, it } from 'vitest';
import {
  AWK_ASSIGNMENT_OPERANDS,
  AWK_DASH,
  AWK_OPTIONS_AFTER_PROGRAM,
  DASH_PATTERN,
  DEV_FILES,
  NPM_SCRIPTS,
  SED_SCRIPT_OPERAND,
  TRAILING_SLASH_SOURCE,
} from './cases-round9.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: sed takes the first operand as its script when no -e came before it', () => {
  it.each(SED_SCRIPT_OPERAND.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: awk stops reading options at its program', () => {
  it.each(AWK_OPTIONS_AFTER_PROGRAM.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's awk skips a lone -", () => {
  it.each(AWK_DASH.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's awk opens var=value operands as files", () => {
  it.each(AWK_ASSIGNMENT_OPERANDS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: a pattern program's pattern may be -", () => {
  it.each(DASH_PATTERN.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: just-bash's cp and mv place a source with a trailing slash by its whole text", () => {
  it.each(TRAILING_SLASH_SOURCE.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: /dev files are plain files (and links) in just-bash', () => {
  it.each(DEV_FILES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: npm runs package.json's scripts through just-bash", () => {
  it.each(NPM_SCRIPTS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
