/** Bypass corpus, run for real: red-team round 9. See cases-round9.ts and harness.ts. */
import { describe, it } from 'vitest';
import { NPM_SCRIPTS } from './cases-round9.ts';
import { runCase } from './harness.ts';

describe("bypass corpus: npm runs package.json's scripts through just-bash", () => {
  it.each(NPM_SCRIPTS.map((c) => [c.what, c] as const))('%s', async (_what, c) => runCase(c));
});
