/**
 * The embed layer of the app build in a real Chromium: (a) a cross-origin host page (e2e/fixtures/
 * embed-demo-host.html, served by a small server of the test at 127.0.0.1 while tabcode is at localhost:
 * another origin, and a local one, so Chromium's local-network-access checks let it frame localhost)
 * embeds /embed.html, posts a config with its own files and a scripted demo (the older, hand-written
 * form of a replay) and receives the protocol messages; the demo's Write really creates the file. No API
 * key anywhere and no request to a model API. (b) `mount()` called directly with a bad field: a warning,
 * and a working page. The docs example site (examples/) and the package are in embed-site.spec.ts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { SCREENSHOT_DIR } from './support/app.ts';

const HOST_HTML = readFileSync(new URL('./fixtures/embed-demo-host.html', import.meta.url), 'utf8');

interface Posted {
  type: string;
  event?: { type: string; name?: string; isError?: boolean };
  warning?: { field: string };
  sandbox?: string;
}

/** Fails the test if the page (any frame) tries to reach a model API. */
function forbidModelApi(page: Page): string[] {
  const hits: string[] = [];
  page.on('request', (req) => {
    if (/anthropic\.com|\/v1\/messages/.test(req.url())) hits.push(req.url());
  });
  return hits;
}

/** The docs site: serves the example host page at any path. */
let docs: Server;
let docsOrigin = '';

test.beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  docs = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(HOST_HTML);
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docsOrigin = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => docs?.close(resolve));
});

test('iframe: a host posts a config with files and a demo; the demo writes a file, no key', async ({
  page,
  baseURL,
}) => {
  const apiHits = forbidModelApi(page);
  await page.goto(`${docsOrigin}/guide.html?tabcode=${encodeURIComponent(`${baseURL}/embed.html`)}`);
  const messages = () =>
    page.evaluate(() => (window as unknown as { tabcodeMessages: Posted[] }).tabcodeMessages);

  await expect.poll(async () => (await messages()).map((m) => m.type)).toContain('tabcode:ready');
  const early = await messages();
  expect(early[0].type).toBe('tabcode:loaded');
  expect(early.find((m) => m.type === 'tabcode:ready')?.sandbox).toBe('just-bash');
  expect(early.filter((m) => m.type === 'tabcode:warning')).toEqual([]);

  const frame = page.frameLocator('#tabcode');
  // The host's files, not the demo project.
  await expect(frame.locator('[data-testid="file-item"][data-path="README.md"]')).toBeVisible();
  await expect(frame.locator('[data-testid="file-item"][data-path="src/greet.js"]')).toHaveCount(1);
  await expect(frame.locator('[data-testid="file-item"][data-path="data/cities.csv"]')).toHaveCount(0);
  await expect(frame.getByTestId('sessions-splitter')).toHaveCount(0);

  await page.getByRole('button', { name: 'Run the demo' }).click();
  await expect(frame.getByTestId('user-message')).toHaveText('Write a hello note and show it to me.');
  await expect
    .poll(async () => (await messages()).some((m) => m.event?.type === 'run-end'), { timeout: 20_000 })
    .toBe(true);

  const events = (await messages()).filter((m) => m.type === 'tabcode:event').map((m) => m.event);
  const types = events.map((e) => e?.type);
  expect(types[0]).toBe('run-start');
  for (const t of ['text-delta', 'tool-use-start', 'tool-run-start', 'tool-result', 'turn-end']) {
    expect(types).toContain(t);
  }
  const results = events.filter((e) => e?.type === 'tool-result');
  expect(results.map((r) => [r?.name, r?.isError])).toEqual([
    ['Write', false],
    ['Bash', false],
  ]);

  // The new file is in the iframe's Files panel, with the demo's content.
  const file = frame.locator('[data-testid="file-item"][data-path="hello.md"]');
  await expect(file).toBeVisible();
  await expect(frame.getByTestId('assistant-text').last()).toContainText('hello.md is in the project');
  await file.click();
  await expect(frame.getByTestId('file-content')).toContainText('Written by the tabcode demo.');
  await expect(frame.getByTestId('error-banner')).toHaveCount(0);
  // A scripted demo bills nothing, so the meter shows no cost.
  await expect(frame.getByTestId('usage-cost')).toHaveText('demo');

  // No key was ever asked for or sent, and nothing left the page for a model API.
  expect(apiHits).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/embed-iframe-demo.png`, fullPage: true });
});

test('mount() directly: a bad config field is reported and ignored, the page still works', async ({
  page,
}) => {
  const apiHits = forbidModelApi(page);
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning' && msg.text().includes('embed config')) warnings.push(msg.text());
  });
  await page.goto('/embed.html?mode=direct');
  const result = await page.evaluate(async () => {
    const root = document.getElementById('root') as HTMLElement;
    const domWarnings: string[] = [];
    root.addEventListener('embed-warning', (e) => domWarnings.push((e as CustomEvent).detail.field));
    const tabcode = (
      window as unknown as { tabcode: { mount: (el: HTMLElement, c: unknown) => Promise<unknown> } }
    ).tabcode;
    const handle = (await tabcode.mount(root, {
      sandbox: 'just-bash',
      maxTokens: 'lots',
      apiKey: 'sk-ant-should-not-be-used',
      files: { 'notes.md': '# Notes\n' },
      demo: { chunkDelayMs: 0, turns: [{ content: [{ type: 'text', text: 'Hi from the scripted demo.' }] }] },
    })) as { warnings: { field: string }[]; sandbox: string };
    return { domWarnings, warnings: handle.warnings.map((w) => w.field), sandbox: handle.sandbox };
  });
  expect(result.warnings).toEqual(['apiKey', 'maxTokens']);
  expect(result.domWarnings).toEqual(['apiKey', 'maxTokens']);
  expect(result.sandbox).toBe('just-bash');
  expect(warnings).toHaveLength(2);
  expect(warnings.join('\n')).not.toContain('sk-ant-should-not-be-used');

  const notice = page.getByTestId('embed-warnings');
  await expect(notice).toBeVisible();
  await expect(notice.locator('[data-field="maxTokens"]')).toContainText('integer from 1');
  await expect(page.locator('[data-testid="file-item"][data-path="notes.md"]')).toBeVisible();

  // The page works: the prompt box sends, the demo answers (no key asked for).
  const input = page.getByTestId('prompt-input');
  await input.fill('hello');
  await input.press('Enter');
  await expect(page.getByTestId('assistant-text')).toHaveText('Hi from the scripted demo.');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await page.getByTestId('embed-warnings').getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  expect(apiHits).toEqual([]);
});
