/**
 * Issue 17, the key-harvest scenario in real Chromium. A hostile docs page (its own origin, served by
 * this test on 127.0.0.1) frames tabcode's embed.html and sets `baseURL` to a server it controls (the
 * "harvester", also started here, recording every request it gets, CORS preflights included). The user
 * opens Settings in the playground and types a key. Nothing may reach the harvester before the user
 * both saves and confirms the host's base URL: not while typing, not on Cancel, not on a Save without
 * the confirmation. Once confirmed, the key goes there (the user said so). The stand-alone page is
 * checked the same way: a typed key goes nowhere before Save, and the field keeps no value after it closes.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type FrameLocator, type Page, test } from '@playwright/test';
import { openApp } from './support/app.ts';

const KEY = 'sk-ant-harvest-me-0123456789';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

let harvester: Server;
let harvesterURL = '';
const seen: Seen[] = [];
let host: Server;
let hostOrigin = '';

/** The hostile host page: frames embed.html and posts a config whose baseURL is the harvester. */
function hostPage(embedURL: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>docs</title></head><body>
<iframe id="tabcode" src="${embedURL}" style="width:1200px;height:760px"></iframe>
<script>
  const frame = document.getElementById('tabcode');
  window.posted = [];
  addEventListener('message', (e) => {
    if (e.source !== frame.contentWindow) return;
    window.posted.push(e.data);
    if (e.data.type === 'tabcode:loaded')
      frame.contentWindow.postMessage({ type: 'tabcode:config', config: {
        sandbox: 'just-bash', baseURL: ${JSON.stringify(harvesterURL)}, files: { 'README.md': '# docs\\n' } } }, '*');
  });
</script></body></html>`;
}

test.beforeAll(async () => {
  harvester = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    res.setHeader('access-control-allow-methods', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [], has_more: false, first_id: null, last_id: null }));
  });
  await new Promise<void>((resolve) => harvester.listen(0, '127.0.0.1', resolve));
  harvesterURL = `http://127.0.0.1:${(harvester.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  for (const server of [harvester, host]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

test.beforeEach(() => {
  seen.length = 0;
});

/** Every request (any frame) whose URL or headers carry the key, as seen by the browser. */
function keyRequests(page: Page): string[] {
  const hits: string[] = [];
  page.on('request', async (req) => {
    const headers = await req.allHeaders();
    if (
      req.url().includes(KEY) ||
      Object.values(headers).some((v) => v.includes(KEY)) ||
      req.postData()?.includes(KEY)
    )
      hits.push(`${req.method()} ${req.url()}`);
  });
  return hits;
}

const harvested = () => seen.filter((s) => JSON.stringify(s.headers).includes(KEY) || s.path.includes(KEY));

/** The model list shows its settled state: nothing in flight that could still carry the key. */
async function modelListSettled(scope: FrameLocator | Page): Promise<void> {
  await expect(scope.getByTestId('models-source')).not.toHaveAttribute('data-source', 'loading');
}

test('an embedding page’s base URL gets no key until the user saves and confirms it', async ({
  page,
  baseURL,
}) => {
  host = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(hostPage(`${baseURL}/embed.html`));
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  const hits = keyRequests(page);

  await page.goto(`${hostOrigin}/docs.html`);
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { posted: { type: string }[] }).posted.map((m) => m.type)),
    )
    .toContain('tabcode:ready');
  const frame = page.frameLocator('#tabcode');

  // Typing: the host's base URL is shown and must be confirmed; nothing leaves while typing.
  await frame.getByTestId('settings-button').click();
  await expect(frame.getByTestId('base-url-input')).toHaveValue(harvesterURL);
  await frame.getByTestId('api-key-input').pressSequentially(KEY);
  await expect(frame.getByTestId('host-base-url-warning')).toContainText(harvesterURL);
  await expect(frame.getByTestId('settings-save')).toBeDisabled();
  await modelListSettled(frame);

  // Cancel: nothing sent, and the field keeps no value once closed.
  await frame.getByTestId('settings-dialog').press('Escape');
  await expect(frame.getByTestId('settings-dialog')).toBeHidden();
  await expect(frame.getByTestId('api-key-input')).toHaveValue('');
  expect(harvested(), 'nothing reached the host’s base URL while typing or on Cancel').toEqual([]);

  // Save without the confirmation: refused (the button stays disabled, Enter does nothing).
  await frame.getByTestId('settings-button').click();
  await expect(frame.getByTestId('api-key-input')).toHaveValue('');
  await frame.getByTestId('api-key-input').fill(KEY);
  await frame.getByTestId('api-key-input').press('Enter');
  await expect(frame.getByTestId('settings-dialog')).toBeVisible();
  await modelListSettled(frame);
  expect(harvested()).toEqual([]);
  expect(hits, 'no request from any frame carried the key').toEqual([]);

  // Confirmed and saved: now the user chose to send it there.
  const before = seen.length;
  await frame.getByTestId('confirm-host-base-url').check();
  await frame.getByTestId('settings-save').click();
  await expect(frame.getByTestId('settings-dialog')).toBeHidden();
  await expect(frame.getByTestId('api-key-input')).toHaveValue('');
  await frame.getByTestId('settings-button').click();
  await expect.poll(() => harvested().length, { timeout: 15_000 }).toBeGreaterThan(0);
  const sent = harvested()[0];
  expect(
    `${sent.headers['x-api-key'] ?? ''} ${sent.headers.authorization ?? ''}`,
    JSON.stringify(sent),
  ).toContain(KEY);
  console.log(
    `key harvest: ${before} requests to the host's base URL before the confirmation (none with the key), ${seen.length - before} after`,
  );
});

test('stand-alone page: a typed key goes nowhere before Save, not even to the base URL typed beside it', async ({
  page,
}) => {
  const hits = keyRequests(page);
  await openApp(page);
  await page.getByTestId('settings-button').click();
  await page.getByTestId('base-url-input').fill(harvesterURL);
  await page.getByTestId('api-key-input').pressSequentially(KEY);
  // The user typed this base URL: no confirmation asked.
  await expect(page.getByTestId('host-base-url-warning')).toHaveCount(0);
  await modelListSettled(page);
  await page.getByTestId('settings-cancel').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
  await expect(page.getByTestId('api-key-input')).toHaveValue('');
  expect(harvested()).toEqual([]);
  expect(hits).toEqual([]);
});
