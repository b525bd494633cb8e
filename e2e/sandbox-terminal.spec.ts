/**
 * The terminal and the sandboxes in Chromium, on the harness page (e2e/webcontainer/harness.html)
 * served by Vite's dev server with the app's config: typing into the just-bash line editor and into
 * the WebContainer shell (the typed fake), the agent's runs marked in the same terminal, and the
 * sandbox contract run in the browser.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import { SCREENSHOT_DIR } from './support/app.ts';
import type { ContractResult } from './webcontainer/harness.tsx';

let vite: ViteDevServer;
let base = '';

test.beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const root = resolve(import.meta.dirname, '..');
  vite = await createServer({
    configFile: resolve(root, 'vite.config.ts'),
    root,
    logLevel: 'error',
    // Port 0: any free port, so parallel runs do not collide.
    server: { port: 0, hmr: false },
  });
  await vite.listen();
  base = vite.resolvedUrls?.local[0] ?? '';
  expect(base).toMatch(/^http:\/\/localhost:\d+\/$/);
});

test.afterAll(async () => {
  await vite?.close();
});

async function openHarness(page: Page, backend: string, extra = ''): Promise<void> {
  await page.goto(`${base}e2e/webcontainer/harness.html?backend=${backend}${extra}`);
  await expect(page.getByTestId('harness-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 45_000,
  });
}

/** The terminal's visible rows as text, one line per row (trailing blanks trimmed). */
const rows = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.xterm-rows > div')]
      .map((row) => (row.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd())
      .join('\n')
      .trimEnd(),
  );

/** Polls the terminal's text until `expected` (a substring or a pattern) is on screen. */
const onScreen = (page: Page, expected: string | RegExp) =>
  expect
    .poll(() => rows(page), { timeout: 10_000 })
    .toMatch(
      typeof expected === 'string' ? new RegExp(expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : expected,
    );

test('just-bash: a line editor that runs each line, with the agent runs marked', async ({ page }) => {
  await openHarness(page, 'just-bash');
  await expect(page.getByTestId('terminal')).toHaveAttribute('data-mode', 'line');
  await onScreen(page, 'user@tabcode:~$');
  await page.keyboard.type('mkdir -p src/deep && cd src && echo made > deep/f.txt && ls deep');
  await page.keyboard.press('Enter');
  await onScreen(page, 'f.txt');
  await onScreen(page, 'user@tabcode:~/src$');

  // Editing keys: fix a typo in the middle, recall history.
  await page.keyboard.type('ecoh fixed');
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Delete');
  await page.keyboard.type('ho');
  await page.keyboard.press('Enter');
  await onScreen(page, /^fixed$/m);

  // The agent runs while the user is typing: its run is marked and the typed line comes back.
  await page.keyboard.type('half typed');
  const result = await page.evaluate(() =>
    window.harness.agentExec('cat deep/f.txt; echo to-stderr >&2; exit 3'),
  );
  expect(result.exitCode).toBe(3);
  await onScreen(page, '[agent] $ cat deep/f.txt; echo to-stderr >&2; exit 3');
  await onScreen(page, '[agent] exit 3');
  await onScreen(page, /user@tabcode:~\/src\$ half typed\s*$/);
  await page.keyboard.press('Control+U');

  // Output shows as each command ends (live output), so `before` is there while `sleep` runs; Ctrl-C
  // stops the running command.
  await page.keyboard.type('echo before; sleep 100');
  await page.keyboard.press('Enter');
  await expect.poll(() => rows(page)).toMatch(/sleep 100\nbefore$/);
  await page.waitForTimeout(300);
  await page.keyboard.press('Control+C');
  await onScreen(page, /^before\nCommand interrupted$/m);
  await onScreen(page, /user@tabcode:~\/src\$\s*$/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/terminal-just-bash.png` });
});

test('WebContainer (typed fake): keys go to an interactive jsh, agent runs are marked, the prompt line is restored', async ({
  page,
}) => {
  await openHarness(page, 'fake-webcontainer');
  await expect(page.getByTestId('terminal')).toHaveAttribute('data-mode', 'shell');
  await onScreen(page, '❯');
  await page.keyboard.type('echo from-the-shell');
  await page.keyboard.press('Enter');
  await onScreen(page, /^from-the-shell$/m);
  await page.keyboard.type('ls');
  await page.evaluate(() => window.harness.agentExec('echo agent-output'));
  await onScreen(page, '[agent] $ echo agent-output');
  await onScreen(page, '[agent] exit 0');
  await onScreen(page, /❯ ls\s*$/);
  await page.keyboard.press('Enter');
  await onScreen(page, 'README.md');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/terminal-webcontainer-fake.png` });
});

for (const backend of ['just-bash', 'fake-webcontainer']) {
  test(`the sandbox contract passes in Chromium on ${backend}`, async ({ page }) => {
    test.setTimeout(120_000);
    await openHarness(page, backend, '&contract=1');
    const results = await page.evaluate(() => window.harness.runContract());
    const failed = results.filter((r: ContractResult) => !r.ok);
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(17);
  });
}
