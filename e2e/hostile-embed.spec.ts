/**
 * Issue 17, hostile embed fields in real Chromium: a host page (its own origin, served by this test)
 * frames embed.html and posts a config whose files include a name with a NUL character (and other bad
 * names) beside good files. The bad ones are reported (`tabcode:warning`, naming the field) and left
 * out; the playground mounts with the good ones and works.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

interface Posted {
  type: string;
  warning?: { field: string; message: string };
}

let host: Server;
let hostOrigin = '';

const FILES = {
  'good.txt': 'kept\n',
  'src/also-good.js': 'export const ok = 1;\n',
  'bad\u0000name.txt': 'never mounted',
  '../escape.txt': 'never mounted',
};

test.beforeAll(async () => {
  host = createServer((req, res) => {
    const embed = new URL(req.url ?? '/', 'http://x').searchParams.get('embed') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><iframe id="tabcode" src="${embed.replaceAll('"', '')}" style="width:1100px;height:700px"></iframe>
<script>
  const frame = document.getElementById('tabcode');
  window.posted = [];
  addEventListener('message', (e) => {
    if (e.source !== frame.contentWindow) return;
    window.posted.push(e.data);
    if (e.data.type === 'tabcode:loaded')
      frame.contentWindow.postMessage({ type: 'tabcode:config', config: { sandbox: 'just-bash', files: ${JSON.stringify(FILES)} } }, '*');
  });
</script>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  host?.closeAllConnections();
  await new Promise((resolve) => host?.close(resolve));
});

test('a file name with a NUL is reported and ignored; the playground mounts the good files', async ({
  page,
  baseURL,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${hostOrigin}/?embed=${encodeURIComponent(`${baseURL}/embed.html`)}`);
  const posted = () => page.evaluate(() => (window as unknown as { posted: Posted[] }).posted);
  await expect.poll(async () => (await posted()).map((m) => m.type)).toContain('tabcode:ready');
  const warnings = (await posted()).filter((m) => m.type === 'tabcode:warning').map((m) => m.warning);
  expect(warnings.map((w) => w?.field)).toEqual(['files["bad\\u0000name.txt"]', 'files["../escape.txt"]']);
  expect(warnings[0]?.message).toMatch(/NUL/);

  const frame = page.frameLocator('#tabcode');
  await expect(frame.locator('[data-testid="file-item"][data-path="good.txt"]')).toBeVisible();
  await expect(frame.locator('[data-testid="file-item"][data-path="src/also-good.js"]')).toHaveCount(1);
  await expect(frame.locator('[data-testid="file-item"]')).toHaveCount(2); // the two good files, nothing else
  expect(errors).toEqual([]);
});
