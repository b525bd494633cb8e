/**
 * Accessibility: axe-core over the empty state and every panel and dialog, in the light and the dark
 * theme, with no serious or critical violation and no text under 4.5:1 (highlighted code's tokens of every
 * colour measured too); a visible focus ring on everything the Tab key reaches; a whole session driven
 * by the keyboard alone (no pointer at all); live regions that announce a finished answer and a
 * permission prompt. Real Chromium, the built site, the real SDK against the mock Messages API.
 *
 * The axe run needs the `axe-core` package (a dev dependency); where it is not installed that test
 * says so and is skipped, the others run.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, test } from '@playwright/test';
import type { MockApi, ScriptedTurn } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openSideTab,
  SCREENSHOT_DIR,
  toolCard,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';

let api: MockApi;
withMockApi((started) => {
  api = started;
});
// Each test opens its own page and storage (the mock API is reset before each), so they run side by side.
test.describe.configure({ mode: 'parallel' });

/** axe-core's browser build, when the package is installed. */
function axeSource(): string | undefined {
  try {
    return readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  } catch {
    return undefined;
  }
}

async function open(page: Page): Promise<void> {
  await page.goto('/?sandbox=just-bash');
  await expect(page.getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
}

/**
 * Code with a token of each colour the highlighter gives (highlight.css): comment, keyword, class and
 * function titles, parameters, string, number, built-in, attribute.
 */
const CODE = [
  '// Count the words.',
  'class Counter extends Map {',
  '  count(text, min = 2) {',
  "    return text.split(' ').filter((w) => w.length >= min).length + parseInt('1', 10);",
  '  }',
  '}',
  'const options = { attr: true };',
].join('\n');

/** A session with a card of every kind, a markdown reply, and a permission prompt left waiting. */
const SESSION: ScriptedTurn[] = [
  {
    content: [
      {
        type: 'text',
        text: `## Plan\n\nI will **write**, edit and run:\n\n\`\`\`js\n${CODE}\n\`\`\`\n\n| a | b |\n|---|---|\n| 1 | 2 |`,
      },
      {
        type: 'tool_use',
        id: 'toolu_w',
        name: 'Write',
        // Markdown: its list markers are highlighted as bullets, its heading as a section, its quote as a quote.
        input: { file_path: `${ROOT}/notes.md`, content: '# Notes\n\n- one\n- two\n\n> 1. quoted\n' },
      },
      { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'echo out; echo err >&2; exit 3' } },
      { type: 'tool_use', id: 'toolu_g', name: 'Glob', input: { pattern: '**/*.js' } },
      { type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: `${ROOT}/notes.md` } },
    ],
  },
  {
    content: [
      {
        type: 'tool_use',
        id: 'toolu_e',
        name: 'Edit',
        input: { file_path: `${ROOT}/notes.md`, old_string: 'two', new_string: 'TWO' },
      },
    ],
  },
  { content: [{ type: 'text', text: 'All done.' }] },
];

/** Resolves after the page has drawn `n` more animation frames. */
async function afterFrames(page: Page, n: number): Promise<void> {
  await page.evaluate(async (count) => {
    for (let i = 0; i < count; i++) await new Promise((r) => requestAnimationFrame(() => r(null)));
  }, n);
}

type AxeNode = {
  target: string[];
  any: {
    id: string;
    data?: { contrastRatio?: number; expectedContrastRatio?: string; messageKey?: string } | null;
  }[];
};
type AxeViolation = { id: string; impact: string | null; help: string; nodes: AxeNode[] };

/**
 * Below this contrast, text axe left "incomplete" counts as a problem. axe does not call a contrast it
 * is unsure of a violation: text the same colour as its background (1:1, it may be meant to be hidden),
 * or on a background it cannot fully see. Under 3:1 (WCAG's floor even for large text) the text is
 * unreadable whatever axe was unsure of, as white-on-white text is.
 */
const UNREADABLE_CONTRAST = 3;

/**
 * Text axe measured under UNREADABLE_CONTRAST but left "incomplete"; and short text (one or two
 * characters: a step's number, a number in code) under the contrast WCAG asks of it. axe measures short
 * text as it does any other, then leaves it "incomplete" (messageKey shortTextContent) only because one
 * or two characters may be an icon; here they are text.
 */
function unreadableText(incomplete: AxeViolation[], where: string): string[] {
  return incomplete
    .filter((v) => v.id === 'color-contrast')
    .flatMap((v) => v.nodes)
    .flatMap((n) => {
      const data = n.any.find((a) => a.id === 'color-contrast')?.data;
      const ratio = data?.contrastRatio;
      if (typeof ratio !== 'number' || ratio <= 0) return [];
      if (ratio < UNREADABLE_CONTRAST)
        return [`${where}: color-contrast ${ratio}:1, unreadable — ${n.target.join(' ')}`];
      const expected = Number.parseFloat(data?.expectedContrastRatio ?? '');
      return data?.messageKey === 'shortTextContent' && ratio < expected
        ? [`${where}: color-contrast ${ratio}:1 (short text), under ${expected}:1 — ${n.target.join(' ')}`]
        : [];
    });
}

/**
 * Text whose colour is under 4.5:1 (WCAG AA) on the background it shows on, among the visible elements
 * matching `selector`. axe measures most of them too; this is for what its color-contrast rule skips as
 * not text: punctuation alone (a list's bullet in highlighted markdown, "-"). The background is the
 * nearest ancestor's that is not transparent, a translucent one blended over the one under it.
 */
async function lowContrast(page: Page, selector: string, where: string): Promise<string[]> {
  const found = await page.evaluate((sel) => {
    const rgba = (css: string) => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return { r, g, b, a: css.startsWith('rgba') || css.includes('/') ? a : 1 };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const f = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null) => {
      const layers: ReturnType<typeof rgba>[] = [];
      for (let at = el; at; at = at.parentElement) {
        const c = rgba(getComputedStyle(at).backgroundColor);
        if (c.a === 0) continue;
        layers.push(c);
        if (c.a === 1) break;
      }
      let out = { r: 255, g: 255, b: 255 };
      for (const c of layers.reverse())
        out = {
          r: c.r * c.a + out.r * (1 - c.a),
          g: c.g * c.a + out.g * (1 - c.a),
          b: c.b * c.a + out.b * (1 - c.a),
        };
      return out;
    };
    const out: { what: string; ratio: number }[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      if (!el.checkVisibility() || !el.textContent?.trim()) continue;
      const fg = luminance(rgba(getComputedStyle(el).color));
      const bg = luminance(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      if (Math.round(ratio * 100) / 100 < 4.5)
        out.push({ what: `${el.className} "${el.textContent.trim()}"`, ratio });
    }
    return out;
  }, selector);
  return found.map((f) => `${where}: ${f.ratio.toFixed(2)}:1 under 4.5:1 — ${f.what}`);
}

/** The text the contrast checks measure themselves: highlighted code's tokens, the empty state's step numbers. */
const MEASURED = '.hljs [class*="hljs-"], .step-num';

/**
 * Serious and critical axe violations of the page as it is now, text axe measured as unreadable or
 * short text under its contrast, and MEASURED text under 4.5:1.
 */
async function axeProblems(page: Page, source: string, where: string): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's CSP refuses inline scripts (as it should).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const { violations, incomplete } = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            o: object,
          ) => Promise<{ violations: AxeViolation[]; incomplete: AxeViolation[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations', 'incomplete'] });
    return { violations: result.violations, incomplete: result.incomplete };
  });
  return [
    ...violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 5)
            .join(', ')}`,
      ),
    ...unreadableText(incomplete, where),
    ...(await lowContrast(page, MEASURED, where)),
  ];
}

test('axe: every panel and dialog, light and dark, has no serious or critical violation', async ({
  page,
}) => {
  const source = axeSource();
  test.skip(!source, 'axe-core is not installed: `npm install -D axe-core` makes this test run');
  if (!source) return;
  test.setTimeout(120_000);
  api.script(SESSION);
  await open(page);
  const problems: string[] = [];
  // The empty state's numbered steps, before and after a key is set (the first step then done).
  for (const connected of [false, true]) {
    if (connected) await connect(page, api);
    await expect(page.getByTestId('step-key')).toHaveClass(connected ? /step-done/ : /^step\s*$/);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      problems.push(
        ...(await axeProblems(page, source, `${scheme} empty state, ${connected ? '' : 'not '}connected`)),
      );
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('prompt-input').fill('Plan, write, edit and run.');
  await page.getByTestId('prompt-input').press('Enter');
  await expect(toolCard(page, 'toolu_w').getByTestId('permission-request')).toBeVisible();
  for (const token of ['comment', 'keyword', 'title', 'params', 'string', 'number', 'built_in', 'attr'])
    await expect(
      page.locator(`.md .hljs-${token}`).first(),
      `a highlighted ${token} in the reply`,
    ).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    problems.push(...(await axeProblems(page, source, `${scheme} chat with a permission prompt`)));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await allowEverything(page);
  await page.keyboard.press('1');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All done.');
  await waitIdle(page);
  await page.locator('[data-testid="file-item"][data-path="notes.md"]').click();
  await expect(page.getByTestId('file-viewer')).toBeVisible();
  for (const token of ['section', 'bullet', 'quote'])
    await expect(
      page.getByTestId('file-viewer').locator(`.hljs-${token}`).first(),
      `a highlighted ${token} in the file viewer`,
    ).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    problems.push(...(await axeProblems(page, source, `${scheme} chat, every card kind, file viewer`)));
    // The tab strip's More menu, open (the tabs the strip has no room for).
    await page.getByTestId('side-more').click();
    await expect(page.getByRole('menu')).toBeVisible();
    problems.push(...(await axeProblems(page, source, `${scheme} side panel More menu`)));
    await page.keyboard.press('Escape');
    for (const tab of ['terminal', 'preview', 'todos', 'usage', 'mcp', 'rules']) {
      await openSideTab(page, tab);
      if (tab === 'usage') await page.getByTestId('usage-row').first().click();
      // The MCP and Permissions panels load on first open: axe must see them, not their placeholder.
      if (tab === 'mcp') await expect(page.getByTestId('mcp-panel')).toBeVisible();
      if (tab === 'rules') await expect(page.getByTestId('permission-rules')).toBeVisible();
      // xterm repaints its rows in its next animation frames after a theme change or being shown; axe
      // must see the painted rows, not the previous theme's (a run on CI once caught them mid-change).
      if (tab === 'terminal') await afterFrames(page, 3);
      problems.push(...(await axeProblems(page, source, `${scheme} ${tab} panel`)));
    }
    await page.getByTestId('tab-files').click();
    await page.getByTestId('settings-button').click();
    await expect(page.getByTestId('settings-dialog')).toBeVisible();
    problems.push(...(await axeProblems(page, source, `${scheme} settings dialog`)));
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize({ width: 390, height: 844 });
  problems.push(...(await axeProblems(page, source, 'phone layout')));
  expect(problems).toEqual([]);
});

/** Whether the focused element shows a ring (its own outline, or the box it sits in). */
async function focusRing(page: Page): Promise<{ what: string; ring: boolean } | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const shows = (node: Element) => {
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 1;
      return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
    };
    const box = el.closest('.prompt-box');
    const what = `${el.tagName.toLowerCase()}[${el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 24) ?? ''}]`;
    return { what, ring: shows(el) || (box !== null && shows(box)) };
  });
}

test('a visible focus ring on everything Tab reaches', async ({ page }) => {
  api.script([{ content: [{ type: 'text', text: 'A reply with `code`.' }] }]);
  await open(page);
  await connect(page, api);
  await page.getByTestId('prompt-input').fill('Hello');
  await page.getByTestId('prompt-input').press('Enter');
  await expect(page.getByTestId('assistant-text')).toHaveText('A reply with code.');
  await waitIdle(page);
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  const seen = new Set<string>();
  const missing: string[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focus = await focusRing(page);
    if (!focus) continue;
    if (!focus.ring) missing.push(focus.what);
    if (seen.has(focus.what) && i > 10) break;
    seen.add(focus.what);
  }
  expect(seen.size).toBeGreaterThan(15);
  expect(seen).toContain('textarea[prompt-input]');
  expect([...seen].some((s) => s.includes('splitter'))).toBe(true);
  expect(missing).toEqual([]);
});

/** Presses Tab (or Shift+Tab) until `testId` has focus; fails after `max` presses. */
async function tabTo(page: Page, selector: string, max = 40, back = false): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(page.locator(selector)).toBeFocused();
}

test('a whole session by keyboard alone; live regions announce the answer and the permission prompt', async ({
  page,
}) => {
  api.script([
    {
      content: [
        { type: 'text', text: 'Writing the file.' },
        {
          type: 'tool_use',
          id: 'toolu_kw',
          name: 'Write',
          input: { file_path: `${ROOT}/keys.txt`, content: 'typed\n' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Wrote keys.txt without a mouse.' }] },
    { content: [{ type: 'tool_use', id: 'toolu_ks', name: 'Bash', input: { command: 'sleep 30' } }] },
  ]);
  await open(page);
  const keys = page.keyboard;
  // Settings by keyboard: Ctrl+, opens it with the key field focused; Tab to the base URL; Enter saves.
  await expect(page.getByTestId('prompt-input')).toBeFocused();
  await keys.press('Control+,');
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
  await expect(page.getByTestId('api-key-input')).toBeFocused();
  await keys.type('test');
  await tabTo(page, '[data-testid="base-url-input"]', 8);
  await keys.press('Control+a');
  await keys.type(api.url);
  await keys.press('Enter');
  await expect(page.getByTestId('settings-dialog')).toBeHidden();

  // A prompt, Enter; the permission prompt takes focus, is announced, and "1" allows once.
  await expect(page.getByTestId('prompt-input')).toBeFocused();
  await keys.type('Write keys.txt');
  await keys.press('Enter');
  const alerts = page.getByTestId('live-alerts');
  await expect(alerts).toContainText('Permission needed');
  await expect(alerts).toContainText('Write card');
  await expect(toolCard(page, 'toolu_kw').getByTestId('permission-request')).toBeFocused();
  await keys.press('1');
  await expect(toolCard(page, 'toolu_kw')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('live-answers')).toHaveText('tabcode: Wrote keys.txt without a mouse.');
  await waitIdle(page);

  // The side panel by keyboard: arrows move between tabs, Enter on a file opens it.
  await tabTo(page, '[data-testid="tab-files"]', 60);
  await keys.press('ArrowRight');
  await expect(page.getByTestId('tab-terminal')).toBeFocused();
  await keys.press('ArrowLeft');
  await expect(page.getByTestId('tab-files')).toBeFocused();
  await tabTo(page, '[data-testid="file-item"][data-path="keys.txt"]', 30);
  await keys.press('Enter');
  await expect(page.getByTestId('file-viewer')).toHaveAttribute('data-path', 'keys.txt');
  await expect(page.getByTestId('file-content')).toHaveText('typed');

  // Ctrl+J hides and shows the side panel; Esc stops a running command.
  await keys.press('Control+j');
  await expect(page.getByTestId('side-panel')).toHaveCount(0);
  await keys.press('Control+j');
  await expect(page.getByTestId('side-panel')).toBeVisible();
  // Back to the prompt; Shift+Tab there cycles the permission mode to "Allow everything".
  await tabTo(page, '[data-testid="prompt-input"]', 80);
  for (let i = 0; i < 6 && (await page.getByTestId('mode-switch').inputValue()) !== 'bypassPermissions'; i++)
    await keys.press('Shift+Tab');
  await expect(page.getByTestId('mode-switch')).toHaveValue('bypassPermissions');
  await keys.type('Sleep a while');
  await keys.press('Enter');
  await expect(toolCard(page, 'toolu_ks')).toHaveAttribute('data-status', 'running');
  await keys.press('Escape');
  await expect(toolCard(page, 'toolu_ks')).toHaveAttribute('data-status', 'interrupted');
  await expect(page.getByTestId('interrupted-marker')).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/keyboard-session.png` });
});
