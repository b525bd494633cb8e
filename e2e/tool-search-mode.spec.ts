/**
 * The Usage panel says how ToolSearch results reach the model and why: native (tool_reference blocks
 * and defer_loading, with the beta header) against an endpoint that takes them, portable (full schemas
 * as text) once an endpoint refuses them. The page always has deferred built-ins (WebFetch, ...): the
 * model loads one with ToolSearch, so the next request carries a tool_reference and defer_loading.
 */
import { expect, test } from '@playwright/test';
import { type MockApi, startMockApi } from './mock-api/server.ts';
import { connect, openApp, openSideTab, sendPrompt, toolCard, waitIdle } from './support/app.ts';

/** The model loads WebFetch (a deferred built-in), then answers. */
const LOAD_THEN_ANSWER = (text: string) => [
  {
    content: [
      {
        type: 'tool_use' as const,
        id: 'toolu_load',
        name: 'ToolSearch',
        input: { query: 'select:WebFetch' },
      },
    ],
  },
  { content: [{ type: 'text' as const, text }] },
];

let native: MockApi;
let refusing: MockApi;

test.beforeAll(async () => {
  native = await startMockApi();
  refusing = await startMockApi({ toolReference: false });
});

test.afterAll(async () => {
  await Promise.all([native?.close(), refusing?.close()]);
});

test.beforeEach(() => {
  native.reset();
  refusing.reset();
});

test('an endpoint that takes tool search: the Usage panel says native mode', async ({ page }) => {
  await openApp(page);
  native.script(LOAD_THEN_ANSWER('WebFetch is loaded.'));
  await connect(page, native);
  await sendPrompt(page, 'Load WebFetch.');
  await expect(toolCard(page, 'toolu_load')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('WebFetch is loaded.');
  await waitIdle(page);
  expect(native.requests.map((r) => r.status)).toEqual([200, 200]);
  // The second request sends the loaded tool with defer_loading (its reference is in the result); the
  // mock refuses such a request without the advanced-tool-use beta header, so its 200 shows the header.
  expect(JSON.stringify(native.requests[1].body.tools)).toContain('"defer_loading":true');
  await openSideTab(page, 'usage');
  const line = page.getByTestId('usage-tool-search');
  await expect(line).toHaveAttribute('data-mode', 'native');
  await expect(line).toContainText('ToolSearch: native mode.');
  await expect(line).toContainText('advanced-tool-use-2025-11-20');
  // The note keeps the panel's side padding (it stood flush against the panel's left edge).
  const panel = await page.getByTestId('usage-panel').boundingBox();
  const box = await line.boundingBox();
  expect(panel && box && box.x >= panel.x + 8 && box.x + box.width <= panel.x + panel.width - 8).toBe(true);
});

test('an endpoint that refuses tool_reference: the session goes portable and the panel says why', async ({
  page,
}) => {
  await openApp(page);
  refusing.script(LOAD_THEN_ANSWER('WebFetch is loaded, as a full schema.'));
  await connect(page, refusing);
  await sendPrompt(page, 'Load WebFetch.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('WebFetch is loaded, as a full schema.');
  await waitIdle(page);
  // The request with the reference was refused; the same turn went again with full schemas.
  expect(refusing.requests.map((r) => r.status)).toEqual([200, 400, 200]);
  expect(JSON.stringify(refusing.requests[2].body.tools)).not.toContain('defer_loading');
  await openSideTab(page, 'usage');
  const line = page.getByTestId('usage-tool-search');
  await expect(line).toHaveAttribute('data-mode', 'portable');
  await expect(line).toContainText('ToolSearch: portable mode. The endpoint refused tool search (');
});
