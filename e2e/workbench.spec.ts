/**
 * The workbench: every kind of tool card in one scripted session (pending, running, done, error,
 * interrupted; diff, terminal, code, files), markdown with code blocks and copy buttons, the usage meter,
 * the prompt controls (queue, history, permission mode), settings (model list, theme) and the layout.
 * Real Chromium, the built site, the real SDK against the mock Messages API.
 */
import { expect, test } from '@playwright/test';
import { MOCK_MODELS, type MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  openSideTab,
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
// Each test opens its own page and storage (the mock API is reset before each), so they run side by side.
test.describe.configure({ mode: 'parallel' });

const MARKDOWN_REPLY = [
  '## Plan',
  '',
  'I will **write** `notes.md`, then check it:',
  '',
  '- write the file',
  '- edit one line',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  'Docs: [Messages API](https://docs.anthropic.com/en/api/messages).',
].join('\n');

test('a scripted session shows every card kind, markdown, streaming progress and the usage meter', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const notes = `${ROOT}/notes.md`;
  const longDraft = Array.from({ length: 30 }, (_, i) => `line ${i + 1}: status draft`).join('\n');
  // The request that starts the slow build waits for the test, so the test sees the build running.
  let startBuild = () => {};
  const buildGate = new Promise<void>((resolve) => {
    startBuild = resolve;
  });
  api.script([
    {
      content: [
        { type: 'text', text: MARKDOWN_REPLY },
        {
          type: 'tool_use',
          id: 'toolu_write',
          name: 'Write',
          input: { file_path: notes, content: `${longDraft}\n` },
        },
      ],
      chunkDelayMs: 35,
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: notes, old_string: 'line 7: status draft', new_string: 'line 7: status final' },
        },
      ],
    },
    async () => {
      await buildGate;
      return {
        content: [
          { type: 'tool_use', id: 'toolu_build', name: 'Bash', input: { command: 'sleep 2; echo built' } },
        ],
      };
    },
    {
      content: [
        { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${ROOT}/src/stats.js` } },
        { type: 'tool_use', id: 'toolu_glob', name: 'Glob', input: { pattern: '**/*.js' } },
        { type: 'tool_use', id: 'toolu_grep', name: 'Grep', input: { pattern: 'mean' } },
      ],
    },
    { content: [{ type: 'tool_use', id: 'toolu_bad', name: 'Read', input: { path: 'notes.md' } }] },
    { content: [{ type: 'tool_use', id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 30' } }] },
    { content: [{ type: 'text', text: 'Stopped. Here is the file:\n\n```md\n# notes\n```' }] },
  ]);

  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Write notes, then look around.');

  // While its input streams, the Write card is pending; then it runs and is done.
  const write = toolCard(page, 'toolu_write');
  await expect(write).toHaveAttribute('data-status', 'pending');
  await expect(write).toHaveAttribute('data-status', 'done');
  await expect(write.getByTestId('diff-view')).toContainText('@@ -0,0 +1,30 @@');
  await expect(write.locator('[data-diff-op="add"]')).toHaveCount(30);

  // Markdown: heading, bold, inline code, list, a code block with a copy button, a safe link.
  const md = page.getByTestId('assistant-text').first();
  await expect(md.locator('h2')).toHaveText('Plan');
  await expect(md.locator('strong')).toHaveText('write');
  await expect(md.locator('li')).toHaveCount(2);
  const link = md.getByRole('link', { name: 'Messages API' });
  await expect(link).toHaveAttribute('href', 'https://docs.anthropic.com/en/api/messages');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  const block = md.getByTestId('code-block');
  await expect(block.locator('code')).toHaveText('const answer = 42;');
  await expect(block.locator('code')).toHaveAttribute('data-highlighted', 'yes');
  await expect(block.locator('.hljs-keyword')).toHaveText('const');
  await block.getByTestId('copy-code').click();
  await expect(block.getByTestId('copy-code')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const answer = 42;');

  // Edit: a unified diff with a hunk header, one line out, one in, context around.
  const edit = toolCard(page, 'toolu_edit');
  await expect(edit).toHaveAttribute('data-status', 'done');
  await expect(edit.locator('.diff-hunk')).toHaveText('@@ -4,7 +4,7 @@');
  await expect(edit.locator('[data-diff-op="del"]')).toHaveText(/line 7: status draft/);
  await expect(edit.locator('[data-diff-op="add"]')).toHaveText(/line 7: status final/);
  await expect(edit.locator('[data-diff-op="same"]')).toHaveCount(6);

  // A long Bash run: spinner, a ticking elapsed time, then terminal-style output.
  startBuild();
  const build = toolCard(page, 'toolu_build');
  await expect(build).toHaveAttribute('data-status', 'running');
  await expect(build.locator('.spinner')).toBeVisible();
  const firstElapsed = await build.getByTestId('tool-elapsed').textContent();
  await expect(build.getByTestId('tool-elapsed')).not.toHaveText(firstElapsed ?? '');
  await expect(build).toHaveAttribute('data-status', 'done');
  await expect(build.getByTestId('terminal-result')).toContainText('built');
  await expect(build.getByTestId('exit-code')).toHaveText('exit 0');

  // Read (highlighted code), Glob and Grep (file lists), run together.
  const read = toolCard(page, 'toolu_read');
  await expect(read).toHaveAttribute('data-status', 'done');
  await expect(read.locator('code[data-highlighted="yes"] .hljs-keyword').first()).toBeVisible();
  await expect(toolCard(page, 'toolu_glob').locator('.files-result')).toContainText('src/stats.js');
  await expect(toolCard(page, 'toolu_grep')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_grep').locator('.files-result')).toContainText('stats.js');

  // A bad input is an error card.
  const bad = toolCard(page, 'toolu_bad');
  await expect(bad).toHaveAttribute('data-status', 'error');
  await expect(bad.getByTestId('tool-result')).toContainText('file_path');

  // Esc interrupts the slow command.
  const sleep = toolCard(page, 'toolu_sleep');
  await expect(sleep).toHaveAttribute('data-status', 'running');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/workbench-running.png` });
  await page.keyboard.press('Escape');
  await expect(sleep).toHaveAttribute('data-status', 'interrupted');
  await expect(page.getByTestId('interrupted-marker')).toBeVisible();
  await waitIdle(page);

  // A card folds and unfolds.
  await write.getByTestId('tool-toggle').click();
  await expect(write.getByTestId('diff-view')).toHaveCount(0);
  await write.getByTestId('tool-toggle').click();
  await expect(write.getByTestId('diff-view')).toBeVisible();

  // The session goes on after the interrupt.
  await sendPrompt(page, 'Show me the file.');
  await expect(page.getByTestId('assistant-text').last()).toContainText('Stopped. Here is the file:');
  await waitIdle(page);
  expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
  expect(toolResultFor(api.requests[6], 'toolu_sleep')?.is_error).toBe(true);

  // Usage: one row per request with the API's own numbers; the split adds up to the input.
  await expect(page.getByTestId('usage-meter')).toContainText('$');
  await page.getByTestId('usage-meter').click();
  const usage = page.getByTestId('usage-panel');
  await expect(usage).toBeVisible();
  await expect(usage.getByTestId('usage-row')).toHaveCount(7);
  const first = api.requests[0].response?.usage;
  expect(first).toBeDefined();
  const row = usage.getByTestId('usage-row').first();
  await expect(row.locator('[data-field="output"]')).toHaveText(formatTokens(first?.output_tokens ?? -1));
  await expect(row.locator('[data-field="input"]')).toHaveText(formatTokens(first?.input_tokens ?? -1));
  await row.click();
  const detail = usage.getByTestId('usage-detail');
  await expect(detail).toBeVisible();
  for (const part of ['tools', 'system', 'messages'])
    await expect(detail.locator(`[data-part="${part}"]`)).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/workbench-usage.png` });

  // Every card kind, in order.
  const cards = await page
    .getByTestId('tool-card')
    .evaluateAll((els) =>
      els.map((e) => `${(e as HTMLElement).dataset.toolName}:${(e as HTMLElement).dataset.status}`),
    );
  expect(cards).toEqual([
    'Write:done',
    'Edit:done',
    'Bash:done',
    'Read:done',
    'Glob:done',
    'Grep:done',
    'Read:error',
    'Bash:interrupted',
  ]);
  await page.getByTestId('tab-files').click();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/workbench-cards.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/workbench-cards-dark.png` });
});

/** The meter's formatting (mirrors formatTokens in src/ui/usage-state.ts for the small numbers used here). */
function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
}

test('controls: prompts typed while the agent works are queued and sent in turn; Up recalls; Shift+Tab switches mode', async ({
  page,
}) => {
  // The second model request waits until the test lets it answer: the agent is busy until then.
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_wait', name: 'Bash', input: { command: 'echo waiting' } }] },
    async () => {
      await gate;
      return { content: [{ type: 'text', text: 'First done.' }] };
    },
    { content: [{ type: 'text', text: 'Second done.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'first prompt');
  await expect(toolCard(page, 'toolu_wait')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('stop-button')).toBeVisible();

  // Enter while running queues the prompt and shows it; Send stays disabled.
  const input = page.getByTestId('prompt-input');
  await input.fill('second prompt');
  await expect(page.getByTestId('send-button')).toBeDisabled();
  await input.press('Enter');
  await expect(input).toHaveValue('');
  await expect(page.getByTestId('queued-prompt')).toHaveText(/second prompt/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/workbench-queued.png` });
  await expect.poll(() => api.requests.length).toBe(2);
  release();

  // When the turn ends, the queued prompt goes out by itself.
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Second done.');
  await expect(page.getByTestId('queued-prompt')).toHaveCount(0);
  await expect(page.getByTestId('user-message')).toHaveText(['first prompt', 'second prompt']);
  await waitIdle(page);
  expect(api.requests).toHaveLength(3);
  const last = api.requests[2].body.messages.at(-1);
  expect(JSON.stringify(last?.content)).toContain('second prompt');

  // Up walks back through the prompts; Down comes back to the draft.
  await input.fill('');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('second prompt');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('first prompt');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('second prompt');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('');

  // Shift+Tab cycles the permission mode, which is the setting itself.
  const mode = page.getByTestId('mode-switch');
  await expect(mode).toHaveValue('bypassPermissions');
  await input.press('Shift+Tab');
  await expect(mode).toHaveValue('dontAsk');
  await input.press('Shift+Tab');
  await expect(mode).toHaveValue('default');
  await input.press('Shift+Tab');
  await expect(mode).toHaveValue('acceptEdits');
  await mode.selectOption('plan');
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('permission-mode-select')).toHaveValue('plan');
  await page.getByTestId('settings-cancel').click();
  await page.reload();
  await expect(page.getByTestId('mode-switch')).toHaveValue('plan');
});

test('a key saved while the page is still starting reaches the agent', async ({ page }) => {
  api.script([{ content: [{ type: 'text', text: 'Hello from the mock.' }] }]);
  await page.goto('/');
  // Settings as soon as its button exists: the sandbox and the session may still be starting (a key
  // saved then once reached only the page, and the first prompt said no key was set).
  await page.getByTestId('settings-button').click();
  await page.getByTestId('api-key-input').fill('test');
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
  await sendPrompt(page, 'Hi');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Hello from the mock.');
  expect(api.requests).toHaveLength(1);
});

test('a change made the instant Settings opens keeps the saved key', async ({ page }) => {
  await openApp(page);
  await connect(page, api);
  // Open and change a field in one task, as a busy page lets a fast click land before the dialog has
  // rendered its fresh draft (the closed dialog's draft, its key dropped, once came back and Save cleared
  // the saved key: the next prompt said no key was set).
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const by = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement;
        const dialog = by('settings-dialog') as HTMLDialogElement;
        // The change goes in as soon as the dialog is open (a microtask after it opened, before any
        // other task can render).
        const watch = new MutationObserver(() => {
          if (!dialog.open) return;
          watch.disconnect();
          const select = by('thinking-select') as HTMLSelectElement;
          select.value = '1024';
          select.dispatchEvent(new Event('change', { bubbles: true }));
          done();
        });
        watch.observe(dialog, { attributes: true, attributeFilter: ['open'] });
        by('settings-button').click();
      }),
  );
  await expect(page.getByTestId('thinking-select')).toHaveValue('1024');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
  api.script([{ content: [{ type: 'text', text: 'Still connected.' }] }]);
  await sendPrompt(page, 'Hi');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Still connected.');
  expect(api.requests[0].body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
});
test('settings: models from the API or a fallback list, theme, a masked key kept out of storage by default', async ({
  page,
}) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  const secret = 'sk-ant-secret-test-key-123';
  const modelRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/v1/models')) modelRequests.push(r.url());
  });
  await openApp(page);
  await page.getByTestId('settings-button').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(page.getByTestId('models-source')).toHaveAttribute('data-source', 'fallback');
  await page.getByTestId('api-key-input').fill(secret);
  await expect(page.getByTestId('api-key-input')).toHaveAttribute('type', 'password');
  // An unreachable base URL, saved: the list falls back to the built-in one.
  await page.getByTestId('base-url-input').fill('http://127.0.0.1:9');
  // Nothing typed is sent before Save (issue 17): the list says so and stays the built-in one.
  await expect(page.getByTestId('models-source')).toContainText('save to list the models of the new key');
  await page.waitForTimeout(600); // past the list's debounce: still nothing sent
  expect(modelRequests).toHaveLength(0);
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('models-source')).toContainText('Could not reach the API');
  await expect(page.getByTestId('models-source')).toHaveAttribute('data-source', 'fallback');
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  // Saved: the list is the API's.
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('models-source')).toHaveAttribute('data-source', 'api');
  const options = await page
    .getByTestId('model-select')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  for (const m of MOCK_MODELS) expect(options).toContain(m.id);
  await page.getByTestId('model-select').selectOption('claude-haiku-4-5');
  await page.getByTestId('theme-select').selectOption('dark');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/settings-models.png` });
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('model-name')).toHaveText('claude-haiku-4-5');

  api.script([{ content: [{ type: 'text', text: 'Hi.' }] }]);
  await sendPrompt(page, 'Hello');
  await expect(page.getByTestId('assistant-text')).toHaveText('Hi.');
  await waitIdle(page);
  expect(api.requests[0].body.model).toBe('claude-haiku-4-5');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dark-theme.png` });

  // The key is in no URL, no log and no storage (remember was not ticked).
  expect(page.url()).not.toContain(secret);
  expect(logs.join('\n')).not.toContain(secret);
  const stored = await page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '');
    const dump: string[] = [];
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((res) => {
          const q = db.transaction(store).objectStore(store).getAll();
          q.onsuccess = () => res(q.result);
        });
        dump.push(JSON.stringify(all));
      }
      db.close();
    }
    return dump.join('\n');
  });
  expect(stored).toContain('claude-haiku-4-5');
  expect(stored).not.toContain(secret);

  // After a reload: theme and model kept, the key gone (memory only).
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('model-name')).toHaveText('claude-haiku-4-5');
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('api-key-input')).toHaveValue('');
});

test('layout: panels toggle with Ctrl+B / Ctrl+J, the side panel resizes from the keyboard, tabs follow arrows', async ({
  page,
}) => {
  await openApp(page);
  const side = page.locator('.side-col');
  const before = (await side.boundingBox())?.width ?? 0;
  await page.getByTestId('side-splitter').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await side.boundingBox())?.width).toBe(before + 32);

  await page.getByTestId('tab-files').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-terminal')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-terminal')).toBeFocused();
  await page.keyboard.press('End');
  const tabs = page.getByRole('tab');
  await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('tab-files')).toHaveAttribute('aria-selected', 'true');
  await openSideTab(page, 'usage');
  await expect(page.getByTestId('usage-panel')).toBeVisible();

  await page.getByTestId('prompt-input').focus();
  await page.keyboard.press('Control+b');
  await expect(page.getByTestId('sessions-panel')).toHaveCount(0);
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('side-panel')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/layout-chat-only.png` });
  await page.keyboard.press('Control+b');
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('sessions-panel')).toBeVisible();
  await expect(page.getByTestId('side-panel')).toBeVisible();

  // The empty state teaches: a key step that opens Settings, demo files that open in the viewer.
  await page.getByTestId('empty-state').getByRole('button', { name: 'src/stats.js', exact: true }).click();
  await expect(page.getByTestId('file-viewer')).toHaveAttribute('data-path', 'src/stats.js');
  await expect(page.getByTestId('file-content').locator('code')).toHaveAttribute('data-highlighted', 'yes');
  await page.getByTestId('empty-add-key').click();
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
});
