/**
 * ToolSearch's Chinese-English glossary in the real page: an MCP server whose tools are described in
 * Chinese (names that say nothing in English) is connected; an English query finds the right one, since
 * the page's glossary worker fetched the table from our own origin and the index reads it. A table that
 * does not load leaves the word ranking answering, and the card says why.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, type Page, test } from '@playwright/test';
import { type McpHttpHost, startMcpHttpHost } from './mcp/http-host.ts';
import { saveServersAndReload } from './mcp/page.ts';
import { type MockApi, startMockApi } from './mock-api/server.ts';
import { connect, openApp } from './support/app.ts';
import { searchOnce } from './support/tool-search.ts';

const TOOLS = [
  { name: 'tupian', description: '通过卡牌ID获取游戏王卡牌的图片' },
  { name: 'caipu', description: '根据分类查询菜谱，可选分类有: 早餐, 甜品, 饮品' },
  { name: 'yupiao', description: '查询火车票余票信息' },
  { name: 'forecast', description: 'Weather forecast for a city' },
];

function createChineseServer(): Server {
  const server = new Server({ name: 'cn', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({ ...t, inputSchema: { type: 'object' as const, properties: {} } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => ({
    content: [{ type: 'text', text: `${req.params.name}: ok` }],
  }));
  return server;
}

let api: MockApi;
let host: McpHttpHost;

test.beforeAll(async () => {
  api = await startMockApi();
  host = await startMcpHttpHost({ createServer: createChineseServer });
});

test.afterAll(async () => {
  await Promise.all([api?.close(), host?.close()]);
});

test.beforeEach(() => api.reset());

const search = (page: Page, id: string, query: string) => searchOnce(page, api, id, query);

/** Searches until the card no longer says the glossary is still loading (the first may come first). */
async function searchLoaded(page: Page, query: string): Promise<string> {
  let card = '';
  await expect
    .poll(
      async () => {
        card = await search(page, `toolu_g${Date.now()}`, query);
        return card;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .not.toContain('Chinese glossary not used: still loading');
  return card;
}

test('an English query finds a tool described only in Chinese; the table comes from our own origin', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tables: string[] = [];
  page.on('requestfinished', (r) => {
    if (/zh-en\.txt[^/]*\.gz/.test(r.url())) tables.push(new URL(r.url()).origin);
  });
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'cn', url: host.url }]);
  await connect(page, api);
  const card = await searchLoaded(page, 'get the picture of a card');
  expect(card).toContain('Chinese glossary used');
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__cn__tupian');
  await search(page, 'toolu_g2', 'remaining train tickets');
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__cn__yupiao');
  // Loaded once, from the page's own origin.
  expect(tables).toEqual([new URL(page.url()).origin]);
});

test('a glossary that does not load: the word ranking answers, and the card says why', async ({ page }) => {
  test.setTimeout(120_000);
  await page.route(/zh-en\.txt[^/]*\.gz/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'cn', url: host.url }]);
  await connect(page, api);
  const card = await searchLoaded(page, 'weather forecast');
  expect(card).toMatch(
    /Chinese glossary not used: the glossary did not load \(HTTP 404 for .*zh-en\.txt.*\.gz\)/,
  );
  await expect(page.getByTestId('assistant-text').last()).toContainText('Got: mcp__cn__forecast');
});
