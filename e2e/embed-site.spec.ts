/**
 * The docs example site (examples/, plain HTML) in a real Chromium, served by a plain static server on
 * loopback with the package build at /tabcode/ (no isolation headers): each of the three ways plays a
 * recorded replay to its end with every tool result matching the recording, and nothing reaches the
 * network beyond loopback (react.html's CDN modules are answered from node_modules):
 * - index.html: two playgrounds on one page, <tabcode-playground> and mount(), sharing nothing
 *   (files, storage, theme, keys) and leaving the host page as it was;
 * - iframe.html: the isolated iframe (the app build's embed.html, another origin), auto-height;
 * - react.html: the React component in a React page;
 * - lesson.html: steps with Previous / Next and "Show solution".
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are JavaScript source with template literals of its own
import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { AUTO_HEIGHT_MAX_PX } from '../src/embed/embed-root.ts';
import { loopbackOnly, type SiteServer, serveSite } from './embed-site.ts';
import { SCREENSHOT_DIR } from './support/app.ts';

let site: SiteServer;
test.beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  site = await serveSite();
});
test.afterAll(async () => {
  await site?.close();
});

interface HostEvent {
  type: string;
  checks?: number;
  mismatches?: number;
  name?: string;
  ok?: boolean;
}

/** A docs page's rules for common elements, by name only, with values no rule of tabcode uses. */
const HOST_ELEMENT_RULES = `
  a, button, code, pre, kbd, table, thead, tbody, tr, td, th, h1, h2, h3, h4, h5, h6, p, ul, ol, li,
  input, textarea, select, label, header, nav, section, details, summary, strong, em, small, blockquote {
    background: rgb(1, 2, 3); color: rgb(4, 5, 6); margin: 23px; padding: 29px; border: 7px solid;
    font-size: 41px; letter-spacing: 9px; text-indent: 43px; box-shadow: 0 0 0 5px rgb(1, 2, 3);
  }
  img, svg { background: rgb(1, 2, 3); margin: 23px; padding: 29px; border: 7px solid; display: block; }
  a::after, li::before { content: "host"; }
`;

/** Elements inside a playground that HOST_ELEMENT_RULES reached (tag.class: properties). */
function hostRulesInside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    for (const el of document.querySelectorAll('.tabcode-root *')) {
      const s = getComputedStyle(el);
      const hits = [
        s.backgroundColor === 'rgb(1, 2, 3)' && 'background',
        s.color === 'rgb(4, 5, 6)' && 'color',
        s.marginTop === '23px' && 'margin',
        s.paddingTop === '29px' && 'padding',
        s.borderTopWidth === '7px' && 'border',
        s.fontSize === '41px' && 'font-size',
        s.letterSpacing === '9px' && 'letter-spacing',
        s.textIndent === '43px' && 'text-indent',
        s.boxShadow.includes('rgb(1, 2, 3)') && 'box-shadow',
        getComputedStyle(el, '::after').content === '"host"' && '::after',
        getComputedStyle(el, '::before').content === '"host"' && '::before',
      ].filter(Boolean);
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
      if (hits.length) found.add(`${el.tagName.toLowerCase()}${cls}: ${hits.join(' ')}`);
    }
    return [...found];
  });
}

/**
 * The header of the playground under `root`: which of its right-hand items (meters, badge, buttons) run
 * over the logo, and which stick out of the header (cut off).
 */
function headerLayout(root: Element): { logoRight: number; overLogo: string[]; cutOff: string[] } {
  const header = root.querySelector('.app-header') as HTMLElement;
  const box = header.getBoundingClientRect();
  const logo = (header.querySelector('.brand-logo') as HTMLElement).getBoundingClientRect();
  const items = [...header.querySelectorAll<HTMLElement>('.header-right > *')].filter(
    (el) => el.getBoundingClientRect().width > 0,
  );
  const name = (el: HTMLElement) => el.dataset.testid ?? el.className;
  return {
    logoRight: Math.round(logo.right),
    overLogo: items.filter((el) => el.getBoundingClientRect().left < logo.right - 0.5).map(name),
    cutOff: items
      .filter(
        (el) =>
          el.getBoundingClientRect().right > box.right + 0.5 || el.getBoundingClientRect().left < box.left,
      )
      .map(name),
  };
}

/** Page errors (uncaught exceptions in the host page or a playground). */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test('index.html: two playgrounds on one page (element and mount()) each play their replay to the end, sharing nothing', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const refused = await loopbackOnly(context);
  const errors = pageErrors(page);
  await page.goto(`${site.url}/index.html`);
  const farewell = page.locator('#farewell');
  const sales = page.locator('#sales');

  // Before it plays, the second describes itself: its own file and a recording (no key), never the
  // stand-alone page's demo project, a key it does not have, or commands for the developer.
  const salesEmpty = sales.getByTestId('empty-state');
  await expect(salesEmpty).toHaveAttribute('data-mode', 'replay');
  await expect(salesEmpty.getByTestId('empty-file')).toHaveText(['data/sales.csv']);
  await expect(salesEmpty).toContainText('A recorded session: no key, no network.');
  for (const words of ['weather-notes', 'npm run', 'key is set'])
    await expect(salesEmpty).not.toContainText(words);
  // The header logo is in the package (a playground's page is the host's: no favicon.svg beside it).
  for (const logo of [farewell.locator('.brand-logo'), sales.locator('.brand-logo')]) {
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }

  // The element autoruns once visible; the second waits for the page's button (handle.play()).
  await page.getByRole('button', { name: 'Run the demo' }).click();
  const ends = () =>
    page.evaluate(() => {
      const events = (window as unknown as { docsEvents: Record<string, HostEvent[]> }).docsEvents;
      const end = (list: HostEvent[]) => list.find((e) => e.type === 'replay-end') ?? null;
      return { farewell: end(events.farewell), sales: end(events.sales) };
    });
  await expect.poll(ends, { timeout: 90_000 }).toEqual({
    farewell: { type: 'replay-end', checks: 3, mismatches: 0 },
    sales: { type: 'replay-end', checks: 2, mismatches: 0 },
  });
  await expect(farewell.getByTestId('replay-status')).toHaveAttribute('data-state', 'ok');
  await expect(sales.getByTestId('replay-status')).toHaveAttribute('data-state', 'ok');
  await expect(farewell.getByTestId('assistant-text').last()).toContainText('exports greet() and farewell()');
  await expect(sales.getByTestId('assistant-text').last()).toContainText('445.5');

  // Each has its own project: the files of one never show in the other.
  await expect(farewell.locator('[data-testid="file-item"][data-path="src/greet.js"]')).toBeVisible();
  await expect(farewell.locator('[data-testid="file-item"][data-path="data/sales.csv"]')).toHaveCount(0);
  await expect(sales.locator('[data-testid="file-item"][data-path="sum.js"]')).toBeVisible();
  await expect(sales.locator('[data-testid="file-item"][data-path="src/greet.js"]')).toHaveCount(0);
  // The replayed Edit really changed the first one's file (it was opened first: layout.file).
  await farewell.locator('[data-testid="file-item"][data-path="src/greet.js"]').click();
  await expect(farewell.getByTestId('file-content')).toContainText('Goodbye, ${name}!');

  // Themes and layouts are each playground's own; the host's root element and styles are untouched.
  const looks = await page.evaluate(() => {
    const roots = [...document.querySelectorAll<HTMLElement>('.tabcode-root')];
    const hostButton = document.getElementById('run-sales') as HTMLElement;
    const ourButton = document.querySelector<HTMLElement>('#farewell .tabcode-root .btn') as HTMLElement;
    return {
      roots: roots.map((r) => ({
        theme: r.dataset.theme ?? null,
        accent: r.style.getPropertyValue('--accent'),
      })),
      htmlTheme: document.documentElement.getAttribute('data-theme'),
      hostButton: getComputedStyle(hostButton).backgroundColor,
      hostButtonRadius: getComputedStyle(hostButton).borderRadius,
      ourButtonRadius: getComputedStyle(ourButton).borderRadius,
      bodyFont: getComputedStyle(document.body).fontFamily,
      bodyMargin: getComputedStyle(document.body).marginTop,
      preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
      stylesheets: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
        (l) => new URL(l.href).pathname,
      ),
    };
  });
  expect(looks.roots).toEqual([
    { theme: 'light', accent: '' },
    { theme: 'dark', accent: '#2f9e72' },
  ]);
  expect(looks.htmlTheme).toBeNull();
  expect(looks.hostButton).toBe('rgb(52, 81, 178)');
  expect(looks.hostButtonRadius).toBe('20px');
  expect(looks.ourButtonRadius).toBe('5px');
  expect(looks.bodyFont).toContain('Georgia');
  expect(looks.bodyMargin).toBe('0px');
  expect(looks.preloads).toBe(0);
  expect(looks.stylesheets).toEqual(['/tabcode/tabcode.css']);
  await expect(sales.locator('.app-header')).toBeHidden();
  await expect(farewell.locator('.app-header')).toBeVisible();

  // Keys are each playground's: Ctrl+J in the first closes its side panel only.
  await farewell.getByTestId('prompt-input').focus();
  await page.keyboard.press('Control+j');
  await expect(farewell.locator('.side-col')).toHaveCount(0);
  await expect(sales.locator('.side-col')).toBeVisible();
  await page.keyboard.press('Control+j');
  await expect(farewell.locator('.side-col')).toBeVisible();

  // The header fits the playground, in a 980 px column and on a phone: no meter over the logo, none cut off.
  const header = () => farewell.locator('.tabcode-root').evaluate(headerLayout);
  await expect.poll(header).toMatchObject({ overLogo: [], cutOff: [] });
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(farewell.getByTestId('phone-switcher')).toBeVisible();
  await expect.poll(header).toMatchObject({ overLogo: [], cutOff: [] });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The host's element rules stop at the playgrounds: the page's `code { background: #eee }` gave the dark
  // file viewer light boxes with light text. Then a page styling every common element by name.
  const codeInViewer = sales.locator('[data-testid="file-content"] code');
  await expect(codeInViewer.first()).toBeAttached();
  const codeBoxes = await codeInViewer.evaluateAll((els) =>
    els.map((e) => getComputedStyle(e).backgroundColor),
  );
  expect(codeBoxes.length).toBeGreaterThan(0);
  expect(codeBoxes.filter((b) => b === 'rgb(238, 238, 238)')).toEqual([]);
  await page.addStyleTag({ content: HOST_ELEMENT_RULES });
  expect(await hostRulesInside(page)).toEqual([]);
  expect(await page.locator('body > h1').evaluate((h) => getComputedStyle(h).fontSize)).toBe('41px');

  // Nothing stored in the host's origin, nothing fetched beyond loopback, no error.
  const storage = await page.evaluate(async () => ({
    local: Object.keys(localStorage),
    session: Object.keys(sessionStorage),
    databases: (await indexedDB.databases()).map((d) => d.name),
  }));
  expect(storage).toEqual({ local: [], session: [], databases: [] });
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/embed-site-two-playgrounds.png`, fullPage: true });
});

test('iframe.html: the isolated iframe plays the replay to its end, sized by auto-height', async ({
  page,
  context,
  baseURL,
}) => {
  // The replay plays at its recorded pace; a loaded machine needs more than the default minute.
  test.setTimeout(120_000);
  const refused = await loopbackOnly(context);
  const errors = pageErrors(page);
  await page.goto(`${site.url}/iframe.html?tabcode=${encodeURIComponent(`${baseURL}/embed.html`)}`);
  const messages = () =>
    page.evaluate(
      () =>
        (window as unknown as { tabcodeMessages: { type: string; event?: HostEvent; height?: number }[] })
          .tabcodeMessages,
    );
  const play = page.getByRole('button', { name: 'Play' });
  await expect(play).toBeEnabled({ timeout: 30_000 });
  await play.click();
  await expect
    .poll(async () => (await messages()).find((m) => m.event?.type === 'replay-end')?.event, {
      timeout: 60_000,
    })
    .toEqual({ type: 'replay-end', checks: 3, mismatches: 0 });
  const all = await messages();
  expect(all[0].type).toBe('tabcode:loaded');
  expect(all.filter((m) => m.type === 'tabcode:warning')).toEqual([]);
  const checks = all.filter((m) => m.event?.type === 'replay-check').map((m) => [m.event?.name, m.event?.ok]);
  expect(checks).toEqual([
    ['Read', true],
    ['Edit', true],
    ['Bash', true],
  ]);
  // height: 'auto': the playground asked for more room as the conversation grew, and the host gave it.
  const heights = all.filter((m) => m.type === 'tabcode:resize').map((m) => m.height as number);
  expect(heights.length).toBeGreaterThan(0);
  expect(Math.max(...heights)).toBeGreaterThan(heights[0]);
  // A height is posted only when it changes: applying one does not make the playground ask again.
  expect(heights.filter((h, i) => i > 0 && h === heights[i - 1])).toEqual([]);
  // The iframe follows the latest height the playground asked for (the last message may still be coming).
  await expect
    .poll(async () => {
      const last = (await messages()).filter((m) => m.type === 'tabcode:resize').pop()?.height ?? 0;
      const frame = await page.locator('#tabcode').evaluate((f) => f.clientHeight);
      return Math.abs(frame - last);
    })
    .toBeLessThan(2);
  const frame = page.frameLocator('#tabcode');
  // The playground fills the frame it was given (it was 360 px in a frame grown to 1121 px), and the frame
  // fits the conversation: no empty band under the transcript, unless the frame reached its bound and the
  // transcript scrolls instead.
  await expect
    .poll(() =>
      frame.locator('.tabcode-root').evaluate((root, max) => {
        const transcript = root.querySelector('[data-testid="transcript"]') as HTMLElement;
        const inner = transcript.querySelector('.transcript-inner') as HTMLElement;
        const height = root.getBoundingClientRect().height;
        const empty = transcript.getBoundingClientRect().height - inner.getBoundingClientRect().height;
        return {
          fillsFrame: Math.abs(height - window.innerHeight) < 2,
          fitsContent: height >= max - 1 ? transcript.scrollHeight > transcript.clientHeight : empty < 2,
        };
      }, AUTO_HEIGHT_MAX_PX),
    )
    .toEqual({ fillsFrame: true, fitsContent: true });
  await expect(frame.getByTestId('replay-status')).toHaveAttribute('data-state', 'ok');
  await expect(frame.locator('[data-testid="file-item"][data-path="src/greet.js"]')).toBeVisible();
  // A phone (390 px): the header's meters, filled in by the replay, neither run over the logo nor get cut off.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(frame.getByTestId('phone-switcher')).toBeVisible();
  await expect
    .poll(() => frame.locator('.tabcode-root').evaluate(headerLayout))
    .toMatchObject({ overLogo: [], cutOff: [] });
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/embed-site-iframe.png`, fullPage: true });
});

test('react.html: the React component in a React page plays its replay to the end', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const refused = await loopbackOnly(context);
  const errors = pageErrors(page);
  await page.goto(`${site.url}/react.html`);
  await expect(page.getByTestId('react-status')).toHaveText('Playground: played, 0 mismatches', {
    timeout: 60_000,
  });
  const checks = await page.evaluate(() =>
    (window as unknown as { docsEvents: HostEvent[] }).docsEvents
      .filter((e) => e.type === 'replay-check')
      .map((e) => [e.name, e.ok]),
  );
  expect(checks).toEqual([
    ['Read', true],
    ['Edit', true],
    ['Bash', true],
  ]);
  await expect(page.locator('[data-tabcode] [data-testid="tool-card"]')).toHaveCount(3);
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test('lesson.html: steps with their own files, Previous / Next, Show solution, and a step demo', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const refused = await loopbackOnly(context);
  const errors = pageErrors(page);
  await page.goto(`${site.url}/lesson.html`);
  const lesson = page.locator('#lesson');
  await expect(lesson.getByTestId('lesson-step')).toContainText('Step 1 of 2: Say hello');
  await expect(lesson.getByTestId('lesson-body')).toContainText('add a farewell()');
  await expect(lesson.getByTestId('prompt-input')).toHaveValue(
    'Add a farewell() function next to greet() and show both working.',
  );
  await expect(lesson.getByTestId('lesson-prev')).toBeDisabled();
  // The empty state lists the step's own files (not the stand-alone page's demo project).
  await expect(lesson.getByTestId('empty-file')).toHaveText(['README.md', 'src/greet.js']);

  // The step's demo plays to its end.
  const play = lesson.getByTestId('embed-play');
  await expect(play).toBeEnabled({ timeout: 30_000 });
  await play.click();
  await expect(play).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(lesson.getByTestId('replay-status')).toHaveAttribute('data-state', 'ok');

  // Next: another project (the first one's files are gone), its own prompt; its solution fills it in.
  await lesson.getByTestId('lesson-next').click();
  await expect(lesson.getByTestId('lesson-step')).toContainText('Step 2 of 2: Sum a column');
  await expect(lesson.locator('[data-testid="file-item"][data-path="data/sales.csv"]')).toBeVisible();
  await expect(lesson.locator('[data-testid="file-item"][data-path="src/greet.js"]')).toHaveCount(0);
  await expect(lesson.getByTestId('empty-file')).toHaveText(['data/sales.csv']);
  await expect(lesson.getByTestId('prompt-input')).toHaveValue(
    'What is the total of the amount column in data/sales.csv?',
  );
  await lesson.getByTestId('lesson-solution').click();
  await expect(lesson.locator('[data-testid="file-item"][data-path="sum.js"]')).toBeVisible();
  await expect(lesson.getByTestId('lesson-solution')).toHaveText('Solution shown');

  // Previous: step 1 starts over, its file as the step gives it (no farewell yet).
  await lesson.getByTestId('lesson-prev').click();
  await expect(lesson.getByTestId('lesson-step')).toContainText('Step 1 of 2');
  await lesson.locator('[data-testid="file-item"][data-path="src/greet.js"]').click();
  await expect(lesson.getByTestId('file-content')).toContainText('Hello, ${name}!');
  await expect(lesson.getByTestId('file-content')).not.toContainText('farewell');
  const steps = await page.evaluate(() =>
    (window as unknown as { lessonEvents: { type: string; step?: number }[] }).lessonEvents
      .filter((e) => e.type === 'lesson-step')
      .map((e) => e.step),
  );
  expect(steps).toEqual([1, 0]);
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});
