/**
 * The workbench at phone width (390 px): one column at a time (chat, files, terminal, sessions, the
 * other panels) with a switcher, nothing scrolls sideways, every touch target is at least 44 px, and a
 * session works there. The prompt box measures its height again when the width changes. Real Chromium,
 * the built site, the real SDK against the mock Messages API.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import { connect, SCREENSHOT_DIR, sendPrompt, waitIdle, withMockApi } from './support/app.ts';
import { clipped } from './support/layout.ts';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Visible interactive elements smaller than 44 × 44 px (inline links inside text are exempt). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(
      'button, select, input:not([type="hidden"]):not([type="file"]), [role="tab"], a[href]',
    )) {
      if (el.closest('.md, .link-btn') || el.classList.contains('link-btn')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.width < 44 || r.height < 44)
        out.push(
          `${el.tagName.toLowerCase()}[${el.dataset.testid ?? el.textContent?.trim().slice(0, 20)}] ${Math.round(r.width)}×${Math.round(r.height)}`,
        );
    }
    return out;
  });
}

/**
 * Nothing is wider than the phone's screen. On a mobile viewport Chromium zooms out to fit content wider
 * than the screen, which widens `innerWidth` with it, so the document is measured against the viewport
 * the test set, not against `innerWidth`; and the header row, which clips what does not fit, has each of
 * its visible elements held inside the screen and its own content no wider than itself.
 */
async function noSideScroll(page: Page): Promise<void> {
  const screen = page.viewportSize()?.width ?? 0;
  expect(screen).toBe(390);
  const m = await page.evaluate((screenWidth) => {
    const header = document.querySelector<HTMLElement>('.app-header');
    const outside: string[] = [];
    for (const el of header ? [header, ...header.querySelectorAll<Element>('*')] : []) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.right > screenWidth + 0.5) {
        const name = (el as HTMLElement).dataset?.testid ?? el.getAttribute('class') ?? el.tagName;
        outside.push(`${name} ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
    }
    return {
      view: window.innerWidth,
      doc: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
      header: header ? header.scrollWidth - header.clientWidth : null,
      outside,
    };
  }, screen);
  expect(m.outside, 'header elements outside the screen').toEqual([]);
  expect(m.header, 'the header row holds its content without clipping').toBe(0);
  expect(m.view, 'the page is not zoomed out to fit something wider than the screen').toBe(screen);
  expect(m.doc).toBeLessThanOrEqual(screen);
  expect(m.body).toBeLessThanOrEqual(screen);
}

test('390 px: one column at a time with a switcher, no sideways scroll, 44 px targets, a session works', async ({
  page,
}) => {
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  const switcher = page.getByTestId('phone-switcher');
  await expect(switcher).toBeVisible();

  // The chat takes the whole width.
  const chat = page.locator('main.chat');
  const box = await chat.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(380);
  await expect(page.getByTestId('side-panel')).toHaveCount(0);
  await expect(page.getByTestId('sessions-panel')).toHaveCount(0);
  await noSideScroll(page);
  expect(await smallTargets(page)).toEqual([]);
  expect(await clipped(page, '.app-header, .prompt-box')).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-chat.png` });

  // Files: the tree alone.
  await page.getByTestId('phone-files').click();
  await expect(page.getByTestId('file-list')).toBeVisible();
  await expect(chat).toBeHidden();
  expect((await page.getByTestId('side-panel').boundingBox())?.width).toBeGreaterThanOrEqual(380);
  // The switcher picked Files: the side panel's own tab strip is not shown a second time under it.
  await expect(page.locator('.side-tabs')).toHaveCount(0);
  await noSideScroll(page);
  expect(await smallTargets(page)).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-files.png` });

  // The terminal, the sessions list, the other panels.
  await page.getByTestId('phone-terminal').click();
  await expect(page.getByTestId('terminal')).toBeVisible();
  await expect(page.getByTestId('file-list')).toBeHidden();
  await noSideScroll(page);
  await page.getByTestId('phone-sessions').click();
  await expect(page.getByTestId('sessions-panel')).toBeVisible();
  await expect(page.getByTestId('side-panel')).toHaveCount(0);
  await noSideScroll(page);
  expect(await smallTargets(page)).toEqual([]);
  await page.getByTestId('phone-more').click();
  await expect(page.getByTestId('tab-todos')).toHaveAttribute('aria-selected', 'true');
  // More: the other panels, not the two the switcher has.
  await expect(page.getByTestId('tab-files')).toHaveCount(0);
  await expect(page.getByTestId('tab-terminal')).toHaveCount(0);
  await page.getByTestId('tab-usage').click();
  await expect(page.getByTestId('tab-usage')).toHaveAttribute('aria-selected', 'true');
  await noSideScroll(page);
  expect(await smallTargets(page)).toEqual([]);

  // Back to the chat: a turn runs, the reply shows, still one column.
  await page.getByTestId('phone-chat').click();
  // Settings' checkbox keeps its 44 px target and draws a box of the usual size inside it (stretched,
  // it was a grey square as big as the target).
  await page.getByTestId('settings-button').click();
  const remember = page.getByTestId('remember-key');
  await expect(remember).toBeVisible();
  const drawn = await remember.evaluate((el) => Number.parseFloat(getComputedStyle(el, '::before').width));
  expect(drawn).toBeGreaterThan(12);
  expect(drawn).toBeLessThan(24);
  expect(await smallTargets(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings-dialog')).toBeHidden();
  await connect(page, api);
  api.script([
    { content: [{ type: 'text', text: `A reply on a phone. ${'Long words wrap. '.repeat(20)}` }] },
  ]);
  await sendPrompt(page, 'Hello from a phone');
  await expect(page.getByTestId('assistant-text')).toContainText('A reply on a phone.');
  await waitIdle(page);
  await noSideScroll(page);
  expect(await smallTargets(page)).toEqual([]);
  expect(await clipped(page, '.app-header, .prompt-box')).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-session.png` });

  // A permission prompt and the prompt box while the agent works: nothing cut or off the screen.
  await page.getByTestId('mode-switch').selectOption('default');
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_phone_write',
          name: 'Write',
          input: { file_path: '/home/user/project/notes-from-a-phone.txt', content: 'hi\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Written.' }] },
  ]);
  await sendPrompt(page, 'Write a note');
  await expect(page.getByTestId('permission-request')).toBeVisible();
  await expect(page.getByTestId('stop-button')).toBeVisible();
  expect(await clipped(page, '.app-header, .prompt-box, [data-testid="permission-request"]')).toEqual([]);
  expect(await smallTargets(page)).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-permission.png` });
  await page.getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Written.');
  await waitIdle(page);
});

test('the prompt box measures its height again when the width changes', async ({ page }) => {
  await page.goto('/?sandbox=just-bash');
  const input = page.getByTestId('prompt-input');
  await expect(input).toHaveAttribute('data-ready', 'true');
  await input.fill('A long prompt that wraps on a phone. '.repeat(6));
  const narrow = (await input.boundingBox())?.height ?? 0;
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('phone-switcher')).toHaveCount(0);
  await expect.poll(async () => (await input.boundingBox())?.height ?? 0).toBeLessThan(narrow - 20);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await input.boundingBox())?.height ?? 0).toBeGreaterThan(narrow - 5);
});
