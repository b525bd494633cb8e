/**
 * The embed deployed on a path of its own, from the very build every other spec uses: the build's
 * asset URLs are relative (vite.config.ts `base: './'`), so this spec serves E2E_DIST under
 * `/playground/` with `vite preview` (the project's config: its CSP and isolation headers) and needs no
 * second build. In one origin, two page loads:
 * 1. the stand-alone page at /playground/ remembers an API key (Settings, "remember": database
 *    `tabcode-settings`, today's name);
 * 2. embed.html at /playground/embed.html mounts a playground whose `dependencies` are installed from a
 *    local registry (the sandbox worker opens npm's tarball cache) and runs `node` (its worker and wasm)
 *    on them.
 * Checked: every asset, worker and wasm loads from under the base (no request outside it, no 404), the
 * embed's frame-ancestors at that path, and storage: the embed opens only databases of its own
 * namespace (`tabcode-embed-*`), never the page's settings database, although the key is in the origin.
 * (A namespace separates names; only a separate origin hides the key from a script of the embed: the
 * README says so.) The names are the standard build's (namespaces `tabcode`, `tabcode-embed`). Loopback
 * only; no model API.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { type PreviewServer, preview } from 'vite';
import { FIXTURES_DIR, packFolders } from './registry/pack.ts';
import { type LocalRegistry, startRegistry } from './registry/server.ts';

/** The build under test (the one the suite serves at `/`). */
const DIST = resolve(process.env.E2E_DIST ?? 'dist');
/** The path the embed is deployed under. */
const BASE = '/playground/';
/** A key the stand-alone page remembers: the embed must never open the database that holds it. */
const KEY = 'sk-ant-own-origin-remembered-key';

let registry: LocalRegistry;
let server: PreviewServer;
let site = '';

test.beforeAll(async () => {
  // The spec relies on the relative base of the standard build; an absolute one cannot move under a path.
  const html = readFileSync(join(DIST, 'embed.html'), 'utf8');
  if (/(?:src|href)="\/assets\//.test(html))
    throw new Error(
      `${DIST} was built with an absolute base: build it with the config's default (base './').`,
    );
  registry = await startRegistry({ packages: await packFolders([join(FIXTURES_DIR, 'tiny-math-1.0.0')]) });
  server = await preview({
    configFile: resolve('vite.config.ts'),
    base: BASE,
    logLevel: 'silent',
    build: { outDir: DIST },
    preview: { host: '127.0.0.1', port: 0, strictPort: true },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview gave no URL');
  site = url.endsWith('/') ? url : `${url}/`;
});

test.afterAll(async () => {
  await server?.close();
  await registry?.stop();
});

/** The `apiKey` entry of database `name`'s `kv` store (undefined when there is none). */
function readRememberedKey(name: string): Promise<unknown> {
  return new Promise((done, fail) => {
    const open = indexedDB.open(name);
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('kv')) {
        db.close();
        done(undefined);
        return;
      }
      const get = db.transaction('kv').objectStore('kv').get('apiKey');
      get.onsuccess = () => {
        db.close();
        done(get.result);
      };
      get.onerror = () => fail(get.error);
    };
  });
}

const databaseNames = async () => (await indexedDB.databases()).map((d) => d.name ?? '').sort();

test('embed under a base path: assets load from it, and its storage is its own namespace', async ({
  page,
}) => {
  const origin = new URL(site).origin;
  const broken: string[] = [];
  const outside: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) broken.push(`${res.status()} ${res.url()}`);
  });
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.origin === origin && !url.pathname.startsWith(BASE)) outside.push(url.pathname);
    if (/anthropic\.com|\/v1\/messages/.test(req.url())) outside.push(req.url());
  });

  // 1. The stand-alone page under the base remembers a key.
  const appResponse = await page.goto(site);
  expect(appResponse?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await expect(page.getByTestId('file-item').first()).toBeVisible();
  await page.getByTestId('settings-button').click();
  await page.getByTestId('api-key-input').fill(KEY);
  // Loopback and closed: nothing is sent anywhere that answers.
  await page.getByTestId('base-url-input').fill('http://127.0.0.1:9');
  await page.getByTestId('remember-key').check();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
  await expect.poll(() => page.evaluate(readRememberedKey, 'tabcode-settings')).toBe(KEY);
  const pageDatabases = await page.evaluate(databaseNames);

  // 2. The embed, same origin, under the base; every storage name its page opens is recorded.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { storageSeen: string[] }).storageSeen = seen;
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
      seen.push(`idb:${name}`);
      return open.call(this, name, version);
    };
    for (const method of ['getItem', 'setItem', 'removeItem'] as const) {
      const original = Storage.prototype[method] as (this: Storage, ...args: string[]) => unknown;
      (Storage.prototype as unknown as Record<string, unknown>)[method] = function (
        this: Storage,
        ...args: string[]
      ) {
        seen.push(`storage:${args[0]}`);
        return original.apply(this, args);
      };
    }
  });
  const embedResponse = await page.goto(`${site}embed.html?mode=direct`);
  expect(embedResponse?.headers()['content-security-policy']).toContain('frame-ancestors *');
  await page.evaluate(async (registryUrl) => {
    const root = document.getElementById('root') as HTMLElement;
    const { tabcode } = window as unknown as {
      tabcode: { mount(el: HTMLElement, config: unknown): Promise<{ send(p: string): Promise<void> }> };
    };
    const handle = await tabcode.mount(root, {
      sandbox: 'just-bash',
      files: { '.npmrc': `registry=${registryUrl}\n`, 'notes.md': '# Notes\n' },
      dependencies: { 'tiny-math': '1.0.0' },
      permissions: { allow: ['Bash(node:*)'] },
      demo: {
        chunkDelayMs: 0,
        turns: [
          {
            content: [
              {
                type: 'tool_use',
                id: 'toolu_own_origin',
                name: 'Bash',
                input: { command: `node -e "console.log('sum', require('tiny-math').add(2, 3))"` },
              },
            ],
          },
          { content: [{ type: 'text', text: 'Ran it.' }] },
        ],
      },
    });
    await handle.send('Add two and three with tiny-math.');
  }, registry.url);

  await expect(page.getByTestId('embed-deps')).toHaveAttribute('data-state', 'installed');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Ran it.');
  await expect(page.locator('[data-testid="tool-card"][data-tool-use-id="toolu_own_origin"]')).toContainText(
    'sum 5',
  );

  // Storage: the embed's page opened nothing of the stand-alone page's.
  const seen = await page.evaluate(() => (window as unknown as { storageSeen: string[] }).storageSeen);
  expect(seen.filter((name) => !/^(?:idb|storage):tabcode-embed[-.]/.test(name))).toEqual([]);
  // The sandbox worker's npm cache is the one database the embed created here, in its own namespace.
  const added = (await page.evaluate(databaseNames)).filter((name) => !pageDatabases.includes(name));
  expect(added).toEqual(['tabcode-embed-npm']);
  // The key is still in the origin, in the database the embed never opened. (This read is the test's
  // own: any script of the origin can make it, which is why the README says to serve the embed from
  // an origin of its own.)
  expect(pageDatabases).toContain('tabcode-settings');
  expect(await page.evaluate(readRememberedKey, 'tabcode-settings')).toBe(KEY);

  // Every page, script, worker and wasm came from under the base, and loaded.
  expect(broken).toEqual([]);
  expect(outside).toEqual([]);
  expect(registry.requests.some((r) => r.kind === 'tarball' && r.path.includes('tiny-math'))).toBe(true);
});
