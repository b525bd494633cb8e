/**
 * The three example prompts of a new session, end to end in Chromium with the scripted mock model and
 * the default sandbox (offline): each is picked from the welcome screen, the model's tool calls run for
 * real — reading, editing, and running the project with node and npm — and what the model gets back is
 * what the code really printed.
 */
import { expect, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  resultText,
  SCREENSHOT_DIR,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';
let api: MockApi;
withMockApi((a) => {
  api = a;
});

async function pick(page: import('@playwright/test').Page, index: number): Promise<void> {
  const button = page.getByTestId('example-prompt').nth(index);
  await button.click();
  const input = page.getByTestId('prompt-input');
  await expect(input).not.toHaveValue('');
  await input.press('Enter');
}

test('example 1: explain the layout — the agent looks around and runs the project', async ({ page }) => {
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'glob', name: 'Glob', input: { pattern: '**/*' } },
        { type: 'tool_use', id: 'read', name: 'Read', input: { file_path: `${ROOT}/src/index.js` } },
      ],
    },
    { content: [{ type: 'tool_use', id: 'run', name: 'Bash', input: { command: 'npm start' } }] },
    { content: [{ type: 'text', text: 'It reads data/cities.csv and prints one line per city.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await pick(page, 0);
  await expect(page.getByTestId('assistant-text').last()).toContainText('one line per city', {
    timeout: 30_000,
  });
  await waitIdle(page);
  const last = api.requests.at(-1);
  if (!last) throw new Error('no request');
  expect(resultText(toolResultFor(last, 'glob') ?? {})).toContain('src/stats.js');
  const run = resultText(toolResultFor(last, 'run') ?? {});
  expect(run).toContain('> weather-notes@1.0.0 start');
  expect(run).toMatch(/Oslo\s+3 readings\s+mean 1\.7\s+min -1\s+max 4/);
});

test('example 2: add a median — edits, then the report and the tests run with it', async ({ page }) => {
  test.setTimeout(90_000);
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: `${ROOT}/src/stats.js` } },
        { type: 'tool_use', id: 'r2', name: 'Read', input: { file_path: `${ROOT}/src/report.js` } },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'e1',
          name: 'Edit',
          input: {
            file_path: `${ROOT}/src/stats.js`,
            old_string: 'export function max(values) {',
            new_string:
              'export function median(values) {\n  const s = [...values].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}\n\nexport function max(values) {',
          },
        },
        {
          type: 'tool_use',
          id: 'e2',
          name: 'Edit',
          input: {
            file_path: `${ROOT}/src/report.js`,
            old_string: "import { max, mean, min } from './stats.js';",
            new_string: "import { max, mean, median, min } from './stats.js';",
          },
        },
        {
          type: 'tool_use',
          id: 'e3',
          name: 'Edit',
          input: {
            file_path: `${ROOT}/src/report.js`,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the project's own template literal
            old_string: '  max ${max(temps)}`,',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the project's own template literal
            new_string: '  max ${max(temps)}  median ${median(temps)}`,',
          },
        },
        {
          type: 'tool_use',
          id: 'w1',
          name: 'Write',
          input: {
            file_path: `${ROOT}/test/median.test.js`,
            content:
              "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { median } from '../src/stats.js';\n\ntest('median of odd and even counts', () => {\n  assert.equal(median([3, 1, 2]), 2);\n  assert.equal(median([4, 1, 3, 2]), 2.5);\n});\n",
          },
        },
      ],
    },
    {
      content: [{ type: 'tool_use', id: 'check', name: 'Bash', input: { command: 'npm start && npm test' } }],
    },
    { content: [{ type: 'text', text: 'Added median; the report shows it and the tests pass.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await pick(page, 1);
  await expect(page.getByTestId('assistant-text').last()).toContainText('tests pass', { timeout: 60_000 });
  await waitIdle(page);
  const last = api.requests.at(-1);
  if (!last) throw new Error('no request');
  for (const id of ['e1', 'e2', 'e3', 'w1']) expect(toolResultFor(last, id)?.is_error, id).toBeFalsy();
  const check = toolResultFor(last, 'check');
  const text = resultText(check ?? {});
  expect(text).toMatch(/Lisbon\s+3 readings\s+mean 19\.0\s+min 18\s+max 20\s+median 19/);
  expect(text).toContain('✔ median of odd and even counts');
  expect(text).toContain('ℹ tests 2');
  expect(text).toContain('ℹ fail 0');
  expect(check?.is_error).toBeFalsy();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/demo-median.png` });
});

test('example 3: count readings per city with a shell pipeline', async ({ page }) => {
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'count',
          name: 'Bash',
          input: { command: 'tail -n +2 data/cities.csv | cut -d, -f1 | sort | uniq -c' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Three readings for each of the four cities.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await pick(page, 2);
  await expect(page.getByTestId('assistant-text').last()).toContainText('four cities', { timeout: 30_000 });
  const last = api.requests.at(-1);
  if (!last) throw new Error('no request');
  const counts = resultText(toolResultFor(last, 'count') ?? {})
    .split('\n')
    .map((l) => l.trim().split(/\s+/));
  expect(counts).toEqual([
    ['3', 'Lisbon'],
    ['3', 'Nairobi'],
    ['3', 'Oslo'],
    ['3', 'Tokyo'],
  ]);
});
