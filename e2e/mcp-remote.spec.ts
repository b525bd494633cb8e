/**
 * MCP for real remote servers, in Chromium against servers this spec starts on loopback:
 *
 * - an OAuth-protected server and its authorization server: the MCP panel shows "Sign in", the
 *   sign-in runs in a real popup (consent page, redirect to the page's callback), then the model calls
 *   the server's tool with the token; the token lives only in the MCP auth store, never in a session
 *   export;
 * - a server that asks the user a question (elicitation): the form shows above the prompt box with
 *   its defaults, the user completes it, the server gets the answer;
 * - server-everything restarted mid-session on its port: the next call works without the user;
 * - a stdio-only server (server-everything's stdio mode) behind a stdio-to-HTTP gateway.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { type EverythingServer, everythingEntry, startEverythingServer } from './mcp/everything.ts';
import { type McpHttpHost, startMcpHttpHost } from './mcp/http-host.ts';
import { type OAuthServer, startOAuthServer } from './mcp/oauth-server.ts';
import { allowIfAsked, dumpIndexedDb, mcpRow, saveServersAndReload } from './mcp/page.ts';
import { createRichServer, type RichServer } from './mcp/rich-server.ts';
import { type StdioGateway, startStdioGateway } from './mcp/stdio-gateway.ts';
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
let oauth: OAuthServer;
let richHost: McpHttpHost;
let rich: RichServer;
let everything: EverythingServer | undefined;
let gateway: StdioGateway;

test.beforeAll(async () => {
  api = await startMockApi();
  const secured = createRichServer();
  oauth = await startOAuthServer({
    createServer: () => secured.createServer(),
    consent: 'page',
    scopes: ['notes'],
  });
  rich = createRichServer();
  richHost = await startMcpHttpHost({ createServer: () => rich.createServer() });
  gateway = await startStdioGateway({ command: process.execPath, args: [everythingEntry(), 'stdio'] });
});

test.afterAll(async () => {
  await Promise.all([api?.close(), oauth?.close(), richHost?.close(), everything?.close(), gateway?.close()]);
});

test.beforeEach(() => api.reset());

/** The model loads `tools` with ToolSearch, then calls `call`, then says `done`. */
function scriptCall(
  tools: string[],
  call: { id: string; name: string; input: Record<string, unknown> },
  done: string,
) {
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: `${call.id}_search`,
          name: 'ToolSearch',
          input: { query: `select:${tools.join(',')}` },
        },
      ],
    },
    { content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }] },
    { content: [{ type: 'text', text: done }] },
  ]);
}

test('signs in to an OAuth-protected server in a popup, then the model calls its tool with the token', async ({
  page,
  baseURL,
}) => {
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'secure', url: oauth.mcpUrl }]);
  const row = await mcpRow(page, 'secure');
  await expect(row).toHaveAttribute('data-status', 'needs-auth');
  await expect(row.getByTestId('mcp-status')).toHaveText('Needs you to sign in');

  const [popup] = await Promise.all([page.waitForEvent('popup'), row.getByTestId('mcp-sign-in').click()]);
  await expect(popup.getByText('Allow tabcode to use the test MCP server (scope: notes)?')).toBeVisible();
  await popup.locator('#approve').click();
  // The authorization server sends the popup back to the page's callback, which hands over the code.
  await expect(row).toHaveAttribute('data-status', 'connected');
  await expect(row.getByTestId('mcp-status')).toContainText('signed in');
  await expect.poll(() => popup.isClosed()).toBe(true);

  const [client] = [...oauth.clients.values()];
  expect(client).toEqual({ redirect_uris: [`${baseURL}/mcp-oauth-callback.html`], client_name: 'tabcode' });
  const [token] = [...oauth.tokens.keys()];
  expect(token).toMatch(/^at_/);

  scriptCall(
    ['mcp__secure__whoami'],
    { id: 'toolu_who', name: 'mcp__secure__whoami', input: {} },
    'Signed in.',
  );
  await connect(page, api);
  await sendPrompt(page, 'Who am I on the secure server?');
  await allowIfAsked(page, 'toolu_who');
  await expect(toolCard(page, 'toolu_who')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Signed in.');
  await waitIdle(page);
  expect(resultText(toolResultFor(api.requests[2], 'toolu_who') ?? {})).toBe('you are signed in');

  // The token is kept per server in this origin's MCP auth store, and nowhere else.
  const stores = await dumpIndexedDb(page);
  expect(stores['tabcode-mcp-auth']).toContain(token);
  for (const [name, json] of Object.entries(stores)) {
    if (name !== 'tabcode-mcp-auth') expect(json, name).not.toContain(token);
  }
  const current = page.locator('[data-testid="session-item"][data-current="true"]');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    current.getByTestId('session-export').click(),
  ]);
  const exported = readFileSync(await download.path(), 'utf8');
  expect(exported).toContain('you are signed in');
  expect(exported).not.toContain(token);

  // Signing out forgets it: the server needs a sign-in again.
  await row.getByTestId('mcp-sign-out').click();
  await expect(row).toHaveAttribute('data-status', 'needs-auth');
  expect((await dumpIndexedDb(page))['tabcode-mcp-auth']).not.toContain(token);
});

test('with popups blocked, the sign-in goes through a full-page redirect and comes back signed in', async ({
  page,
}) => {
  const secured = createRichServer();
  const server = await startOAuthServer({ createServer: () => secured.createServer(), consent: 'page' });
  try {
    // The browser refuses popups: window.open gives null, as a popup blocker does.
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await openApp(page);
    await saveServersAndReload(page, [{ name: 'redirected', url: server.mcpUrl }]);
    const row = await mcpRow(page, 'redirected');
    await expect(row).toHaveAttribute('data-status', 'needs-auth');
    await row.getByTestId('mcp-sign-in').click();
    // The page itself is at the authorization server now.
    await expect(page.getByText('Allow tabcode to use the test MCP server')).toBeVisible();
    await page.locator('#approve').click();
    // Back in tabcode: the callback left the code under its state, and the reload finishes the sign-in.
    await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
    const back = await mcpRow(page, 'redirected');
    await expect(back).toHaveAttribute('data-status', 'connected');
    await expect(back.getByTestId('mcp-status')).toContainText('signed in');
    expect(server.asRequests.filter((r) => r.path === '/token')).toHaveLength(1);
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tabcode-mcp-oauth'))),
    ).toEqual([]);
  } finally {
    await server.close();
  }
});

test('a server asks the user through a form with defaults; the answer reaches it', async ({ page }) => {
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'rich', url: richHost.url }]);
  await expect(await mcpRow(page, 'rich')).toHaveAttribute('data-status', 'connected');
  scriptCall(
    ['mcp__rich__ask_profile'],
    { id: 'toolu_ask', name: 'mcp__rich__ask_profile', input: {} },
    'Thanks.',
  );
  await connect(page, api);
  await sendPrompt(page, 'Set up my profile');
  await allowIfAsked(page, 'toolu_ask');
  const form = page.getByTestId('mcp-elicitation');
  await expect(form).toBeVisible();
  await expect(form).toContainText('Who are you?');
  await expect(form.getByLabel('Your name')).toHaveValue('Ada');
  await expect(form.getByLabel('age')).toHaveValue('36');
  // Accepting without the required email says so in the form; nothing is sent yet.
  await form.getByTestId('mcp-elicitation-accept').click();
  await expect(form.getByTestId('mcp-elicitation-error')).toHaveText('email is required');
  await form.getByLabel('email').fill('ada@example.com');
  await form.getByLabel('plan').selectOption('pro');
  await form.getByTestId('mcp-elicitation-accept').click();
  await expect(form).toHaveCount(0);
  await expect(toolCard(page, 'toolu_ask')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Thanks.');
  await waitIdle(page);
  expect(rich.elicited.at(-1)).toEqual({
    action: 'accept',
    content: { name: 'Ada', age: 36, email: 'ada@example.com', plan: 'pro', subscribe: true },
  });
});

test('progress on the card, the server log in the panel, a too-large image downscaled, a resource link read', async ({
  page,
}) => {
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'rich', url: richHost.url }]);
  const row = await mcpRow(page, 'rich');
  await expect(row).toHaveAttribute('data-status', 'connected');
  const load =
    'select:mcp__rich__long_task,mcp__rich__log_some,mcp__rich__big_photo,mcp__rich__make_link,ReadMcpResource';
  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_load', name: 'ToolSearch', input: { query: load } }] },
    {
      content: [
        { type: 'tool_use', id: 'toolu_long', name: 'mcp__rich__long_task', input: { steps: 6, ms: 500 } },
        { type: 'tool_use', id: 'toolu_log', name: 'mcp__rich__log_some', input: {} },
        { type: 'tool_use', id: 'toolu_photo', name: 'mcp__rich__big_photo', input: {} },
        { type: 'tool_use', id: 'toolu_link', name: 'mcp__rich__make_link', input: {} },
        {
          type: 'tool_use',
          id: 'toolu_read',
          name: 'ReadMcpResource',
          input: { server: 'rich', uri: 'memo://notes/1' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'All done.' }] },
  ]);
  await connect(page, api);
  await sendPrompt(page, 'Work, log, show the photo, and read the note');
  await allowIfAsked(page, 'toolu_long');
  // Progress notifications show on the running card.
  await expect(toolCard(page, 'toolu_long')).toContainText(/Progress \d\/6/);
  await expect(toolCard(page, 'toolu_long')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  for (const id of ['toolu_log', 'toolu_photo', 'toolu_link', 'toolu_read']) await allowIfAsked(page, id);
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All done.');
  await waitIdle(page);

  // The 8 MB PNG was shrunk in the page to a JPEG the model takes.
  const last = api.requests.at(-1) ?? api.requests[0];
  const photo = toolResultFor(last, 'toolu_photo');
  const image = (Array.isArray(photo?.content) ? photo.content : []).find((b) => b.type === 'image');
  expect(image?.type === 'image' && image.source.type === 'base64' && image.source.media_type).toBe(
    'image/jpeg',
  );
  const data = image?.type === 'image' && image.source.type === 'base64' ? image.source.data : '';
  expect((data.length * 3) / 4).toBeLessThan(5 * 1024 * 1024);
  expect(data.length).toBeGreaterThan(10_000);
  expect(resultText(toolResultFor(last, 'toolu_link') ?? {})).toContain(
    'Read it with ReadMcpResource {"server": "rich", "uri": "memo://notes/1"}.',
  );
  expect(resultText(toolResultFor(last, 'toolu_read') ?? {})).toBe(
    '[Resource memo://notes/1 (text/markdown)]\n# Note 1\nBuy milk.',
  );

  // The server's log is in the panel, as text.
  const log = row.getByTestId('mcp-log');
  await expect(log).toContainText('2 log messages');
  await log.locator('summary').click();
  await expect(log).toContainText('starting <b>work</b>');
  await expect(log.locator('b, img')).toHaveCount(0);
});

test('server-everything restarted mid-session: the next call works without the user', async ({ page }) => {
  // server-everything boots twice here (a Node process each time, slow on a busy machine).
  test.slow();
  everything = await startEverythingServer();
  const port = everything.port;
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'everything', url: everything.url }]);
  const row = await mcpRow(page, 'everything');
  await expect(row).toHaveAttribute('data-status', 'connected');
  scriptCall(
    ['mcp__everything__echo'],
    { id: 'toolu_e1', name: 'mcp__everything__echo', input: { message: 'before' } },
    'One.',
  );
  await connect(page, api);
  await sendPrompt(page, 'Echo before');
  await allowIfAsked(page, 'toolu_e1');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('One.');
  await waitIdle(page);

  await everything.close();
  everything = await startEverythingServer(20_000, port);
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_e2',
          name: 'mcp__everything__echo',
          input: { message: 'after the restart' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Two.' }] },
  ]);
  await sendPrompt(page, 'Echo after');
  await allowIfAsked(page, 'toolu_e2');
  await expect(toolCard(page, 'toolu_e2')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Two.');
  await waitIdle(page);
  expect(resultText(toolResultFor(api.requests.at(-1) ?? api.requests[0], 'toolu_e2') ?? {})).toBe(
    'Echo: after the restart',
  );
  await expect(row).toHaveAttribute('data-status', 'connected');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});

test('a stdio-only server behind a stdio-to-HTTP gateway works from the page', async ({ page }) => {
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'stdio', url: gateway.url }]);
  await expect(await mcpRow(page, 'stdio')).toHaveAttribute('data-status', 'connected');
  scriptCall(
    ['mcp__stdio__echo'],
    { id: 'toolu_s', name: 'mcp__stdio__echo', input: { message: 'over stdio' } },
    'Done.',
  );
  await connect(page, api);
  await sendPrompt(page, 'Echo over stdio');
  await allowIfAsked(page, 'toolu_s');
  await expect(toolCard(page, 'toolu_s')).toContainText('Echo: over stdio');
  await waitIdle(page);
  expect(gateway.started()).toBeGreaterThanOrEqual(1);
});
