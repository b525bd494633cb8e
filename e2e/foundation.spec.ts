/**
 * Foundation: the page drives a real agent session (real SDK, real tools, just-bash sandbox) against the
 * mock Messages API. Each test scripts the model's turns and checks what the page shows and what the
 * model was sent.
 */
import { expect, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  blocksOf,
  connect,
  openApp,
  resultText,
  SCREENSHOT_DIR,
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

test('empty state: isolated page, sandbox, files, examples, and a clear message without a key', async ({
  page,
}) => {
  await openApp(page);
  await expect(page).toHaveTitle('tabcode — a coding agent in your browser tab');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

  await expect(page.locator('.brand-name')).toHaveText('tabcode');
  await expect(page.getByTestId('sandbox-badge')).toHaveText('just-bash');
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('example-prompt')).toHaveCount(3);
  for (const path of ['README.md', 'package.json', 'src/index.js', 'src/stats.js', 'data/cities.csv']) {
    await expect(page.locator(`[data-testid="file-item"][data-path="${path}"]`)).toBeVisible();
  }
  await page.screenshot({ path: `${SCREENSHOT_DIR}/empty-state.png` });

  // The file viewer shows a file's content.
  await page.locator('[data-testid="file-item"][data-path="README.md"]').click();
  await expect(page.getByTestId('file-viewer')).toHaveAttribute('data-path', 'README.md');
  await expect(page.getByTestId('file-content')).toContainText('# Weather notes');

  // An example fills the box (it does not send).
  const input = page.getByTestId('prompt-input');
  const example = page.getByTestId('example-prompt').nth(1);
  const exampleText = (await example.textContent()) ?? '';
  await example.click();
  await expect(input).toHaveValue(exampleText);
  await expect(input).toBeFocused();

  // Shift+Enter is a newline, not a send.
  await input.fill('first line');
  await input.press('Shift+Enter');
  await input.pressSequentially('second line');
  await expect(input).toHaveValue('first line\nsecond line');
  await expect(page.getByTestId('user-message')).toHaveCount(0);

  // No key and no proxy: the page asks for a key instead of sending, and keeps the prompt.
  await input.press('Enter');
  const banner = page.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-error-kind', 'missing-key');
  await expect(banner).toContainText('Add an Anthropic API key in Settings');
  await expect(input).toHaveValue('first line\nsecond line');
  expect(api.requests).toHaveLength(0);
  await banner.getByRole('button', { name: 'Open Settings' }).click();
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
  await expect(page.getByTestId('api-key-input')).toHaveAttribute('type', 'password');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-dialog.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
});

test('a scripted session writes, edits, runs cat, reads two files at once, recovers from a bad input', async ({
  page,
}) => {
  const notes = `${ROOT}/notes.md`;
  api.script([
    {
      content: [
        { type: 'text', text: 'I will create the notes file first.' },
        {
          type: 'tool_use',
          id: 'toolu_write',
          name: 'Write',
          input: { file_path: notes, content: '# Release notes\n\nstatus: draft\nowner: tabcode\n' },
        },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: notes, old_string: 'status: draft', new_string: 'status: final' },
        },
      ],
    },
    { content: [{ type: 'tool_use', id: 'toolu_cat', name: 'Bash', input: { command: 'cat notes.md' } }] },
    {
      content: [
        { type: 'text', text: 'Now both files side by side.' },
        { type: 'tool_use', id: 'toolu_read_notes', name: 'Read', input: { file_path: notes } },
        {
          type: 'tool_use',
          id: 'toolu_read_readme',
          name: 'Read',
          input: { file_path: `${ROOT}/README.md` },
        },
      ],
    },
    // A bad input: Read has no `path` parameter and needs `file_path`.
    { content: [{ type: 'tool_use', id: 'toolu_bad', name: 'Read', input: { path: 'notes.md' } }] },
    {
      content: [
        { type: 'text', text: 'That call was wrong; checking the file again.' },
        {
          type: 'tool_use',
          id: 'toolu_final',
          name: 'Bash',
          input: { command: 'cat notes.md && wc -l notes.md' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Done: notes.md now says the release is final.' }], chunkDelayMs: 5 },
  ]);

  await openApp(page);
  await connect(page, api);
  // Writes and commands run without prompts here; the prompts have their own spec (permissions.spec.ts).
  await allowEverything(page);
  await sendPrompt(page, 'Write release notes, mark them final and show them.');
  await expect(page.getByTestId('user-message')).toHaveText(
    'Write release notes, mark them final and show them.',
  );

  // Write: new file, shown as an all-added diff.
  const write = toolCard(page, 'toolu_write');
  await expect(write).toHaveAttribute('data-status', 'done');
  await expect(write).toHaveAttribute('data-tool-name', 'Write');
  await expect(write.locator('.tool-subtitle')).toHaveText(notes);
  await expect(write.locator('[data-diff-op="add"]', { hasText: 'status: draft' })).toBeVisible();

  // Edit: the diff shows the removed and the added line.
  const edit = toolCard(page, 'toolu_edit');
  await expect(edit).toHaveAttribute('data-status', 'done');
  await expect(edit.locator('[data-diff-op="del"]')).toHaveText(/status: draft/);
  await expect(edit.locator('[data-diff-op="add"]')).toHaveText(/status: final/);

  // Bash cat: the command and its output.
  const cat = toolCard(page, 'toolu_cat');
  await expect(cat).toHaveAttribute('data-status', 'done');
  await expect(cat.locator('.terminal-command')).toContainText('cat notes.md');
  await expect(cat.getByTestId('terminal-result')).toContainText('status: final');
  await expect(cat.getByTestId('exit-code')).toHaveText('exit 0');

  // Two Reads of one message.
  await expect(toolCard(page, 'toolu_read_notes')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_read_readme')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_read_readme').getByTestId('tool-result')).toContainText('Weather notes');

  // The bad input is an error card the model recovers from.
  const bad = toolCard(page, 'toolu_bad');
  await expect(bad).toHaveAttribute('data-status', 'error');
  await expect(bad.getByTestId('tool-result')).toContainText('file_path');

  const final = toolCard(page, 'toolu_final');
  await expect(final).toHaveAttribute('data-status', 'done');
  await expect(final.getByTestId('terminal-result')).toContainText(
    '# Release notes\n\nstatus: final\nowner: tabcode',
  );
  await expect(page.getByTestId('assistant-text').last()).toHaveText(
    'Done: notes.md now says the release is final.',
  );
  await waitIdle(page);

  // Every step in order, nothing else.
  const ids = await page
    .getByTestId('tool-card')
    .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.toolUseId));
  expect(ids).toEqual([
    'toolu_write',
    'toolu_edit',
    'toolu_cat',
    'toolu_read_notes',
    'toolu_read_readme',
    'toolu_bad',
    'toolu_final',
  ]);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);

  // What the model was sent: all accepted, both reads answered in one message, the bad input an error.
  expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
  const afterReads = api.requests[4].body.messages.at(-1);
  expect(afterReads?.role).toBe('user');
  const readResults = (typeof afterReads?.content === 'string' ? [] : (afterReads?.content ?? [])).filter(
    (b) => b.type === 'tool_result',
  );
  expect(readResults.map((b) => b.type === 'tool_result' && b.tool_use_id)).toEqual([
    'toolu_read_notes',
    'toolu_read_readme',
  ]);
  const badResult = toolResultFor(api.requests[5], 'toolu_bad');
  expect(badResult?.is_error).toBe(true);
  expect(resultText(badResult ?? {})).toContain('file_path');

  // The sandbox holds the final content: the new file is listed and the viewer shows it.
  const notesItem = page.locator('[data-testid="file-item"][data-path="notes.md"]');
  await expect(notesItem).toBeVisible();
  await notesItem.click();
  await expect(page.getByTestId('file-content')).toHaveText(
    '# Release notes\n\nstatus: final\nowner: tabcode\n',
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/finished-session.png` });
  await toolCard(page, 'toolu_read_notes').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/finished-session-reads.png` });
  await page.getByTestId('transcript').evaluate((el) => {
    el.scrollTop = 0;
  });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/finished-session-top.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/finished-session-dark.png` });
});

test('Esc during a slow Bash command interrupts it, and the next request is valid', async ({ page }) => {
  api.script([
    {
      content: [
        { type: 'text', text: 'Waiting for the build.' },
        { type: 'tool_use', id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 30' } },
      ],
    },
    { content: [{ type: 'text', text: 'Understood, I stopped waiting.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  // Writes and commands run without prompts here; the prompts have their own spec (permissions.spec.ts).
  await allowEverything(page);
  await sendPrompt(page, 'Wait for the build.');

  const card = toolCard(page, 'toolu_sleep');
  await expect(card).toHaveAttribute('data-status', 'running');
  // Typing stays possible while a turn runs; sending does not.
  const input = page.getByTestId('prompt-input');
  await input.pressSequentially('draft');
  await expect(input).toHaveValue('draft');
  await expect(page.getByTestId('send-button')).toBeDisabled();
  await expect(page.getByTestId('stop-button')).toBeVisible();

  const pressed = Date.now();
  await page.locator('body').press('Escape');
  await expect(card).toHaveAttribute('data-status', 'interrupted', { timeout: 5_000 });
  await expect(page.getByTestId('interrupted-marker')).toHaveText('Interrupted');
  await waitIdle(page);
  expect(Date.now() - pressed).toBeLessThan(10_000);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/interrupted.png` });

  await input.fill('Never mind, carry on.');
  await expect(page.getByTestId('send-button')).toBeEnabled();
  await input.press('Enter');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Understood, I stopped waiting.');
  await waitIdle(page);

  expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  const next = api.requests[1];
  const result = toolResultFor(next, 'toolu_sleep');
  expect(result, 'the interrupted tool_use has a tool_result').toBeDefined();
  expect(result?.is_error).toBe(true);
  const texts = blocksOf(next).flatMap((b) => (b.type === 'text' ? [b.text] : []));
  expect(texts).toContain('Never mind, carry on.');
});

test('Stop interrupts a streaming reply, and the session continues', async ({ page }) => {
  const long = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of a long explanation.`).join('\n');
  api.script([
    { content: [{ type: 'text', text: long }], chunkDelayMs: 40 },
    { content: [{ type: 'text', text: 'Short answer this time.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await sendPrompt(page, 'Explain everything.');
  await expect(page.getByTestId('assistant-text').first()).toContainText('Line 2 of');
  await page.getByTestId('stop-button').click();
  await expect(page.getByTestId('interrupted-marker')).toBeVisible();
  await waitIdle(page);

  await sendPrompt(page, 'Briefly, please.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Short answer this time.');
  await waitIdle(page);
  expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});

test('a rejected key shows a plain 401 message and the page stays usable', async ({ page }) => {
  await openApp(page);
  await connect(page, api, 'bad-key');
  await sendPrompt(page, 'Hello?');

  const banner = page.getByTestId('error-banner');
  await expect(banner).toHaveAttribute('data-error-kind', 'auth');
  await expect(banner).toContainText('The API rejected the key (401). Open Settings to fix it.');
  await waitIdle(page);
  expect(api.requests.map((r) => r.status)).toEqual([401]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rejected-key.png` });

  // Fix the key from the banner, then talk again.
  await banner.getByTestId('error-open-settings').click();
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
  await expect(page.getByTestId('base-url-input')).toHaveValue(api.url);
  await page.getByTestId('api-key-input').fill('test');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();

  api.script([{ content: [{ type: 'text', text: 'Hello from the mock model.' }] }]);
  await sendPrompt(page, 'Hello again.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Hello from the mock model.');
  await waitIdle(page);
  expect(api.requests.map((r) => r.status)).toEqual([401, 200]);
  // The SDK sends the key as x-api-key or as a bearer token.
  const { authorization, 'x-api-key': xApiKey } = api.requests[1].headers;
  expect(xApiKey ?? authorization?.replace(/^Bearer /, '')).toBe('test');
});
