/** Bypass corpus, run for real: a file's content under another name (see cases-aliases.ts and harness.ts). */
import { describe, it } from 'vitest';
import { ARCHIVES, HARD_LINKS, NAME_LISTS, READ_WHILE_WRITING, READERS } from './cases-aliases.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: programs that read what they rewrite, move or split', () => {
  it.each(READ_WHILE_WRITING.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: hard links', () => {
  it.each(HARD_LINKS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: archives extracted over denied files', () => {
  it.each(ARCHIVES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: files of file names', () => {
  it.each(NAME_LISTS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: pagers, dumpers and converters read their files', () => {
  it.each(READERS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
