/**
 * The Files panel as an editor: create files and folders, rename, delete, edit by hand (Ctrl+S), upload
 * files and a folder (picker) and dropped files, download a file and the project as a zip. A hand edit
 * is seen by Edit's "changed since read" check and told to the model. Bad input: a 50 MB upload, names
 * with HTML or control characters, a zip of 10,000 files. Real Chromium, the built site, the real SDK
 * against the mock Messages API.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import JSZip from 'jszip';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  blocksOf,
  connect,
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
// Each test opens its own page and storage (the mock API is reset before each), so they run side by side.
test.describe.configure({ mode: 'parallel' });

async function open(page: Page): Promise<void> {
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('file-item').first()).toBeVisible();
}

const file = (page: Page, path: string) => page.locator(`[data-testid="file-item"][data-path="${path}"]`);
const dir = (page: Page, path: string) => page.locator(`[data-testid="dir-item"][data-path="${path}"]`);

async function makeNew(page: Page, kind: 'file' | 'folder', path: string): Promise<void> {
  await page.getByTestId(kind === 'file' ? 'files-new-file' : 'files-new-folder').click();
  await page.getByTestId('files-name-input').fill(path);
  await page.getByTestId('files-name-input').press('Enter');
}

test('create, edit by hand, rename, delete; upload (picker, folder, drop); download a file and a zip', async ({
  page,
}, testInfo) => {
  page.on('dialog', (d) => void d.accept());
  await open(page);

  // A new file opens in the editor's viewer; Edit, type, Ctrl+S.
  await makeNew(page, 'file', 'notes/todo.md');
  await expect(file(page, 'notes/todo.md')).toBeVisible();
  await expect(page.getByTestId('file-viewer')).toHaveAttribute('data-path', 'notes/todo.md');
  await page.getByTestId('file-edit').click();
  // The code editor (CodeMirror) replaces the plain text area once its chunk is in.
  await expect(page.locator('.code-editor[data-editor="codemirror"]')).toBeVisible();
  await page.getByTestId('file-editor').fill('- buy milk\n- write tests\n');
  await page.getByTestId('file-editor').press('Control+s');
  await expect(page.getByTestId('file-editor')).toHaveCount(0);
  await expect(page.getByTestId('file-content')).toHaveText('- buy milk\n- write tests\n');

  // An empty folder shows; a file is renamed; a folder is deleted with what it holds.
  await makeNew(page, 'folder', 'empty/inner');
  await expect(dir(page, 'empty/inner')).toBeVisible();
  await file(page, 'notes/todo.md').hover();
  await page
    .locator('.file-row', { has: file(page, 'notes/todo.md') })
    .getByTestId('row-rename')
    .click();
  await page.getByTestId('files-name-input').fill('done.md');
  await page.getByTestId('files-name-input').press('Enter');
  await expect(file(page, 'notes/done.md')).toBeVisible();
  await expect(file(page, 'notes/todo.md')).toHaveCount(0);
  await dir(page, 'empty').focus();
  await page.keyboard.press('Delete');
  await expect(dir(page, 'empty')).toHaveCount(0);
  await expect(dir(page, 'empty/inner')).toHaveCount(0);

  // Upload: two picked files, a picked folder, a dropped file.
  const up = testInfo.outputPath('up');
  mkdirSync(join(up, 'folder', 'sub'), { recursive: true });
  writeFileSync(join(up, 'a.txt'), 'a\n');
  writeFileSync(join(up, 'b.bin'), Buffer.from([0, 1, 2, 3]));
  writeFileSync(join(up, 'folder', 'c.txt'), 'c\n');
  writeFileSync(join(up, 'folder', 'sub', 'd.txt'), 'd\n');
  await page.getByTestId('files-upload-input').setInputFiles([join(up, 'a.txt'), join(up, 'b.bin')]);
  await expect(page.getByTestId('files-note')).toHaveText('Uploaded 2 files.');
  await page.getByTestId('files-upload-folder-input').setInputFiles(join(up, 'folder'));
  await expect(page.getByTestId('files-note')).toHaveText('Uploaded 2 files.');
  await expect(file(page, 'folder/sub/d.txt')).toBeVisible();
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['dropped\n'], 'dropped.txt'));
    const target = document.querySelector('[data-testid="files-panel"]');
    target?.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(file(page, 'dropped.txt')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/files-panel.png` });

  // Download one file, then the project as a zip.
  await file(page, 'b.bin').click();
  const [one] = await Promise.all([page.waitForEvent('download'), page.getByTestId('file-download').click()]);
  expect(one.suggestedFilename()).toBe('b.bin');
  expect([...readFileSync(await one.path())]).toEqual([0, 1, 2, 3]);
  const [zipped] = await Promise.all([page.waitForEvent('download'), page.getByTestId('files-zip').click()]);
  expect(zipped.suggestedFilename()).toBe('project.zip');
  const zip = await JSZip.loadAsync(readFileSync(await zipped.path()));
  expect(await zip.file('notes/done.md')?.async('string')).toBe('- buy milk\n- write tests\n');
  expect(await zip.file('folder/sub/d.txt')?.async('string')).toBe('d\n');
  expect(await zip.file('dropped.txt')?.async('string')).toBe('dropped\n');
  expect(zip.file('README.md')).not.toBeNull();
});

test("a hand edit: Edit's changed-since-read check sees it, and the model is told", async ({ page }) => {
  const notes = `${ROOT}/README.md`;
  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: notes } }] },
    { content: [{ type: 'text', text: 'I have read it.' }] },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_edit',
          name: 'Edit',
          input: { file_path: notes, old_string: '# Weather notes', new_string: '# Weather' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'It changed; I will read it again.' }] },
  ]);
  await open(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Read the README');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('I have read it.');
  await waitIdle(page);

  // The user edits it by hand.
  await file(page, 'README.md').click();
  await page.getByTestId('file-edit').click();
  await expect(page.locator('.code-editor[data-editor="codemirror"]')).toBeVisible();
  await page.getByTestId('file-editor').press('Control+End');
  await page.keyboard.type('\nA line the user added.\n');
  await page.getByTestId('file-save').click();
  await expect(page.getByTestId('file-content')).toContainText('A line the user added.');

  await sendPrompt(page, 'Now edit the title');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('It changed; I will read it again.');
  await expect(toolCard(page, 'toolu_edit')).toHaveAttribute('data-status', 'error');
  const told = api.requests[2];
  const reminder = blocksOf(told).find(
    (b) => b.type === 'text' && b.text.includes('changed these files by hand'),
  );
  expect(reminder && 'text' in reminder ? reminder.text : '').toContain(notes);
  const refused = toolResultFor(api.requests[3], 'toolu_edit');
  expect(resultText(refused ?? {})).toMatch(/modified since read/);
  // The file keeps the user's edit.
  await expect(page.getByTestId('file-content')).toContainText('# Weather notes');
});

test('bad input: a 50 MB upload is refused with its size; HTML and control characters in names', async ({
  page,
}, testInfo) => {
  await open(page);
  const big = testInfo.outputPath('big.bin');
  writeFileSync(big, Buffer.alloc(50 * 1024 * 1024));
  const small = testInfo.outputPath('small.txt');
  writeFileSync(small, 'small\n');
  await page.getByTestId('files-upload-input').setInputFiles([big, small]);
  const note = page.getByTestId('files-note');
  await expect(note).toContainText('Uploaded 1 file; 1 refused.');
  await expect(note).toContainText('big.bin: it is 50.0 MB; files up to 20.0 MB can be uploaded');
  await expect(file(page, 'small.txt')).toBeVisible();
  await expect(file(page, 'big.bin')).toHaveCount(0);

  // A name with HTML is only text; one with a control character is refused, saying so.
  const html = '<img src=x onerror="window.__xss=1">.txt';
  await makeNew(page, 'file', html);
  await expect(page.locator('[data-testid="file-item"]', { hasText: html })).toBeVisible();
  await expect(page.getByTestId('files-panel').locator('img')).toHaveCount(0);
  await makeNew(page, 'file', 'bell\u0007.txt');
  await expect(note).toHaveAttribute('data-kind', 'error');
  await expect(note).toContainText('"bell\\x07.txt" has a control character; names cannot.');
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
});

test('bad input: a project of 10,000 files uploads and downloads as one zip', async ({ page }, testInfo) => {
  // ~30 s on a quiet 2-core machine (Playwright hands over 10,000 files; the page writes and zips them).
  test.setTimeout(300_000);
  const many = testInfo.outputPath('many');
  mkdirSync(many, { recursive: true });
  for (let i = 0; i < 10_000; i++) writeFileSync(join(many, `f${i}.txt`), `${i}\n`);
  await open(page);
  await page.getByTestId('files-upload-folder-input').setInputFiles(many);
  await expect(page.getByTestId('files-note')).toHaveText('Uploaded 10000 files.', { timeout: 150_000 });
  const [zipped] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByTestId('files-zip').click(),
  ]);
  const zip = await JSZip.loadAsync(readFileSync(await zipped.path()));
  const names = Object.keys(zip.files).filter((n) => n.startsWith('many/') && !n.endsWith('/'));
  expect(names).toHaveLength(10_000);
  expect(await zip.file('many/f9999.txt')?.async('string')).toBe('9999\n');
});
