/**
 * ToolSearch's sentence encoder in the real page: with a 240-tool MCP server connected, the page's
 * worker loads the Universal Sentence Encoder (28 MB of weights and TF.js's WASM, all from our own
 * origin), embeds the deferred tools once and keeps their vectors in IndexedDB, and from then on the
 * search card says the encoder took part. A model file that does not load leaves ToolSearch answering
 * from the word ranking, and the card says why.
 */
import { expect, type Page, test } from '@playwright/test';
import { type McpHttpHost, startMcpHttpHost } from './mcp/http-host.ts';
import { createManyToolsServer } from './mcp/many-tools-server.ts';
import { saveServersAndReload } from './mcp/page.ts';
import { type MockApi, startMockApi } from './mock-api/server.ts';
import { connect, openApp } from './support/app.ts';
import { searchOnce } from './support/tool-search.ts';

let api: MockApi;
let host: McpHttpHost;

test.beforeAll(async () => {
  api = await startMockApi();
  const many = createManyToolsServer();
  host = await startMcpHttpHost({ createServer: () => many.createServer() });
});

test.afterAll(async () => {
  await Promise.all([api?.close(), host?.close()]);
});

test.beforeEach(() => api.reset());

/** Tool vectors the page keeps in IndexedDB (the sentence stage's database). */
function storedVectors(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const info = (await indexedDB.databases()).find((d) => d.name?.endsWith('-tool-vectors'));
    if (!info?.name) return 0;
    const name = info.name;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('vectors')) {
          db.close();
          resolve(0);
          return;
        }
        const count = db.transaction('vectors').objectStore('vectors').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
  });
}

const search = (page: Page, id: string, query: string) => searchOnce(page, api, id, query);

test('the encoder reads the deferred tools once, keeps their vectors, and then takes part in every search', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const modelFiles: string[] = [];
  page.on('requestfinished', (r) => {
    if (/group1-shard\dof7|tfjs-backend-wasm/.test(r.url())) modelFiles.push(new URL(r.url()).origin);
  });
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'many', url: host.url }]);
  await connect(page, api);
  // The first search may come before the encoder is ready: it is answered all the same.
  const query = 'remind me to call Anna tomorrow';
  const first = await search(page, 'toolu_s1', query);
  expect(first).toMatch(/Semantic stage: .*sentence encoder (used|not used: the sentence encoder is still)/);
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__many__slack_get_reminder');

  // Every deferred tool gets a vector (the 239 deferred MCP tools and the deferred built-ins).
  await expect.poll(() => storedVectors(page), { timeout: 150_000, intervals: [1000] }).toBeGreaterThan(239);
  const second = await search(page, 'toolu_s2', query);
  expect(second).toContain('sentence encoder used');
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__many__slack_get_reminder');
  // The weights and WASM came from the page's own origin, nowhere else.
  expect(modelFiles.length).toBeGreaterThanOrEqual(8);
  expect(new Set(modelFiles)).toEqual(new Set([new URL(page.url()).origin]));
});

test('turned off in Settings: nothing of the encoder is downloaded, and the card says it is off', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const modelFiles: string[] = [];
  page.on('request', (r) => {
    if (/group1-shard\dof7|tfjs-backend-wasm|model\.json|vocab/.test(r.url())) modelFiles.push(r.url());
  });
  await openApp(page);
  await page.getByTestId('settings-button').click();
  await page.getByTestId('api-key-input').fill('test');
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('tool-search-encoder').uncheck();
  await expect(page.getByTestId('settings-dialog')).toContainText('nothing is downloaded');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
  // The setting outlives a reload (the servers' save reloads the page; the key, not remembered, does not).
  await saveServersAndReload(page, [{ name: 'many', url: host.url }]);
  await connect(page, api);
  for (const id of ['toolu_o1', 'toolu_o2']) {
    const card = await search(page, id, 'remind me to call Anna tomorrow');
    expect(card).toContain('sentence encoder off (Settings)');
    await expect(page.getByTestId('assistant-text').last()).toContainText(
      'Got: mcp__many__slack_get_reminder',
    );
  }
  // Long enough for a started encoder to have asked for its files (it asks at once when warmed).
  await page.waitForTimeout(2000);
  expect(modelFiles).toEqual([]);
  // Turned back on, the encoder loads and takes part.
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('tool-search-encoder')).not.toBeChecked();
  await page.getByTestId('tool-search-encoder').check();
  await page.getByTestId('settings-save').click();
  await expect
    .poll(async () => search(page, `toolu_on${Date.now()}`, 'remind me to call Anna tomorrow'), {
      timeout: 90_000,
      intervals: [2000],
    })
    .toContain('sentence encoder used');
  expect(modelFiles.length).toBeGreaterThan(0);
});

test('a model file that does not load: the word ranking answers, and the card says why', async ({ page }) => {
  test.setTimeout(120_000);
  await page.route(/group1-shard3of7/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'many', url: host.url }]);
  await connect(page, api);
  await search(page, 'toolu_f1', 'remind me to call Anna tomorrow');
  // Once the failed file is known, every search says so, and still answers.
  await expect
    .poll(
      async () => {
        try {
          return await search(page, `toolu_f${Date.now()}`, 'remind me to call Anna tomorrow');
        } catch (err) {
          return String(err);
        }
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toMatch(
      /sentence encoder not used: the sentence encoder did not load \(HTTP 404 for .*group1-shard3of7/,
    );
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__many__slack_get_reminder');
});

test('a model file that fails once: a fresh worker loads the encoder, and it takes part', async ({
  page,
}) => {
  test.setTimeout(180_000);
  let failed = 0;
  await page.route(/group1-shard3of7/, (route) => {
    if (failed++ === 0) return route.fulfill({ status: 503, body: 'busy' });
    return route.continue();
  });
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'many', url: host.url }]);
  await connect(page, api);
  await expect
    .poll(
      async () => {
        try {
          return await search(page, `toolu_r${Date.now()}`, 'remind me to call Anna tomorrow');
        } catch (err) {
          return String(err);
        }
      },
      { timeout: 150_000, intervals: [2000] },
    )
    .toContain('sentence encoder used');
  expect(failed).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__many__slack_get_reminder');
});
