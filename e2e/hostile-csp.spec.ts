/**
 * Issue 17, the Content-Security-Policy, in real Chromium against `vite preview` of the build: the page
 * carries the policy (header and <meta>), markup injected into the page cannot run script, the
 * stand-alone page cannot be framed by another site while embed.html can, and the app works under it
 * with no violation: the sandbox worker, the node engine (wasm), Grep's worker, python3 (Pyodide in a
 * blob worker started from a srcdoc frame), and the API base URL the user types (the mock API, on
 * 127.0.0.1: another origin than the page), reached from the request worker.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  resultText,
  sendPrompt,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

declare global {
  interface Window {
    __violations: string[];
    __ran?: string[];
  }
}

/** Records every CSP violation of the page (any document that shares its window's listeners). */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
}

const violations = (page: Page) => page.evaluate(() => window.__violations);

let host: Server;
let hostOrigin = '';
test.beforeAll(async () => {
  host = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><iframe id="f" src="${target.replaceAll('"', '')}"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  host?.closeAllConnections();
  await new Promise((resolve) => host?.close(resolve));
});

test('the page carries the policy; injected markup cannot run script', async ({ page, baseURL }) => {
  await recordViolations(page);
  const response = await page.goto('/');
  const header = response?.headers()['content-security-policy'] ?? '';
  expect(header).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(header).toContain("frame-ancestors 'none'");
  expect(header).toContain("object-src 'none'");
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveCount(1);
  const embed = await page.request.get(`${baseURL}/embed.html`);
  expect(embed.headers()['content-security-policy']).toContain('frame-ancestors *');

  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await page.evaluate(() => {
    window.__ran = [];
    const div = document.createElement('div');
    div.innerHTML = '<img src="data:," onerror="window.__ran.push(\'onerror\')">';
    document.body.append(div);
    const script = document.createElement('script');
    script.textContent = "window.__ran.push('inline')";
    document.body.append(script);
    const remote = document.createElement('script');
    remote.src = 'http://127.0.0.1:9/x.js';
    document.body.append(remote);
  });
  await expect.poll(async () => (await violations(page)).length).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => window.__ran)).toEqual([]);
  expect((await violations(page)).some((v) => v.startsWith('script-src'))).toBe(true);
});

test('another site cannot frame the stand-alone page; it can frame embed.html', async ({ page, baseURL }) => {
  await page.goto(`${hostOrigin}/?src=${encodeURIComponent(`${baseURL}/`)}`);
  const frame = page.frameLocator('#f');
  // The blocked frame never runs the app: no root element ever appears in it.
  await page.waitForLoadState('load');
  await expect(frame.locator('#root')).toHaveCount(0);

  await page.goto(`${hostOrigin}/?src=${encodeURIComponent(`${baseURL}/embed.html`)}`);
  await expect(page.frameLocator('#f').locator('#root')).toHaveCount(1);
});

test('the app works under the policy: API base URL (requests from their worker), sandbox, node, Grep, python3; no violation', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await recordViolations(page);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_node',
          name: 'Bash',
          input: { command: 'node -e "console.log(6 * 7)"' },
        },
        { type: 'tool_use', id: 'toolu_grep', name: 'Grep', input: { pattern: 'export', path: ROOT } },
        {
          type: 'tool_use',
          id: 'toolu_py',
          name: 'Bash',
          input: { command: 'python3 -c "print(6 * 7)"', timeout: 200_000 },
        },
      ],
    },
    { content: [{ type: 'text', text: 'All ran.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Run them.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All ran.', { timeout: 220_000 });
  await waitIdle(page);
  const next = api.requests[1];
  expect(resultText(toolResultFor(next, 'toolu_node') ?? {})).toContain('42');
  expect(resultText(toolResultFor(next, 'toolu_grep') ?? {})).toMatch(/Found \d+ files?/);
  expect(resultText(toolResultFor(next, 'toolu_py') ?? {})).toContain('42');
  // The model requests went out from the request worker (a page's own fetches are in its resource
  // timing), under the same policy.
  expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  const fromPage = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/messages')),
  );
  expect(fromPage).toEqual([]);
  expect(await violations(page)).toEqual([]);
});
