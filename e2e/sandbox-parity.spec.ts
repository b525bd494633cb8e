/**
 * Sandbox parity: the app's just-bash sandbox (in its Web Worker, built for production) answers the
 * corpus of e2e/sandbox-parity/corpus.ts as the unit tests' sandbox does in Node. The expected answers
 * are recorded from Node by `npx tsx e2e/sandbox-parity/record.ts` (expected.json); the page runs the
 * same Bash tool calls (the setup, then groups of commands, each in a subshell), scripted by the mock
 * Messages API in two model turns, and each command's stdout, stderr and exit code, split back out of
 * the tool results the model got, is compared with Node's. Node and the browser differ in ways the
 * unit tests cannot see (no Buffer, no zlib, a smaller Worker stack); this is where they show.
 */
import { expect, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import { corpusGroups, groupScript, SETUP, splitGroup } from './sandbox-parity/corpus.ts';
import expected from './sandbox-parity/expected.json' with { type: 'json' };
import { KNOWN_DIVERGENCES } from './sandbox-parity/known.ts';
import { normalise } from './sandbox-parity/normalise.ts';
import type { ExpectedAnswer } from './sandbox-parity/types.ts';
import {
  allowEverything,
  connect,
  openApp,
  resultText,
  sendPrompt,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

const answers = expected as ExpectedAnswer[];
const groups = corpusGroups();
const idOf = (g: number) => `toolu_parity_${g}`;
const show = (a: Omit<ExpectedAnswer, 'command'>) =>
  JSON.stringify({ stdout: a.stdout, stderr: a.stderr, exitCode: a.exitCode });

test('the page sandbox answers the corpus as the Node sandbox does', async ({ page }) => {
  test.setTimeout(120_000);
  // expected.json must be recorded from this corpus (re-run record.ts after editing it).
  expect(answers.map((a) => a.command)).toEqual(groups.flat());
  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_parity_setup', name: 'Bash', input: { command: SETUP } }] },
    {
      content: groups.map((group, g) => ({
        type: 'tool_use' as const,
        id: idOf(g),
        name: 'Bash',
        input: { command: groupScript(g, group) },
      })),
    },
    { content: [{ type: 'text', text: 'parity run done' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Run the sandbox parity corpus.');
  // Some commands write to paths known only when they run, which is asked about in every mode: allow.
  const allow = page.getByTestId('permission-allow-once');
  await expect(async () => {
    if (await allow.first().isVisible()) await allow.first().click();
    // The third request carries every tool result (the scripted text turn answers it).
    expect(api.requests.length).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 90_000, intervals: [250] });
  await waitIdle(page);

  const last = api.requests.at(-1);
  if (!last) throw new Error('no request reached the mock API');
  const setup = toolResultFor(last, 'toolu_parity_setup');
  expect(setup && resultText(setup)).toBe('setup-done');
  const diverged: string[] = [];
  let i = 0;
  for (const [g, group] of groups.entries()) {
    const block = toolResultFor(last, idOf(g));
    const text = block ? resultText(block) : '(no tool result)';
    const split = splitGroup(text, group.length);
    expect(split, `group ${g} did not split into its ${group.length} answers:\n${text}`).not.toBeNull();
    for (const [j, got] of (split ?? []).entries()) {
      const want = answers[i + j];
      const page = { stdout: normalise(got.stdout), stderr: normalise(got.stderr), exitCode: got.exitCode };
      const known = KNOWN_DIVERGENCES[want.command];
      const ok = known ? show(page) === show(known) : show(page) === show(want);
      if (!ok) diverged.push(`${want.command}\n  node: ${show(want)}\n  page: ${show(page)}`);
    }
    i += group.length;
  }
  expect(diverged, `${diverged.length} of ${i} commands diverged:\n${diverged.join('\n')}`).toEqual([]);
});
