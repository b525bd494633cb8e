/**
 * Node.js in the tab, in real Chromium, on a page served WITHOUT COOP/COEP (the way a docs site embeds a
 * playground): the built-in sandbox's `node` and `npm` through the terminal and through the agent's Bash
 * tool (the real SDK against the mock API), offline but for loopback. The package registry is a local
 * one this spec starts, with tarballs made by `npm pack`.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import { packFixtures } from './registry/pack.ts';
import { type LocalRegistry, startRegistry } from './registry/server.ts';
import {
  allowEverything,
  connect,
  resultText,
  SCREENSHOT_DIR,
  sendPrompt,
  terminalText,
  toolCard,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';
import { type StaticServer, serveStatic } from './support/static-server.ts';

const ROOT = '/home/user/project';
let api: MockApi;
let site: StaticServer;
let registry: LocalRegistry;

withMockApi((a) => {
  api = a;
});

test.beforeAll(async () => {
  site = await serveStatic(process.env.E2E_DIST ?? 'dist');
  registry = await startRegistry({ packages: await packFixtures() });
});

test.afterAll(async () => {
  await site?.close();
  await registry?.stop();
});

/** Opens the page from the plain static server (not cross-origin isolated) with a fresh project. */
async function openPlain(page: Page): Promise<void> {
  await page.goto(`${site.url}/`);
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', 'just-bash');
  await expect(page.getByTestId('file-item').first()).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
}

test('the demo project runs in the terminal: node, npm start, npm test, output as it is printed', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openPlain(page);
  await page.getByTestId('tab-terminal').click();
  await page.getByTestId('terminal').locator('.xterm').click();
  await page.keyboard.type('node src/index.js && npm test');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/Lisbon\s+3 readings/);
  await expect.poll(() => terminalText(page), { timeout: 30_000 }).toContain('ℹ pass 1');
  await expect.poll(() => terminalText(page)).toContain('ℹ fail 0');

  // A program's lines appear while it still runs.
  await page.keyboard.type(
    `node -e "let i = 0; const t = setInterval(() => { console.log('tick', ++i); if (i === 6) clearInterval(t); }, 250)"`,
  );
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('tick 2');
  expect(await terminalText(page)).not.toContain('tick 6');
  await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('tick 6');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/node-terminal.png` });
});

test('the Bash tool runs CommonJS, ESM with top-level await, TypeScript, node_modules, npm test and npm install; a runaway stops at its timeout with its output kept', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const w = (id: string, path: string, content: string) => ({
    type: 'tool_use' as const,
    id,
    name: 'Write',
    input: { file_path: `${ROOT}/${path}`, content },
  });
  const bash = (id: string, command: string, timeout?: number) => ({
    content: [
      { type: 'tool_use' as const, id, name: 'Bash', input: { command, ...(timeout ? { timeout } : {}) } },
    ],
  });
  api.script([
    {
      content: [
        w('w0', 'cjs/package.json', '{ "name": "cjs-project", "type": "commonjs" }\n'),
        w('w1', 'cjs/main.js', "const { greet } = require('./lib');\nconsole.log(greet(process.argv[2]));\n"),
        w(
          'w2',
          'cjs/lib/index.js',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the program's own template literal
          "exports.greet = (n) => `hello ${n} from ${require('path').basename(__dirname)}`;\n",
        ),
        w('w3', 'esm/package.json', '{ "type": "module" }\n'),
        w(
          'w4',
          'esm/main.js',
          "import { readFile } from 'node:fs/promises';\nconst text = await readFile(new URL('./data.json', import.meta.url), 'utf8');\nconsole.log('items', JSON.parse(text).length);\n",
        ),
        w('w5', 'esm/data.json', '[1, 2, 3]\n'),
        w(
          'w6',
          'ts/area.ts',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the program's own template literal
          'type Shape = { w: number; h: number };\nconst area = (s: Shape): number => s.w * s.h;\nconsole.log(area({ w: 3, h: 4 }));\nthrow new Error(`bad shape at ${import.meta.filename}`);\n',
        ),
        w(
          'w7',
          'node_modules/left-pad/package.json',
          '{ "name": "left-pad", "version": "1.3.0", "main": "index.js" }\n',
        ),
        w(
          'w8',
          'node_modules/left-pad/index.js',
          "module.exports = (s, n, c = ' ') => String(s).padStart(n, c);\n",
        ),
        w(
          'w9',
          'app/package.json',
          `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { 'tiny-math': '^1.0.0', greet: '1.0.0' } })}\n`,
        ),
        w('w10', 'app/.npmrc', `registry=${registry.url}\n`),
      ],
    },
    bash('b_cjs', 'node cjs/main.js world'),
    bash('b_esm', 'node esm/main.js'),
    bash('b_ts', 'node ts/area.ts'),
    bash('b_pkg', `node -p "require('left-pad')(7, 3, '0')"`),
    bash('b_test', 'npm test'),
    bash('b_loop', `node -e "console.log('before the loop'); for (;;) {}"`, 1500),
    bash(
      'b_install',
      `cd app && npm install && node -p "require('tiny-math').add(2, 3) + ' ' + require('greet').greet('x')"`,
    ),
    { content: [{ type: 'text', text: 'All ran.' }] },
  ]);
  await openPlain(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Run the examples.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All ran.', { timeout: 90_000 });
  await waitIdle(page);
  const last = api.requests.at(-1);
  if (!last) throw new Error('no request');
  const out = (id: string) => {
    const block = toolResultFor(last, id);
    expect(block, id).toBeDefined();
    return { text: resultText(block ?? {}), isError: block?.is_error === true };
  };
  expect(out('b_cjs')).toEqual({ text: 'hello world from lib', isError: false });
  expect(out('b_esm')).toEqual({ text: 'items 3', isError: false });
  const ts = out('b_ts');
  expect(ts.text).toMatch(/^12\n/);
  expect(ts.text).toContain(`${ROOT}/ts/area.ts:4`);
  expect(ts.text).toContain(`Error: bad shape at ${ROOT}/ts/area.ts`);
  expect(ts.text).toContain('Exit code 1');
  expect(out('b_pkg').text).toBe('007');
  const tests = out('b_test');
  expect(tests.text).toContain('ℹ pass 1');
  expect(tests.isError).toBe(false);
  const loop = out('b_loop');
  expect(loop.text).toContain('before the loop');
  expect(loop.text).toMatch(/timed out/i);
  expect(loop.text).toContain('Exit code 124');
  const install = out('b_install');
  expect(install.text).toMatch(/added \d+ packages/);
  expect(install.text).toContain('5 Hello, x! (tiny-math 1.1.0)');
  expect(install.isError).toBe(false);
  expect(registry.requests.some((r) => r.kind === 'tarball')).toBe(true);
  // The timeout stopped the runaway promptly: its card is done (with the error), not still running.
  await expect(toolCard(page, 'b_loop')).toHaveAttribute('data-status', 'error');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/node-bash-tool.png` });
});

test("code the agent runs cannot reach the page's storage, network or globals", async ({ page }) => {
  test.setTimeout(60_000);
  await openPlain(page);
  const before = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'probe',
          name: 'Bash',
          input: {
            command: `node -e "${[
              'const out = {};',
              "for (const name of ['indexedDB', 'localStorage', 'sessionStorage', 'document', 'window', 'self', 'caches', 'importScripts', 'postMessage', 'Worker', 'BroadcastChannel']) out[name] = typeof globalThis[name];",
              "for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']) { try { new globalThis[name]('http://127.0.0.1:9/'); out[name] = 'reached'; } catch (e) { out[name] = e.code || e.message; } }",
              "try { globalThis.fetch('http://127.0.0.1:9/'); out.fetchCall = 'reached'; } catch (e) { out.fetchCall = e.code; }",
              "out.constructorEscape = (() => { try { return typeof (function () {}).constructor('return this')().indexedDB; } catch (e) { return 'threw'; } })();",
              'console.log(JSON.stringify(out));',
            ].join(' ')}"`,
          },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Probed.' }] },
  ]);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Probe the sandbox.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Probed.', { timeout: 60_000 });
  const last = api.requests.at(-1);
  const text = resultText(toolResultFor(last ?? (undefined as never), 'probe') ?? {});
  const seen = JSON.parse(text) as Record<string, string>;
  for (const name of [
    'indexedDB',
    'localStorage',
    'sessionStorage',
    'document',
    'window',
    'self',
    'caches',
    'importScripts',
    'postMessage',
    'Worker',
    'BroadcastChannel',
  ]) {
    expect(seen[name], name).toBe('undefined');
  }
  for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource'])
    expect(seen[name], name).toBe('ERR_NOT_SUPPORTED');
  expect(seen.fetchCall).toBe('ERR_NOT_SUPPORTED');
  expect(seen.constructorEscape).toBe('undefined');
  const after = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
  expect(after).toEqual(before);
  // The second wall: the node worker itself has no network or storage left once its engine loaded.
  const worker = page.workers().find((w) => /\/worker-[\w-]+\.js$/.test(w.url()));
  expect(worker, 'the node worker').toBeDefined();
  const inWorker = await worker?.evaluate(() =>
    [
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'EventSource',
      'indexedDB',
      'caches',
      'importScripts',
      'BroadcastChannel',
      'Worker',
    ].map((name) => `${name}:${typeof (globalThis as Record<string, unknown>)[name]}`),
  );
  expect(inWorker).toEqual(
    [
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'EventSource',
      'indexedDB',
      'caches',
      'importScripts',
      'BroadcastChannel',
      'Worker',
    ].map((name) => `${name}:undefined`),
  );
});

test('Esc stops a runaway program at once and keeps what it printed; the next run works', async ({
  page,
}) => {
  test.setTimeout(60_000);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'spin',
          name: 'Bash',
          input: { command: `node -e "console.log('spinning up'); for (;;) {}"` },
        },
      ],
    },
    { content: [{ type: 'tool_use', id: 'after', name: 'Bash', input: { command: 'node -p "6 * 7"' } }] },
    { content: [{ type: 'text', text: 'Done.' }] },
  ]);
  await openPlain(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Spin.');
  const card = toolCard(page, 'spin');
  await expect(card).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
  await expect(card).toContainText('spinning up', { timeout: 20_000 });
  await page.keyboard.press('Escape');
  await expect(card).not.toHaveAttribute('data-status', 'running', { timeout: 5_000 });
  await waitIdle(page);
  await expect(card).toContainText('spinning up');
  // The interrupted turn is over; the next prompt runs node again in a fresh worker.
  await sendPrompt(page, 'Go on.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Done.', { timeout: 30_000 });
  const last = api.requests.at(-1);
  expect(resultText(toolResultFor(last ?? (undefined as never), 'after') ?? {})).toBe('42');
});
