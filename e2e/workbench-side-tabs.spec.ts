/**
 * The side panel's tab strip on a desktop: one row at every page width from 900 to 1920 px and at the
 * side panel's narrowest and widest, in both themes; the tabs it has no room for are in its More menu
 * (each tab in exactly one of the two), the selected tab always in the row, nothing cut. Choosing from
 * the menu, the arrow keys and a badge that widens a tab keep it so. Real Chromium, the built site.
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import { connect, SCREENSHOT_DIR, sendPrompt, waitIdle, withMockApi } from './support/app.ts';
import { clipped } from './support/layout.ts';

let api: MockApi;
withMockApi((started) => {
  api = started;
});

const ALL = ['files', 'terminal', 'preview', 'todos', 'usage', 'mcp', 'rules'];

/**
 * The strip as drawn: how many rows its visible tabs (and its More button) sit on, the tabs it shows,
 * the tabs its More menu holds, its height, and the shown tabs reaching past the row's right end.
 */
async function strip(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('.side-tabs');
    const bar = document.querySelector<HTMLElement>('.side-strip') ?? list;
    if (!list || !bar) throw new Error('no tab strip');
    const shown = (el: Element) => el.checkVisibility({ visibilityProperty: true });
    const items = [...bar.querySelectorAll<HTMLElement>('[role="tab"], [data-testid="side-more"]')].filter(
      shown,
    );
    const end = list.getBoundingClientRect().right;
    const id = (el: HTMLElement) => el.dataset.testid?.replace(/^(tab|side-more)-/, '') ?? '?';
    return {
      rows: new Set(items.map((el) => Math.round(el.getBoundingClientRect().top))).size,
      tabs: items.filter((el) => el.getAttribute('role') === 'tab').map(id),
      menu: [...document.querySelectorAll<HTMLElement>('[data-testid^="side-more-"]')].map(id),
      more: items.some((el) => el.dataset.testid === 'side-more'),
      height: Math.round(bar.getBoundingClientRect().height),
      pastEnd: items
        .filter((el) => el.getAttribute('role') === 'tab' && el.getBoundingClientRect().right > end + 0.5)
        .map(id),
    };
  });
}

/** One row; every tab shown or in the menu, once, in order; the selected one shown; nothing cut. */
async function oneRow(page: Page, where: string, selected = 'files') {
  const s = await strip(page);
  expect(s.rows, `${where}: rows of the tab strip`).toBe(1);
  expect(s.height, `${where}: the strip's height is one row's`).toBeLessThan(48);
  expect([...s.tabs, ...s.menu].sort(), `${where}: each tab once, in the row or the menu`).toEqual(
    [...ALL].sort(),
  );
  expect(s.tabs, `${where}: the row keeps the tabs' order`).toEqual(ALL.filter((t) => s.tabs.includes(t)));
  expect(s.tabs, `${where}: the selected tab is in the row`).toContain(selected);
  expect(s.more, `${where}: a More button exactly when the menu holds tabs`).toBe(s.menu.length > 0);
  expect(s.pastEnd, `${where}: tabs past the row's end`).toEqual([]);
  expect(await clipped(page, '.side-strip, .side-tabs'), `${where}: cut or off the screen`).toEqual([]);
  return s;
}

async function open(page: Page): Promise<void> {
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('side-panel')).toBeVisible();
}

test('one row at every width from 900 to 1920 px, light and dark, and at the panel narrowest and widest', async ({
  page,
}) => {
  await open(page);
  for (const width of [900, 1024, 1280, 1366, 1440, 1600, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await oneRow(page, `${width} px ${scheme}`);
      if (width >= 1280 && width <= 1440) {
        const box = await page.locator('.side-col').boundingBox();
        if (box)
          await page.screenshot({
            path: `${SCREENSHOT_DIR}/side-tabs-${width}-${scheme}.png`,
            clip: { x: box.x, y: 0, width: box.width, height: 160 },
          });
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  // The splitter's keys: Home the side panel's narrowest (260 px), End its widest (760 px).
  const splitter = page.getByTestId('side-splitter');
  await page.setViewportSize({ width: 1280, height: 800 });
  await splitter.focus();
  await page.keyboard.press('Home');
  await expect
    .poll(async () => Math.round((await page.locator('.side-col').boundingBox())?.width ?? 0))
    .toBe(260);
  const narrow = await oneRow(page, 'side panel at 260 px');
  expect(narrow.menu.length).toBeGreaterThan(0);
  await page.keyboard.press('End');
  await expect
    .poll(async () => Math.round((await page.locator('.side-col').boundingBox())?.width ?? 0))
    .toBe(760);
  const wide = await oneRow(page, 'side panel at 760 px');
  expect(wide.tabs, 'room for every tab: no menu').toEqual(ALL);
});

test('the More menu, the arrow keys and a badge keep the row: the selected tab is always in it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page);
  const first = await oneRow(page, 'at first');
  expect(first.menu.length, 'at 1280 px the default side panel has no room for every tab').toBeGreaterThan(0);
  const last = first.menu[first.menu.length - 1];

  // Choose the last tab from the menu: it is selected, in the row, focused, its panel shows, the menu closes.
  const more = page.getByTestId('side-more');
  await expect(more).toHaveAttribute('aria-haspopup', 'menu');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem')).toHaveCount(first.menu.length);
  // The menu opens with its first item focused; the arrow keys move down it.
  await expect(page.getByTestId(`side-more-${first.menu[0]}`)).toBeFocused();
  if (first.menu.length > 1) {
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId(`side-more-${first.menu[1]}`)).toBeFocused();
  }
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  await page.getByTestId(`side-more-${last}`).click();
  await expect(menu).toBeHidden();
  await expect(page.getByTestId(`tab-${last}`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId(`tab-${last}`)).toBeVisible();
  await expect(page.getByTestId(`tab-${last}`)).toBeFocused();
  await expect(page.locator(`#side-pane-${last}`)).toBeVisible();
  await oneRow(page, `after choosing ${last}`, last);

  // The arrow keys go through every tab, the ones in the menu too: each comes into the row as it is chosen.
  await page.getByTestId('tab-files').click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('tab-rules')).toBeFocused();
  await oneRow(page, 'End', 'rules');
  for (const id of [...ALL].reverse().slice(1)) {
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId(`tab-${id}`)).toBeFocused();
    await expect(page.getByTestId(`tab-${id}`)).toHaveAttribute('aria-selected', 'true');
    await oneRow(page, `ArrowLeft to ${id}`, id);
  }

  // A todo list puts a badge on Todos (a wider tab): the row makes room, still one row.
  await connect(page, api);
  const todos = ['Plan', 'Build', 'Ship'].map((content, i) => ({
    content,
    activeForm: `${content}ing`,
    status: i === 0 ? 'completed' : i === 1 ? 'in_progress' : 'pending',
  }));
  api.script([
    { content: [{ type: 'tool_use', id: 'toolu_todos', name: 'TodoWrite', input: { todos } }] },
    { content: [{ type: 'text', text: 'Listed.' }] },
  ]);
  await sendPrompt(page, 'Make a todo list');
  await waitIdle(page);
  await page.getByTestId('tab-files').click();
  const badge = page.getByTestId('tab-todos').locator('.tab-badge');
  await expect(badge).toHaveText('1/3');
  await oneRow(page, 'with the Todos badge');
});
