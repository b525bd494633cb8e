/**
 * Records the expected answers of the sandbox parity corpus from Node into expected.json, which
 * e2e/sandbox-parity.spec.ts compares with the page's. Run: `npx tsx e2e/sandbox-parity/record.ts`.
 * The Node half (answers.ts) is loaded through Vite, in the unit tests' mode, so it sees the same
 * transforms and feature flags as vitest.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import type { ExpectedAnswer } from './types.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vite = await createServer({
  configFile: `${root}/vite.config.ts`,
  mode: 'test',
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
});
try {
  const mod = (await vite.ssrLoadModule('/e2e/sandbox-parity/answers.ts')) as {
    recordAnswers(): Promise<ExpectedAnswer[]>;
  };
  const answers = await mod.recordAnswers();
  const out = fileURLToPath(new URL('./expected.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(answers, null, 2)}\n`);
  console.log(`${answers.length} answers written to ${out}`);
} finally {
  await vite.close();
}
