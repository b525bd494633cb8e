/** Bypass corpus: links made in the same line, script files read (see cases-lines.ts and harness.ts). */
import { describe, it } from 'vitest';
import { LINKS_OUT, SAME_LINE_LINKS, SCRIPT_FILES } from './cases-lines.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: links made earlier in the same line', () => {
  it.each(SAME_LINE_LINKS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: script files a shell or interpreter reads', () => {
  it.each(SCRIPT_FILES.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: links out of the workspace (acceptEdits)', () => {
  it.each(LINKS_OUT.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
