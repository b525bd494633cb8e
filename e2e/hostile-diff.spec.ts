/**
 * Issue 17, diffing of huge inputs (and large files in the sandbox's Worker): a Write that rewrites a 10,000-line file used to freeze the tab while
 * its card computed the diff (Myers' algorithm on two different 10,000-line texts: 87 s on this machine).
 * Now the diff gives up past its edit limit and shows the lines as replaced, and a folded card renders only
 * the rows that show. An error of thousands of lines, or of one 120,000-character line, is shown folded
 * the same way (shown whole, an Edit's error quoting a 300 kB string cost 35 ms of text layout), and a
 * diff row of a minified file's one long line is cut with a note (a 1.5 MB row took 460-620 ms to lay
 * out). Real Chromium, the built site, the real SDK against the mock Messages API. The
 * longest main-thread task is printed for the report; the assertions are on state.
 */
import { expect, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  resultText,
  sendPrompt,
  toolCard,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';
const LINES = 10_000;

let api: MockApi;
withMockApi((started) => {
  api = started;
});

test('a Write that rewrites a 10,000-line file shows a bounded diff and the page keeps answering', async ({
  page,
}) => {
  const rewritten = Array.from({ length: LINES }, (_, i) => `new ${i}`).join('\n');
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_make',
          name: 'Bash',
          input: {
            command: `seq 0 ${LINES - 1} | sed 's/^/old /' > big.txt && wc -l big.txt && tail -n 1 big.txt`,
          },
        },
      ],
    },
    {
      content: [
        { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${ROOT}/big.txt` } },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_rewrite',
          name: 'Write',
          input: { file_path: `${ROOT}/big.txt`, content: `${rewritten}\n` },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Rewritten.' }] },
  ]);

  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask' });
  });
  await sendPrompt(page, 'Rewrite big.txt.');

  const card = toolCard(page, 'toolu_rewrite');
  await expect(card).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await waitIdle(page);
  await expect(card.getByTestId('diff-fallback')).toBeVisible();
  await expect(card.getByTestId('diff-view')).toContainText(`+${LINES}`);
  await expect(card.getByTestId('diff-view')).toContainText(`−${LINES}`);
  // Folded: the first rows are there, not all 20,000.
  await expect(card.locator('[data-diff-op="del"]').first()).toHaveText(/old 0/);
  expect(await card.locator('.diff-line').count()).toBeLessThanOrEqual(40);
  await expect(card.getByTestId('fold-toggle')).toHaveText(`Show all ${2 * LINES} lines`);

  // Shell commands read the 88 KB file the pipeline wrote (in the sandbox's Worker, every file over
  // ~62 KB once failed with "No such file or directory": see src/sandbox/binary-reads.ts).
  const made = toolResultFor(api.requests[1], 'toolu_make');
  expect(made?.is_error).toBeFalsy();
  expect(resultText(made ?? {})).toBe(`${LINES} big.txt\nold ${LINES - 1}`);
  expect(JSON.stringify(toolResultFor(api.requests[api.requests.length - 1], 'toolu_rewrite'))).toMatch(
    /big\.txt/,
  );
  const longest = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  console.log(`hostile diff: longest main-thread task ${Math.round(longest)} ms`);
});

test('a huge error is shown folded (its first lines, or its first characters of one long line) and whole on demand', async ({
  page,
}) => {
  const manyLines = Array.from({ length: 6_000 }, (_, i) => `export const v${i} = ${i}; // absent`).join(
    '\n',
  );
  const oneLine = 'q'.repeat(120_000);
  const edit = (id: string, old: string) => ({
    type: 'tool_use' as const,
    id,
    name: 'Edit',
    input: { file_path: `${ROOT}/README.md`, old_string: old, new_string: 'x' },
  });
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_rd', name: 'Read', input: { file_path: `${ROOT}/README.md` } },
      ],
    },
    { content: [edit('toolu_lines', manyLines), edit('toolu_long', oneLine)] },
    { content: [{ type: 'text', text: 'Both failed.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Edit README.md.');
  await waitIdle(page);
  // The model got each error (large ones as a preview with the path to the whole, as every large result).
  const last = api.requests[api.requests.length - 1];
  for (const id of ['toolu_lines', 'toolu_long']) {
    expect(toolResultFor(last, id)?.is_error).toBe(true);
    expect(resultText(toolResultFor(last, id) ?? {})).toContain('String to replace not found in file.');
  }

  for (const [id, toggle, whole] of [
    ['toolu_lines', /^Show all 6001 lines$/, 'v5999 = 5999'],
    ['toolu_long', /^Show all 120,0\d\d characters$/, oneLine],
  ] as const) {
    const card = toolCard(page, id);
    await expect(card).toHaveAttribute('data-status', 'error');
    // Refused before it ran, the call is still named as the tool names it.
    await expect(card.locator('.tool-title')).toHaveText('Update');
    await expect(card.locator('.tool-subtitle')).toHaveText(`${ROOT}/README.md`);
    const result = card.getByTestId('tool-result');
    await expect(result).toContainText('String to replace not found in file.');
    const shownChars = await result.evaluate((el) => el.textContent?.length ?? 0);
    expect(shownChars).toBeLessThanOrEqual(8_100);
    await expect(result).not.toContainText(whole);
    // The card also shows the refused call (its diff, with a fold of its own): the result's fold.
    await result.getByTestId('fold-toggle').filter({ hasText: toggle }).click();
    await expect(result).toContainText(whole);
    await expect(result.getByTestId('fold-toggle')).toHaveText('Show less');
  }
});

test('a Write of one 300,000-character line (a minified file): its diff row is cut with a note, the file is whole', async ({
  page,
}) => {
  const line = `var a=${JSON.stringify('x'.repeat(300_000))};`;
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_min',
          name: 'Write',
          input: { file_path: `${ROOT}/min.js`, content: line },
        },
      ],
    },
    {
      content: [
        { type: 'tool_use', id: 'toolu_wc', name: 'Bash', input: { command: `wc -c < ${ROOT}/min.js` } },
      ],
    },
    { content: [{ type: 'text', text: 'Written.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Write the minified file.');
  await waitIdle(page);
  const card = toolCard(page, 'toolu_min');
  await expect(card).toHaveAttribute('data-status', 'done');
  const row = card.locator('[data-diff-op="add"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('diff-row-cut')).toHaveText(/… 29\d,\d{3} more characters on this line/);
  const shown = await row.evaluate((el) => el.textContent?.length ?? 0);
  expect(shown).toBeLessThan(4_200);
  const wc = toolResultFor(api.requests[api.requests.length - 1], 'toolu_wc');
  expect(resultText(wc ?? {}).trim()).toBe(String(line.length));
});
