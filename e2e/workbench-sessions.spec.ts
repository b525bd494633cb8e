/**
 * Sessions that survive: a reload mid-turn restores the transcript, marks the turn interrupted and
 * repairs it so the next request is valid; the sessions list (new, switch, rename, delete); export then
 * import round trip; malformed imports refused with the reason. Also the bad-input paths of the page:
 * XSS payloads in model text never run, and offline / unreachable API banners.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  blocksOf,
  connect,
  connectRemembering,
  openApp,
  openSideTab,
  SCREENSHOT_DIR,
  sendPrompt,
  sessionTitles,
  toolCard,
  toolResultFor,
  waitIdle,
  waitSaved,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';

let api: MockApi;
withMockApi((started) => {
  api = started;
});
// Each test opens its own page and storage (the mock API is reset before each), so they run side by side.
test.describe.configure({ mode: 'parallel' });

test('a reload mid-turn restores the transcript, marks the turn interrupted, and the next request is valid', async ({
  page,
}) => {
  api.script([
    {
      content: [
        { type: 'text', text: 'Writing the plan, then running the build.' },
        {
          type: 'tool_use',
          id: 'toolu_plan',
          name: 'Write',
          input: { file_path: `${ROOT}/plan.md`, content: '# Plan\n' },
        },
      ],
    },
    { content: [{ type: 'tool_use', id: 'toolu_build', name: 'Bash', input: { command: 'sleep 30' } }] },
    { content: [{ type: 'text', text: 'Picking up where we left off.' }] },
  ]);
  await openApp(page);
  await connectRemembering(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Plan and build.');
  await expect(toolCard(page, 'toolu_plan')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_build')).toHaveAttribute('data-status', 'running');
  await waitSaved(page);
  // The project store too (the Files panel shows it): the reload comes while the turn still runs.
  await expect(page.getByTestId('project-storage')).toHaveAttribute('data-state', 'saved');

  await page.reload();
  // The transcript is back, the running call is interrupted, the turn ends with the marker.
  await expect(page.getByTestId('user-message')).toHaveText('Plan and build.');
  await expect(page.getByTestId('assistant-text').first()).toHaveText(
    'Writing the plan, then running the build.',
  );
  await expect(toolCard(page, 'toolu_plan')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_plan').getByTestId('diff-view')).toContainText('# Plan');
  await expect(toolCard(page, 'toolu_build')).toHaveAttribute('data-status', 'interrupted');
  await expect(page.getByTestId('interrupted-marker')).toBeVisible();
  await expect(page.getByTestId('stop-button')).toHaveCount(0);
  // The workspace kept the file the turn wrote.
  await expect(page.locator('[data-testid="file-item"][data-path="plan.md"]')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/restored-after-reload.png` });

  // "Remember" kept the key (masked); the usage of the two requests is still counted.
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('api-key-input')).toHaveValue('test');
  await expect(page.getByTestId('api-key-input')).toHaveAttribute('type', 'password');
  await page.getByTestId('settings-cancel').click();
  await openSideTab(page, 'usage');
  await expect(page.getByTestId('usage-row')).toHaveCount(2);

  // Resume: the API accepts the repaired transcript.
  await sendPrompt(page, 'Carry on.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Picking up where we left off.');
  await waitIdle(page);
  expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  const resumed = api.requests[2];
  const result = toolResultFor(resumed, 'toolu_build');
  expect(result?.is_error).toBe(true);
  const texts = blocksOf(resumed).flatMap((b) => (b.type === 'text' ? [b.text] : []));
  expect(texts).toContain('[Request interrupted by user]');
  expect(texts).toContain('Carry on.');
  // A second reload does not add a second marker.
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Picking up where we left off.');
  await expect(page.getByTestId('interrupted-marker')).toHaveCount(1);
});

async function exportCurrent(page: Page): Promise<{ name: string; text: string }> {
  const current = page.locator('[data-testid="session-item"][data-current="true"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    current.getByTestId('session-export').click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

test('sessions: new, switch, rename, delete; export then import round trip; a malformed import is refused', async ({
  page,
}, testInfo) => {
  page.on('dialog', (d) => void d.accept());
  api.script([
    {
      content: [
        { type: 'text', text: 'Creating the file.' },
        {
          type: 'tool_use',
          id: 'toolu_w',
          name: 'Write',
          input: { file_path: `${ROOT}/hello.txt`, content: 'hello\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Created hello.txt.' }] },
    { content: [{ type: 'text', text: 'Second session reply.' }] },
  ]);
  await openApp(page);
  await connect(page, api, 'sk-ant-export-secret');
  await allowEverything(page);
  await sendPrompt(page, 'Create hello.txt');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Created hello.txt.');
  await waitIdle(page);
  await waitSaved(page);
  await expect(page.getByTestId('session-title')).toHaveText(['Create hello.txt']);

  // Rename it.
  await page.getByTestId('session-rename').first().click();
  await page.getByTestId('session-rename-input').fill('Hello file');
  await page.getByTestId('session-rename-input').press('Enter');
  await expect(page.getByTestId('session-title')).toHaveText(['Hello file']);

  // A new session is an empty conversation in the same workspace; switching back restores the first one.
  await page.getByTestId('new-session').click();
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.locator('[data-testid="file-item"][data-path="hello.txt"]')).toBeVisible();
  await sendPrompt(page, 'Second session');
  await expect(page.getByTestId('assistant-text')).toHaveText('Second session reply.');
  await waitIdle(page);
  await waitSaved(page);
  await expect.poll(() => sessionTitles(page)).toEqual(['Second session', 'Hello file']);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/sessions-list.png` });
  await page.getByTestId('session-open').nth(1).click();
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Created hello.txt.');
  await expect(toolCard(page, 'toolu_w')).toHaveAttribute('data-status', 'done');

  // Export: a JSON file with the transcript and the view, never the key.
  const exported = await exportCurrent(page);
  expect(exported.name).toBe('tabcode-hello-file.json');
  expect(exported.text).not.toContain('sk-ant-export-secret');
  const json = JSON.parse(exported.text);
  expect(json.format).toBe('tabcode-session');
  expect(json.session.title).toBe('Hello file');
  expect(json.session.messages).toHaveLength(4);
  expect(json.session.view.items.map((i: { kind: string }) => i.kind)).toEqual([
    'user',
    'assistant-text',
    'tool',
    'assistant-text',
  ]);
  const file = testInfo.outputPath('session.json');
  writeFileSync(file, exported.text);

  // Delete it; the other session opens.
  await page
    .locator('[data-testid="session-item"][data-current="true"]')
    .getByTestId('session-delete')
    .click();
  await expect.poll(() => sessionTitles(page)).toEqual(['Second session']);
  await expect(page.getByTestId('assistant-text')).toHaveText('Second session reply.');

  // Malformed imports are refused with the reason; the stored sessions do not change.
  const bad = testInfo.outputPath('bad.json');
  writeFileSync(bad, '{"format": "tabcode-session", "version": 1, "session": {');
  await page.getByTestId('import-file').setInputFiles(bad);
  await expect(page.getByTestId('import-error')).toContainText('not valid JSON');
  const orphan = JSON.parse(exported.text);
  orphan.session.messages.splice(1, 1); // the tool_use goes, its tool_result stays
  writeFileSync(bad, JSON.stringify(orphan));
  await page.getByTestId('import-file').setInputFiles(bad);
  await expect(page.getByTestId('import-error')).toContainText('tool_result for an unknown tool_use toolu_w');
  writeFileSync(bad, JSON.stringify({ format: 'something-else', version: 1, session: {} }));
  await page.getByTestId('import-file').setInputFiles(bad);
  await expect(page.getByTestId('import-error')).toContainText('format must be "tabcode-session"');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/import-refused.png` });
  await expect.poll(() => sessionTitles(page)).toEqual(['Second session']);
  await expect(page.getByTestId('assistant-text')).toHaveText('Second session reply.');

  // Import the export: the same session, cards and files, and it goes on.
  await page.getByTestId('import-file').setInputFiles(file);
  await expect(page.getByTestId('import-ok')).toContainText('Hello file');
  await expect.poll(() => sessionTitles(page)).toEqual(['Hello file', 'Second session']);
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Created hello.txt.');
  await expect(toolCard(page, 'toolu_w').getByTestId('diff-view')).toContainText('hello');
  api.push({ content: [{ type: 'text', text: 'Still here.' }] });
  await sendPrompt(page, 'Are you there?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Still here.');
  await waitIdle(page);
  const last = api.requests.at(-1);
  expect(last?.status).toBe(200);
  expect(last?.body.messages).toHaveLength(5);
  expect(toolResultFor(last ?? api.requests[0], 'toolu_w')).toBeDefined();
});

const XSS_TEXT = [
  'Payloads follow.',
  '<script>window.__xss = "script"</script>',
  '<img src=x onerror="window.__xss = \'img\'">',
  '<svg onload="window.__xss = \'svg\'"></svg>',
  '<iframe src="javascript:window.__xss=\'iframe\'"></iframe>',
  "[click me](javascript:window.__xss='link')",
  "[entity](&#106;avascript:window.__xss='entity')",
  "[spaced]( JaVaScRiPt:window.__xss='case')",
  '[data](data:text/html,<script>window.__xss=1</script>)',
  "<javascript:window.__xss='autolink'>",
  '![pic](x" onerror="window.__xss=\'image\')',
  '[ref link][r]',
  "[r]: javascript:window.__xss='ref'",
  '<a href="javascript:window.__xss=\'anchor\'">anchor</a> and [ok](https://example.com/safe)',
].join('\n\n');

test('XSS payloads in model text and tool output never run', async ({ page }) => {
  api.script([
    {
      content: [
        { type: 'text', text: XSS_TEXT },
        {
          type: 'tool_use',
          id: 'toolu_echo',
          name: 'Bash',
          input: { command: 'echo \'<img src=x onerror="window.__xss=9">\'' },
        },
      ],
    },
    {
      content: [
        {
          type: 'text',
          text: '```html\n<script>window.__xss="code"</script>\n```\n\n<details open><summary>x</summary></details>',
        },
      ],
    },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Show me the payloads.');
  await expect(page.getByTestId('assistant-text').last()).toContainText(
    '<script>window.__xss="code"</script>',
  );
  await waitIdle(page);
  await expect(toolCard(page, 'toolu_echo').getByTestId('terminal-result')).toContainText('<img src=x');

  const transcript = page.getByTestId('transcript');
  // Raw HTML shows as text: no element of the payloads exists.
  await expect(
    transcript.locator('script, img, svg:not([aria-hidden]), iframe, details, object, embed'),
  ).toHaveCount(0);
  await expect(transcript.locator('[onerror], [onload]')).toHaveCount(0);
  // Only the safe link is a link; the others are plain text.
  const hrefs = await transcript.locator('.md a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(['https://example.com/safe']);
  const blocked = await transcript.getByTestId('blocked-link').allTextContents();
  expect(blocked).toEqual(expect.arrayContaining(['click me', 'entity', 'spaced', 'ref link']));
  for (const link of await transcript.getByTestId('blocked-link').all()) await link.click();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/xss-payloads.png` });
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
});

test('offline: a clear banner while the browser is offline and when the API cannot be reached', async ({
  page,
  context,
}) => {
  await openApp(page);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toHaveAttribute('data-reason', 'offline');
  await expect(page.getByTestId('offline-banner')).toContainText('You are offline.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/offline.png` });
  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);

  // Online, but the base URL answers nothing: the fetch failure raises the banner, a success clears it.
  await page.getByTestId('settings-button').click();
  await page.getByTestId('api-key-input').fill('test');
  await page.getByTestId('base-url-input').fill('http://127.0.0.1:9');
  await page.getByTestId('settings-save').click();
  await sendPrompt(page, 'Anyone there?');
  await expect(page.getByTestId('error-banner')).toHaveAttribute('data-error-kind', 'network', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('offline-banner')).toHaveAttribute('data-reason', 'fetch');
  await waitIdle(page);

  await page.getByTestId('error-open-settings').click();
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('settings-save').click();
  api.script([{ content: [{ type: 'text', text: 'Back online.' }] }]);
  await sendPrompt(page, 'And now?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Back online.');
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});
