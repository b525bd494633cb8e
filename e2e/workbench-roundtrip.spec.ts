/**
 * Import of everything export writes, through the page: a session file holding every block kind
 * (tool_reference results of ToolSearch among them) and every card kind is imported with the file
 * picker, shown, exported again byte-for-byte the same transcript and view, and goes on: the next
 * request is one the API accepts. Real Chromium, the built site, the real SDK against the mock API.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { toExport } from '../src/agent/session-export.ts';
import { newSessionRecord } from '../src/agent/sessions-store.ts';
import { toStoredView } from '../src/ui/stored-view.ts';
import { EVERY_BLOCK, EVERY_ITEM } from './fixtures/every-kind.ts';
import type { MockApi } from './mock-api/server.ts';
import { connect, SCREENSHOT_DIR, sendPrompt, toolCard, waitIdle, withMockApi } from './support/app.ts';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

test('a session of every block and card kind: import, show, export the same, and go on', async ({
  page,
}, testInfo) => {
  const file = testInfo.outputPath('every-kind.json');
  const original = toExport({
    ...newSessionRecord(1000, 's_every'),
    title: 'Every kind',
    messages: EVERY_BLOCK,
    messageCount: EVERY_BLOCK.length,
    view: toStoredView(EVERY_ITEM),
  });
  writeFileSync(file, original);
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('import-file').setInputFiles(file);
  await expect(page.getByTestId('import-ok')).toContainText('Every kind');

  // Shown as it was: the cards in their states, the cut-off text marked, the errors in plain words.
  await expect(toolCard(page, 'toolu_bad')).toHaveAttribute('data-status', 'error');
  await expect(toolCard(page, 'toolu_i')).toHaveAttribute('data-status', 'interrupted');
  // A card saved while it ran (pending, running) can only be interrupted once it is opened again.
  await expect(toolCard(page, 'toolu_r')).toHaveAttribute('data-status', 'interrupted');
  await expect(page.locator('[data-testid="assistant-text"][data-discarded="true"]')).toHaveCount(2);
  await expect(page.locator('[data-error-kind="overloaded"]')).toContainText(
    'overloaded while it was answering',
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/imported-every-kind.png`, fullPage: true });

  // Exported again: the same transcript, and the same view.
  const current = page.locator('[data-testid="session-item"][data-current="true"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    current.getByTestId('session-export').click(),
  ]);
  const again = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const first = JSON.parse(original);
  expect(again.session.messages).toEqual(first.session.messages);
  // The view too; the cards that were running when it was saved now end interrupted, with the marker.
  const ids = (view: { items: { id: string }[] }) => view.items.map((i) => i.id);
  expect(ids(again.session.view).slice(0, first.session.view.items.length)).toEqual(ids(first.session.view));
  expect(again.session.view.items.slice(first.session.view.items.length)).toEqual([
    { kind: 'notice', id: 'item:7', notice: 'interrupted' },
  ]);

  // It goes on: the model gets a request the API accepts (the reference to a tool no server offers now
  // is turned into text by the portable fallback).
  api.script([{ content: [{ type: 'text', text: 'Continuing the imported session.' }] }]);
  await connect(page, api);
  await sendPrompt(page, 'Go on');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Continuing the imported session.');
  await waitIdle(page);
  expect(api.requests.at(-1)?.status).toBe(200);
});
