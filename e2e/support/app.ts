/**
 * Helpers for driving the tabcode page in Playwright: connect it to the mock API, send prompts, find
 * tool cards, save screenshots.
 */
import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type MessagesBody, type MockApi, type RecordedRequest, startMockApi } from '../mock-api/server.ts';

/** Where screenshots go (inside Playwright's output dir, kept after the run). */
export const SCREENSHOT_DIR = 'test-results/screenshots';

/**
 * Gives the spec file one mock Messages API: started before its tests (with the screenshot folder),
 * reset before each test, closed after all. `onStart` receives it.
 */
export function withMockApi(onStart: (api: MockApi) => void): void {
  let api: MockApi | undefined;
  test.beforeAll(async () => {
    api = await startMockApi();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    onStart(api);
  });
  test.afterAll(async () => {
    await api?.close();
  });
  test.beforeEach(() => {
    api?.reset();
  });
}

/** Opens the page and waits until the sandbox is up (badge shows its kind, files are listed). */
export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', /.+/);
  await expect(page.getByTestId('file-item').first()).toBeVisible();
}

/**
 * Opens a side-panel tab (`files`, `terminal`, `preview`, `todos`, `usage`, `mcp`, `rules`): from the
 * tab strip, or from its More menu when the strip has no room for the tab (SidePanel.tsx).
 */
export async function openSideTab(page: Page, id: string): Promise<void> {
  const tab = page.getByTestId(`tab-${id}`);
  if (await tab.isVisible()) await tab.click();
  else {
    await page.getByTestId('side-more').click();
    await page.getByTestId(`side-more-${id}`).click();
  }
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** Points the page at the mock API through the settings dialog. */
export async function connect(page: Page, api: MockApi, apiKey = 'test'): Promise<void> {
  await page.getByTestId('settings-button').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('api-key-input').fill(apiKey);
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('settings-save').click();
  await expect(dialog).toBeHidden();
}

/** Types a prompt and sends it with Enter. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('prompt-input');
  // Enter sends only once the session is ready (a settings change re-opens it): the text stays otherwise.
  await expect(input).toHaveAttribute('data-ready', 'true');
  await input.fill(text);
  await input.press('Enter');
  await expect(input).toHaveValue('');
}

export function toolCard(page: Page, toolUseId: string): Locator {
  return page.locator(`[data-testid="tool-card"][data-tool-use-id="${toolUseId}"]`);
}

/** Waits for the run to end: Send is usable again once the prompt box has text. */
export async function waitIdle(page: Page): Promise<void> {
  await expect(page.getByTestId('stop-button')).toHaveCount(0, { timeout: 20_000 });
}

type Block = Exclude<MessagesBody['messages'][number]['content'], string>[number];

/** Every content block of every message in a recorded request. */
export function blocksOf(req: RecordedRequest): Block[] {
  return req.body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
}

/** The tool_result block answering `toolUseId` in a request, if any. */
export function toolResultFor(req: RecordedRequest, toolUseId: string) {
  return blocksOf(req).find((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId) as
    | Extract<Block, { type: 'tool_result' }>
    | undefined;
}

/** The text of a tool_result's content. */
export function resultText(block: { content?: unknown }): string {
  const c = block.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('\n');
  return '';
}

/** Opens Settings, fills the key and base URL, ticks "remember" when asked, saves. */
export async function connectRemembering(page: Page, api: MockApi, apiKey = 'test'): Promise<void> {
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
  await page.getByTestId('api-key-input').fill(apiKey);
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('remember-key').check();
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
}

/** Waits until the open session is written to IndexedDB (the header says "Saved"). */
export async function waitSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

/** The session entries of the sessions list, as titles. */
export async function sessionTitles(page: Page): Promise<string[]> {
  return page.getByTestId('session-title').allTextContents();
}

/**
 * Switches the permission mode (the prompt box's mode switch, saved as a setting) to "Allow everything",
 * for tests about something other than permission prompts.
 */
export async function allowEverything(page: Page): Promise<void> {
  await page.getByTestId('mode-switch').selectOption('bypassPermissions');
  await expect(page.getByTestId('mode-switch')).toHaveValue('bypassPermissions');
}

/** The terminal's visible rows as text (xterm's DOM renderer; non-breaking spaces as spaces). */
export function terminalText(page: Page): Promise<string> {
  return page
    .getByTestId('terminal')
    .evaluate((el) =>
      [...el.querySelectorAll('.xterm-rows > div')]
        .map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd())
        .join('\n'),
    );
}
