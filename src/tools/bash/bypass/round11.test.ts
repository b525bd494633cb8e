/** Bypass corpus, run for real: red-team round 11. See cases-round11.ts and harness.ts. */
import { describe, it } from 'vitest';
import { NPM_EXEC_CWD_BIN, NPM_IMPLICIT_ENV, NPM_UNREADABLE_PACKAGE } from './cases-round11.ts';
import { runCase } from './harness.ts';

describe('bypass corpus: npm run env runs the implicit env script', () => {
  it.each(NPM_IMPLICIT_ENV.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe('bypass corpus: a package.json the analysis cannot read is one npm runs', () => {
  it.each(NPM_UNREADABLE_PACKAGE.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});

describe("bypass corpus: npm exec -c puts the cwd's node_modules/.bin first", () => {
  it.each(NPM_EXEC_CWD_BIN.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
