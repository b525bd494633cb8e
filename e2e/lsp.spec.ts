/**
 * The LSP gate in real Chromium: a `--mode feature-lsp` build runs the TypeScript language service in a
 * worker loaded on first use. A Write of a TypeScript file carries the file's new diagnostics, and the
 * LSP tool answers hover and definition requests. Runs only against such a build (E2E_LSP=1: the
 * standard build has none of it); it needs the typescript-5 package for that build.
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
let api: MockApi;
withMockApi((started) => {
  api = started;
});

test.skip(process.env.E2E_LSP !== '1', 'needs a --mode feature-lsp build (E2E_LSP=1)');

test('diagnostics after a Write and LSP answers, from the worker', async ({ page }) => {
  test.setTimeout(90_000);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_w',
          name: 'Write',
          input: {
            file_path: `${ROOT}/src/typed.ts`,
            content:
              "export const n: number = 'seven';\nexport function twice(x: number) {\n  return x * 2;\n}\n",
          },
        },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_hover',
          name: 'LSP',
          input: { operation: 'hover', filePath: `${ROOT}/src/typed.ts`, line: 2, character: 17 },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Checked.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Write a typed module.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Checked.', { timeout: 60_000 });
  await waitIdle(page);
  const written = resultText(toolResultFor(api.requests[1], 'toolu_w') ?? {});
  expect(written).toContain('<new-diagnostics>');
  expect(written).toContain(
    "src/typed.ts:1:14 - error TS2322: Type 'string' is not assignable to type 'number'.",
  );
  expect(resultText(toolResultFor(api.requests[2], 'toolu_hover') ?? {})).toContain(
    'function twice(x: number): number',
  );
  await expect(toolCard(page, 'toolu_hover')).toHaveAttribute('data-status', 'done');
});
