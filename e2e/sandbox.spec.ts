/**
 * Sandboxes in the real page: the project survives a reload (files the agent wrote, files a command
 * made, a file a command removed), and the sandbox choice — auto on this machine (StackBlitz cannot be
 * reached), ?sandbox=just-bash, ?sandbox=webcontainer — shows its reason and reaches the system prompt.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connectRemembering,
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

/** The paths saved in the project store (IndexedDB `tabcode-project`). */
function savedPaths(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('tabcode-project');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('tree')) {
            db.close();
            resolve([]);
            return;
          }
          const req = db.transaction('tree').objectStore('tree').getAllKeys();
          req.onsuccess = () => {
            db.close();
            resolve(
              req.result
                .map(String)
                .filter((k) => k.startsWith('f:'))
                .map((k) => k.slice(2))
                .sort(),
            );
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

const fileItem = (page: Page, path: string) => page.locator(`[data-testid="file-item"][data-path="${path}"]`);

test('the files the agent wrote survive a reload, and the agent works on them after it', async ({ page }) => {
  api.script([
    {
      content: [
        { type: 'text', text: 'Writing notes and a helper, then running a command.' },
        {
          type: 'tool_use',
          id: 'toolu_notes',
          name: 'Write',
          input: { file_path: `${ROOT}/notes.md`, content: '# Notes ✓\n\nkept across reloads\n' },
        },
        {
          type: 'tool_use',
          id: 'toolu_util',
          name: 'Write',
          input: { file_path: `${ROOT}/src/deep/nested/util.js`, content: 'export const answer = 42;\n' },
        },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_shell',
          name: 'Bash',
          input: { command: 'mkdir -p data && echo 42 > data/answer.txt && rm README.md' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Done.' }] },
  ]);
  await openApp(page);
  await connectRemembering(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Write notes, a helper, and the answer.');
  await expect(toolCard(page, 'toolu_shell')).toHaveAttribute('data-status', 'done', { timeout: 30_000 }); // the sandbox worker's first command (slow on a busy machine)
  await waitIdle(page);

  // Saved (debounced) to IndexedDB: the new files, not the removed one.
  await expect
    .poll(() => savedPaths(page), { timeout: 10_000 })
    .toEqual(expect.arrayContaining(['data/answer.txt', 'notes.md', 'src/deep/nested/util.js']));
  expect(await savedPaths(page)).not.toContain('README.md');

  await page.reload();
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', 'just-bash', {
    timeout: 15_000,
  });
  for (const path of ['notes.md', 'src/deep/nested/util.js', 'data/answer.txt', 'src/index.js']) {
    await expect(fileItem(page, path)).toBeVisible();
  }
  await expect(fileItem(page, 'README.md')).toHaveCount(0);
  await fileItem(page, 'notes.md').click();
  await expect(page.getByTestId('file-content')).toContainText('kept across reloads');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/sandbox-after-reload.png` });

  // The sandbox itself holds them: the agent reads and runs on them in the next turn.
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${ROOT}/notes.md` } },
        {
          type: 'tool_use',
          id: 'toolu_cat',
          name: 'Bash',
          input: { command: 'cat data/answer.txt src/deep/nested/util.js' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'All there.' }] },
  ]);
  await sendPrompt(page, 'Are the files still there?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All there.');
  await waitIdle(page);
  const after = api.requests.at(-1);
  expect(after).toBeDefined();
  const read = toolResultFor(after as NonNullable<typeof after>, 'toolu_read');
  expect(read?.is_error).toBeFalsy();
  expect(resultText(read ?? {})).toContain('kept across reloads');
  const cat = toolResultFor(after as NonNullable<typeof after>, 'toolu_cat');
  expect(resultText(cat ?? {})).toContain('42\nexport const answer = 42;');

  // The same session goes on after the reload, and its request prefix is byte-identical: tools and
  // system did not change, so the prompt cache still holds.
  const first = api.requests[0];
  expect(after?.body.messages.length).toBeGreaterThan(first.body.messages.length + 4);
  expect(JSON.stringify(after?.body.tools)).toBe(JSON.stringify(first.body.tools));
  expect(JSON.stringify(after?.body.system)).toBe(JSON.stringify(first.body.system));
});

test('auto opens the built-in sandbox at once (no WebContainer wait), says so, and tells the model it has node', async ({
  page,
}) => {
  // How fast it is ready is measured by `npm run bench` (bench/node.ts), not asserted here.
  await openApp(page);
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', 'just-bash');
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute(
    'title',
    /^just-bash: the built-in sandbox, ready at once/,
  );
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

  api.script([{ content: [{ type: 'text', text: 'Understood.' }] }]);
  await connectRemembering(page, api);
  await sendPrompt(page, 'Which sandbox do you have?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Understood.');
  const system = JSON.stringify(api.requests[0].body.system);
  expect(system).toContain('Sandbox: just-bash (just-bash: the built-in sandbox');
  expect(system).toContain('`node` runs JavaScript and TypeScript');
  expect(system).not.toContain('There is no Node.js here');
  expect(system).toMatch(/Commands available: [^"]*\bgrep\b[^"]*\bnode\b/);
});

test('?sandbox=just-bash and ?sandbox=webcontainer: the choice and its outcome are shown', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/?sandbox=just-bash');
  const badge = page.getByTestId('sandbox-badge');
  await expect(badge).toHaveAttribute('data-kind', 'just-bash');
  await expect(badge).toHaveAttribute(
    'title',
    'just-bash was chosen (?sandbox= in the URL): the built-in sandbox (a simulated bash with Node.js in a worker)',
  );

  // Asked for explicitly, the WebContainer is waited for, then the page still works on just-bash.
  await page.goto('/?sandbox=webcontainer');
  await expect(badge).toHaveAttribute('data-kind', 'just-bash', { timeout: 30_000 });
  await expect(badge).toHaveAttribute(
    'title',
    /^WebContainer unavailable: StackBlitz's WebContainer runtime .* cannot be reached/,
  );
  await expect(fileItem(page, 'README.md')).toBeVisible();
});

test("the app's terminal: the agent's Bash runs appear marked, and the user types commands in their own session", async ({
  page,
}) => {
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_term',
          name: 'Bash',
          input: { command: 'mkdir -p work && cd work && echo from-the-agent' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Ran it.' }] },
  ]);
  await openApp(page);
  await connectRemembering(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Run something.');
  await expect(toolCard(page, 'toolu_term')).toHaveAttribute('data-status', 'done');
  await waitIdle(page);

  await page.getByTestId('tab-terminal').click();
  const terminal = page.getByTestId('terminal');
  await expect(terminal).toHaveAttribute('data-mode', 'line');
  // The pane is narrow and xterm wraps long lines into rows: compare the text with the rows joined.
  const text = () =>
    terminal.evaluate((el) =>
      [...el.querySelectorAll('.xterm-rows > div')]
        .map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd())
        .join(''),
    );
  await expect.poll(text).toContain('just-bash: the built-in sandbox');
  await expect
    .poll(text)
    .toContain('[agent] $ mkdir -p work && cd work && echo from-the-agentfrom-the-agent[agent] exit 0');

  // The user's shell starts at the root (the agent's `cd work` is the agent's), and works.
  await terminal.locator('.xterm').click();
  await page.keyboard.type('pwd && ls');
  await page.keyboard.press('Enter');
  await expect.poll(text).toContain('user@tabcode:~$ pwd && ls/home/user/project');
  await expect.poll(text).toMatch(/README\.md.*work/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/app-terminal.png` });
});

test('a full browser storage is shown, not dropped: the project save fails with a plain message', async ({
  page,
}) => {
  // The project store refuses writes as a full disk does (other stores work).
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['put']>
    ) {
      if (this.name === 'tree') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_big',
          name: 'Write',
          input: { file_path: `${ROOT}/big.txt`, content: 'x\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Written.' }] },
  ]);
  await openApp(page);
  await connectRemembering(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Write a file.');
  await expect(toolCard(page, 'toolu_big')).toHaveAttribute('data-status', 'done');
  const banner = page.getByTestId('project-save-error-banner');
  await expect(banner).toContainText("The browser's storage is full, so project files were not saved");
  await expect(banner).toHaveCount(1);
  // A storage problem is not the turn's failure: no "the request failed, send it again", and the reply
  // that follows is kept (an error in the transcript ended the streaming text as "not kept").
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Written.');
  await expect(page.getByTestId('assistant-text').last()).not.toHaveAttribute('data-discarded', 'true');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  // The file is still in the sandbox for this tab.
  await expect(fileItem(page, 'big.txt')).toBeVisible();
});
