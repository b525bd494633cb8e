/**
 * Issue 17, the XSS corpus (e2e/fixtures/xss-payloads.ts) through every rendering surface in real
 * Chromium: assistant markdown (mock Messages API), the user's prompt, a tool card's input and result (a
 * Write with the corpus as content, a Bash that prints it), file names in the file tree, a permission
 * prompt, an MCP server's tool description, instructions, prompt descriptions and tool result (a
 * loopback MCP server), the terminal, and a session
 * name. Every payload would set `window.__xss` if it ran (alert, confirm and prompt are overridden to set
 * it too); after each surface the flag must be unset and the app's DOM must hold no element with an on*
 * attribute, no javascript:/data:text URL, and no script, iframe, object or embed the app did not put
 * there. Payloads are batched per surface so the spec stays short.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { announcedDeferredTools } from '../src/core/deferred-tools.ts';
import { XSS_PAYLOADS, XSS_VECTORS } from './fixtures/xss-payloads.ts';
import { type McpHttpHost, startMcpHttpHost } from './mcp/http-host.ts';
import { allowIfAsked, saveServersAndReload } from './mcp/page.ts';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  openSideTab,
  sendPrompt,
  toolCard,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';
const CORPUS = XSS_PAYLOADS.join('\n');
/** Payloads that can be file names: no slash, no NUL, short enough for a path component. */
const FILE_NAMES = XSS_VECTORS.filter((v) => !/[/\0\n]/.test(v) && v.length < 120).slice(0, 40);

let api: MockApi;
withMockApi((started) => {
  api = started;
});

/** A word for the shell, single-quoted. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Before any page script: the flag, and the dialogs a payload would call, set it. */
async function arm(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    w.__xss = 0;
    const hit = () => {
      w.__xss = 1;
      return null;
    };
    w.alert = hit;
    w.confirm = hit;
    w.prompt = hit;
  });
}

/** What in the app's DOM shows a payload got through (empty when clean). */
async function findings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    if ((window as unknown as { __xss?: unknown }).__xss) out.push('window.__xss was set');
    const root = document.getElementById('root') ?? document.body;
    for (const el of [root, ...root.querySelectorAll('*')]) {
      for (const attr of el.getAttributeNames()) {
        if (/^on/i.test(attr)) out.push(`<${el.localName} ${attr}>`);
        if (/^(href|src|action|formaction|xlink:href|srcdoc|data)$/i.test(attr)) {
          const value = (el.getAttribute(attr) ?? '')
            .split('')
            .filter((c) => c.charCodeAt(0) > 32)
            .join('')
            .toLowerCase();
          if (/^(javascript|vbscript|data:text\/html)/.test(value) || attr === 'srcdoc')
            out.push(`<${el.localName} ${attr}=${value.slice(0, 60)}>`);
        }
      }
      if (/^(script|iframe|object|embed|base|meta|link)$/.test(el.localName)) out.push(`<${el.localName}>`);
    }
    return out;
  });
}

/**
 * Opens every folded output in `scope` (a folded view renders its first 40 lines only), so the whole
 * corpus is in the DOM for the checks.
 */
async function unfold(scope: Locator): Promise<void> {
  const toggles = scope.getByTestId('fold-toggle').filter({ hasText: /^Show all/ });
  while ((await toggles.count()) > 0) await toggles.first().click();
}

async function expectClean(page: Page, surface: string): Promise<void> {
  expect(await findings(page), surface).toEqual([]);
}

test('transcript, tool cards, file tree, terminal and session name render the corpus as text', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await arm(page);
  const touch = `touch -- ${FILE_NAMES.map(shellQuote).join(' ')}`;
  api.script([
    {
      content: [
        { type: 'text', text: XSS_PAYLOADS.join('\n\n') },
        {
          type: 'tool_use',
          id: 'toolu_write',
          name: 'Write',
          input: { file_path: `${ROOT}/xss.txt`, content: CORPUS },
        },
        {
          type: 'tool_use',
          id: 'toolu_cat',
          name: 'Bash',
          input: { command: 'cat xss.txt', description: XSS_VECTORS[0] },
        },
        { type: 'tool_use', id: 'toolu_touch', name: 'Bash', input: { command: touch } },
      ],
    },
    { content: [{ type: 'text', text: XSS_VECTORS.map((v) => `- ${v}\n\n  ${v}`).join('\n') }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, XSS_VECTORS.slice(0, 40).join('\n'));
  await waitIdle(page);
  for (const id of ['toolu_write', 'toolu_cat', 'toolu_touch'])
    await expect(toolCard(page, id)).toHaveAttribute('data-status', 'done');
  // The payloads arrived as text: the Bash card shows the corpus it printed (all of it, unfolded).
  for (const id of ['toolu_write', 'toolu_cat', 'toolu_touch']) await unfold(toolCard(page, id));
  await expect(toolCard(page, 'toolu_cat')).toContainText('<img src=x onerror=window.__xss=1>');
  await expectClean(page, 'assistant markdown, prompt, Write and Bash cards');

  // File names: the tree lists the files the Bash made.
  await expect(page.getByTestId('file-item').filter({ hasText: '<svg onload=window.__xss=1>' })).toHaveCount(
    1,
  );
  await expectClean(page, 'file tree');

  // Session name: renamed to payloads, one after another.
  for (const name of XSS_VECTORS.slice(0, 8)) {
    await page.getByTestId('session-rename').first().click();
    await page.getByTestId('session-rename-input').fill(name);
    await page.getByTestId('session-rename-input').press('Enter');
    await expect(page.getByTestId('session-title').first()).toHaveText(name.trim().replace(/\s+/g, ' '));
  }
  await expectClean(page, 'session name');

  // Terminal: the corpus printed raw.
  await page.getByTestId('tab-terminal').click();
  await page.getByTestId('terminal').locator('.xterm').click();
  await page.keyboard.type('cat xss.txt; echo done-printing');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('terminal')).toContainText('done-printing', { timeout: 20_000 });
  await expectClean(page, 'terminal');
});

test('a permission prompt shows a command and a file made of payloads as text', async ({ page }) => {
  await arm(page);
  const command = `printf '%s\\n' ${XSS_VECTORS.map(shellQuote).join(' ')} > printed.txt`;
  api.script([
    {
      content: [
        { type: 'text', text: 'Printing.' },
        { type: 'tool_use', id: 'toolu_ask', name: 'Bash', input: { command, description: XSS_VECTORS[1] } },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_ask_write',
          name: 'Write',
          input: { file_path: `${ROOT}/${FILE_NAMES[3]}`, content: CORPUS },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Nothing ran.' }] },
  ]);
  await openApp(page);
  await connect(page, api);
  await sendPrompt(page, 'Print the corpus.');
  for (const id of ['toolu_ask', 'toolu_ask_write']) {
    const request = toolCard(page, id).getByTestId('permission-request');
    await expect(request).toBeVisible({ timeout: 20_000 });
    await expectClean(page, `permission prompt ${id}`);
    await request.getByTestId('permission-deny').click();
  }
  await waitIdle(page);
  await expectClean(page, 'after the prompts');
});

let host: McpHttpHost;
test.beforeAll(async () => {
  host = await startMcpHttpHost({
    createServer: () => {
      // The server's instructions and prompt descriptions are shown in the MCP panel; the tool's
      // description goes to the model and the ToolSearch card.
      const server = new Server(
        { name: 'xss', version: '1.0.0' },
        { capabilities: { tools: {}, prompts: {} }, instructions: XSS_VECTORS.join('\n') },
      );
      server.setRequestHandler(ListPromptsRequestSchema, async () => ({
        prompts: XSS_VECTORS.slice(0, 30).map((description, i) => ({ name: `p${i}`, description })),
      }));
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [
          {
            name: 'echo',
            description: XSS_VECTORS.slice(0, 60).join('\n'),
            inputSchema: {
              type: 'object',
              properties: { x: { type: 'string', description: XSS_VECTORS[2] } },
            },
          },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, async () => ({
        content: XSS_PAYLOADS.slice(0, 200).map((text) => ({ type: 'text' as const, text })),
      }));
      return server;
    },
  });
});
test.afterAll(async () => {
  await host?.close();
});

test("an MCP tool's description and result render as text", async ({ page }) => {
  await arm(page);
  await openApp(page);
  await saveServersAndReload(page, [{ name: 'xss', url: host.url }]);
  api.script([
    (req) => ({
      content: announcedDeferredTools(req.body.messages as never).has('mcp__xss__echo')
        ? [
            {
              type: 'tool_use',
              id: 'toolu_search',
              name: 'ToolSearch',
              input: { query: 'select:mcp__xss__echo' },
            },
          ]
        : [{ type: 'text', text: 'The MCP tool was not announced.' }],
    }),
    {
      content: [{ type: 'tool_use', id: 'toolu_mcp', name: 'mcp__xss__echo', input: { x: XSS_VECTORS[3] } }],
    },
    { content: [{ type: 'text', text: 'Echoed.' }] },
  ]);
  await connect(page, api);
  await expect.poll(() => host.sessionCount()).toBeGreaterThan(0);
  await sendPrompt(page, 'Use the MCP tool.');
  await allowIfAsked(page, 'toolu_mcp');
  await expect(toolCard(page, 'toolu_mcp')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await unfold(toolCard(page, 'toolu_mcp'));
  await expect(toolCard(page, 'toolu_mcp')).toContainText('onerror=window.__xss=1');
  await waitIdle(page);
  await expectClean(page, 'MCP result');
  // The MCP panel lists the server's tool with its description.
  await openSideTab(page, 'mcp');
  await expect(page.locator('[data-testid="mcp-server"][data-name="xss"]')).toBeVisible();
  for (const details of ['mcp-instructions', 'mcp-prompts']) {
    await page.getByTestId(details).locator('summary').click();
    await expect(page.getByTestId(details)).toContainText('<svg onload=window.__xss=1>');
  }
  await expectClean(page, 'MCP panel');
});

test('the checks see a payload that got into the DOM, and a dialog a payload called', async ({ page }) => {
  await arm(page);
  await openApp(page);
  expect(await findings(page)).toEqual([]);
  // Inserted as HTML, the way a renderer that trusted its input would (the page's CSP may still stop
  // the handler from running: the DOM check does not rely on that).
  await page.evaluate((html) => {
    const div = document.createElement('div');
    div.innerHTML = html;
    document.getElementById('root')?.append(div);
  }, '<img src=x onerror=window.__xss=1><a href=" javascript:void 0">x</a>');
  expect(await findings(page)).toEqual(
    expect.arrayContaining(['<img onerror>', '<a href=javascript:void0>']),
  );
  // A payload calling alert() trips the flag.
  await page.evaluate(() => window.alert('x'));
  expect(await findings(page)).toContain('window.__xss was set');
});
