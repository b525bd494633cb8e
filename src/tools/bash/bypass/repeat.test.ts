/**
 * Bypass corpus, run for real: commands run again or later from where the line moved, `<>` opens, and
 * moved directories. See cases-repeat.ts and harness.ts.
 */
import { describe, it } from 'vitest';
import {
  CALLED_LATER,
  LATER_SPELLINGS,
  LOOP_PASSES,
  MOVED_TREES,
  READ_WRITE_OPEN,
  STDIN_CODE,
} from './cases-repeat.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: a loop pass after a cd', () => {
  it.each(LOOP_PASSES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: a function or alias called after a cd', () => {
  it.each(CALLED_LATER.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: files opened to read and write', () => {
  it.each(READ_WRITE_OPEN.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: moved directories', () => {
  it.each(MOVED_TREES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: GNU spellings and paths inside other text', () => {
  it.each(LATER_SPELLINGS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: code on the standard input of a program nobody reads', () => {
  it.each(STDIN_CODE.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
