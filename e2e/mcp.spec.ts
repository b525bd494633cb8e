/**
 * MCP in the real page: the browser's MCP client (the SDK's Streamable HTTP transport over fetch)
 * reaches servers on loopback cross-origin from a cross-origin isolated page, thanks to their CORS and
 * CORP headers. Servers come from the user's saved settings (IndexedDB, read when a session starts);
 * the mock model calls their tools and the page shows the calls.
 *
 * MCP tools are deferred: the model loads them with ToolSearch (native tool_reference mode) before
 * calling them; an alwaysLoad tool is sent from the start.
 */
import { expect, test } from '@playwright/test';
import { announcedDeferredTools } from '../src/core/deferred-tools.ts';
import { type EverythingServer, startEverythingServer } from './mcp/everything.ts';
import { type McpHttpHost, startMcpHttpHost } from './mcp/http-host.ts';
import { ALWAYS_LOAD_TOOL, createManyToolsServer, type ManyToolsServer } from './mcp/many-tools-server.ts';
import { allowIfAsked, saveServersAndReload } from './mcp/page.ts';
import { createQuirkyServer } from './mcp/quirky-server.ts';
import { type MockApi, startMockApi } from './mock-api/server.ts';
import {
  connect,
  openApp,
  resultText,
  sendPrompt,
  toolCard,
  toolResultFor,
  waitIdle,
} from './support/app.ts';

let api: MockApi;
let many: ManyToolsServer;
let manyHost: McpHttpHost;
let quirkyHost: McpHttpHost;
let everything: EverythingServer;

test.beforeAll(async () => {
  api = await startMockApi();
  many = createManyToolsServer();
  manyHost = await startMcpHttpHost({ createServer: () => many.createServer() });
  const quirky = createQuirkyServer();
  quirkyHost = await startMcpHttpHost({ createServer: () => quirky.createServer() });
  everything = await startEverythingServer();
});

test.afterAll(async () => {
  await Promise.all([api?.close(), manyHost?.close(), quirkyHost?.close(), everything?.close()]);
});

test.beforeEach(() => {
  api.reset();
});

const toolNames = (i: number) => (api.requests[i]?.body.tools ?? []).map((t) => ('name' in t ? t.name : ''));

test('the page connects to a 240-tool MCP server; the model finds a tool with ToolSearch and calls it', async ({
  page,
}) => {
  await openApp(page);
  const listed = many.listings();
  await saveServersAndReload(page, [{ name: 'many', url: manyHost.url }]);
  // The page's client read the whole (paged) catalogue from the server.
  await expect.poll(() => many.listings()).toBeGreaterThan(listed);
  expect(manyHost.requests.some((r) => r.method === 'OPTIONS')).toBe(true); // a real CORS preflight

  const wanted = 'mcp__many__github_search_issue';
  const forecast = `mcp__many__${ALWAYS_LOAD_TOOL}`;
  api.script([
    {
      content: [
        { type: 'text', text: 'Looking for a GitHub tool.' },
        {
          type: 'tool_use',
          id: 'toolu_search',
          name: 'ToolSearch',
          input: { query: 'search github issues' },
        },
      ],
    },
    (req) => {
      const found = toolResultFor(req, 'toolu_search');
      const refs = (Array.isArray(found?.content) ? found.content : []).map((b) =>
        String((b as { tool_name?: unknown }).tool_name),
      );
      if (!refs.includes(wanted))
        return { content: [{ type: 'text', text: `ToolSearch gave ${refs.join(', ')}` }] };
      return {
        content: [
          { type: 'tool_use', id: 'toolu_issues', name: wanted, input: { query: 'flaky test', limit: 3 } },
          { type: 'tool_use', id: 'toolu_forecast', name: forecast, input: { city: 'Lisbon', days: 2 } },
        ],
      };
    },
    { content: [{ type: 'text', text: 'Found the issues; Lisbon is clear.' }] },
  ]);
  await connect(page, api);
  await sendPrompt(page, 'Find flaky-test issues on GitHub, and the weather in Lisbon.');

  await expect(toolCard(page, 'toolu_search')).toHaveAttribute('data-status', 'done');
  await allowIfAsked(page, 'toolu_issues');
  await allowIfAsked(page, 'toolu_forecast');
  await expect(toolCard(page, 'toolu_issues')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_issues')).toContainText('github_search_issue ok');
  await expect(toolCard(page, 'toolu_forecast')).toContainText('Forecast for Lisbon');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Found the issues; Lisbon is clear.');
  await waitIdle(page);

  expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  // 240 tools connected, but only ToolSearch and the alwaysLoad tool are sent before the search.
  const first = toolNames(0);
  expect(first).toContain('ToolSearch');
  expect(first.filter((n) => n.startsWith('mcp__'))).toEqual([forecast]);
  expect(
    announcedDeferredTools(api.requests[0].body.messages as never).has('mcp__many__crm_delete_deal'),
  ).toBe(true);
  expect(toolNames(1)).toContain(wanted);
  expect(many.calls.slice(-2)).toEqual(
    expect.arrayContaining([
      { name: 'github_search_issue', arguments: { query: 'flaky test', limit: 3 } },
      { name: ALWAYS_LOAD_TOOL, arguments: { city: 'Lisbon', days: 2 } },
    ]),
  );
  const next = api.requests[2];
  expect(resultText(toolResultFor(next, 'toolu_issues') ?? {})).toBe(
    'github_search_issue ok {"query":"flaky test","limit":3}',
  );
  expect(resultText(toolResultFor(next, 'toolu_forecast') ?? {})).toBe(
    'Forecast for Lisbon:\nday 1: 24°C, clear\nday 2: 18°C, clear',
  );
});

test('server-everything, a broken server and a dead one: tools work, text and images come back, the session goes on', async ({
  page,
}) => {
  await openApp(page);
  await saveServersAndReload(page, [
    { name: 'everything', url: everything.url },
    { name: 'quirky', url: quirkyHost.url },
    { name: 'dead', url: 'http://127.0.0.1:9/mcp' },
  ]);
  const load = 'select:mcp__everything__echo,mcp__everything__get-tiny-image,mcp__quirky__flaky';
  api.script([
    (req) => {
      // The deferred tools are announced by name in the messages once their servers are connected.
      const announced = announcedDeferredTools(req.body.messages as never);
      const ready = announced.has('mcp__everything__echo') && announced.has('mcp__quirky__flaky');
      return {
        content: ready
          ? [{ type: 'tool_use', id: 'toolu_search', name: 'ToolSearch', input: { query: load } }]
          : [{ type: 'text', text: 'The MCP tools were not announced.' }],
      };
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_echo',
          name: 'mcp__everything__echo',
          input: { message: 'from the tab' },
        },
        { type: 'tool_use', id: 'toolu_image', name: 'mcp__everything__get-tiny-image', input: {} },
        { type: 'tool_use', id: 'toolu_flaky', name: 'mcp__quirky__flaky', input: {} },
      ],
    },
    { content: [{ type: 'text', text: 'Echoed, fetched an image, and one tool failed.' }] },
  ]);
  await connect(page, api);
  // Servers connect in the background while the session starts; wait for both to be listed.
  await expect
    .poll(async () => everything.output().includes('Session initialized') && quirkyHost.sessionCount() > 0)
    .toBe(true);
  await sendPrompt(page, 'Use the MCP tools.');
  for (const id of ['toolu_echo', 'toolu_image', 'toolu_flaky']) await allowIfAsked(page, id);

  await expect(toolCard(page, 'toolu_echo')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_echo')).toContainText('Echo: from the tab');
  await expect(toolCard(page, 'toolu_image')).toHaveAttribute('data-status', 'done');
  await expect(toolCard(page, 'toolu_flaky')).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('assistant-text').last()).toHaveText(
    'Echoed, fetched an image, and one tool failed.',
  );
  await waitIdle(page);

  expect(api.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  const announced = [...announcedDeferredTools(api.requests[0].body.messages as never)];
  expect(announced.filter((n) => n.startsWith('mcp__dead__'))).toEqual([]);
  expect(announced).toContain('mcp__quirky__flaky');
  expect(announced).not.toContain('mcp__quirky__string_schema'); // malformed schema: skipped
  expect(toolNames(1)).toEqual(
    expect.arrayContaining([
      'mcp__everything__echo',
      'mcp__everything__get-tiny-image',
      'mcp__quirky__flaky',
    ]),
  );
  const next = api.requests[2];
  expect(resultText(toolResultFor(next, 'toolu_echo') ?? {})).toBe('Echo: from the tab');
  const image = toolResultFor(next, 'toolu_image');
  const blocks = Array.isArray(image?.content) ? image.content : [];
  const img = blocks.find((b) => b.type === 'image');
  expect(img?.type === 'image' && img.source.type === 'base64' && img.source.media_type).toBe('image/png');
  expect(toolResultFor(next, 'toolu_flaky')).toMatchObject({
    is_error: true,
    content: 'the upstream service is down',
  });
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});
