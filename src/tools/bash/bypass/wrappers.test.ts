/** Bypass corpus: wrappers that run a command, containers' redirections (see cases-wrappers.ts, harness.ts). */
import { describe, it } from 'vitest';
import { CONTAINER_REDIRECTS, WRAPPED_PROGRAMS } from './cases-wrappers.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: wrappers that run a denied program', () => {
  it.each(WRAPPED_PROGRAMS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: a container's own redirections", () => {
  it.each(CONTAINER_REDIRECTS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
