/**
 * Issue 17, the freeze cases, in real Chromium: inputs a hostile model sends that once froze the tab.
 * Each case runs through the real SDK, loop and tools against the mock Messages API while a
 * PerformanceObserver('longtask') records main-thread tasks over 50 ms, and Esc is pressed while the
 * tool runs. The figures (longest task, Esc to stopped) are printed for the report; the assertions are
 * on state: the run stopped, the page answered while the tool ran, the session takes the next prompt.
 * Long-task and Esc limits are generous on purpose (this machine is shared): they catch a freeze of
 * seconds, not a slow frame. The longest task of each case is printed after the last one; the 50 ms
 * goal of issue 17 is measured by `npm run bench -- --only long-tasks`, not asserted here. In the 190 kB
 * viewer case the test waits in the page until the figures are taken: with Playwright's locator checks
 * it counted 3-8 tasks of up to 550 ms that a Chrome trace showed were Playwright's own (each began with
 * its injected `__playwright_mark_target__` event and forced the viewer's layout dozens of times).
 */
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  openApp,
  resultText,
  sendPrompt,
  toolCard,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';

const ROOT = '/home/user/project';
/** A freeze lasts seconds to minutes; a busy shared machine (load 30 on 2 cores) makes tasks of up to ~1 s. */
const FREEZE_MS = 3_000;
/** Esc must register and stop the tool long before a frozen page would answer. */
const ESC_STOP_LIMIT_MS = 10_000;

let api: MockApi;
withMockApi((started) => {
  api = started;
});
// Each case boots the app, runs tools and waits out a stop: roomy on a loaded machine.
test.describe.configure({ timeout: 120_000 });

/** Longest main-thread task per case, printed together after the last case (figures, never asserted). */
const longestPerCase: string[] = [];
test.afterAll(() => {
  if (longestPerCase.length)
    console.log(`longest main-thread task per case:\n  ${longestPerCase.join('\n  ')}`);
});

interface Probe {
  longTasks: { start: number; duration: number }[];
  escAt?: number;
  stoppedAt?: number;
}

declare global {
  interface Window {
    __probe: Probe;
  }
}

/** Records long tasks from the first script on, the time of each Esc keydown, and when Stop leaves. */
async function installProbe(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const probe: Probe = { longTasks: [] };
    window.__probe = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Escape') probe.escAt = performance.now();
      },
      true,
    );
    new MutationObserver(() => {
      if (
        probe.escAt !== undefined &&
        probe.stoppedAt === undefined &&
        !document.querySelector('[data-testid="stop-button"]')
      )
        probe.stoppedAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
}

/** performance.now() in the page. */
const pageNow = (page: Page) => page.evaluate(() => performance.now());

/** The longest task that started at or after `since` (0 when none over 50 ms). */
async function longestSince(page: Page, since: number): Promise<{ longest: number; count: number }> {
  const figures = await page.evaluate((t) => {
    const tasks = window.__probe.longTasks.filter((x) => x.start >= t);
    return { longest: Math.round(Math.max(0, ...tasks.map((x) => x.duration))), count: tasks.length };
  }, since);
  longestPerCase.push(`${test.info().title}: ${figures.longest} ms (${figures.count} over 50 ms)`);
  return figures;
}

/**
 * True when the page runs a task soon: a round trip through the page's event loop (a timer and a
 * frame) that a frozen main thread cannot make. Returns the round trip in ms.
 */
async function responsiveness(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const t = performance.now();
        setTimeout(() => requestAnimationFrame(() => resolve(Math.round(performance.now() - t))), 0);
      }),
  );
}

/**
 * Presses Esc in the page and waits for the run to stop (with `waitInPage` when given, see the 190 kB
 * case); returns Esc → Stop gone, in the page's clock.
 */
async function escAndWait(page: Page, waitInPage?: (predicate: string) => Promise<unknown>): Promise<number> {
  await page.evaluate(() => {
    window.__probe.escAt = undefined;
    window.__probe.stoppedAt = undefined;
  });
  await page.keyboard.press('Escape');
  if (waitInPage) await waitInPage(`!document.querySelector('[data-testid="stop-button"]')`);
  else await waitIdle(page);
  const { escAt, stoppedAt } = await page.evaluate(() => window.__probe);
  expect(escAt, 'the Esc keydown reached the page').toBeDefined();
  return Math.round((stoppedAt ?? performance.now()) - (escAt ?? 0));
}

async function start(page: Page): Promise<void> {
  await installProbe(page);
  await openApp(page);
  await connect(page, api);
  await allowEverything(page);
}

test('baseline: a plain text turn, for the figures of the cases below', async ({ page }, info) => {
  api.script([{ content: [{ type: 'text', text: 'Plain answer.' }] }]);
  await start(page);
  const since = await pageNow(page);
  await sendPrompt(page, 'Say something.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Plain answer.');
  await waitIdle(page);
  const { longest, count } = await longestSince(page, since);
  info.annotations.push({
    type: 'figures',
    description: `baseline text turn: long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  expect(api.requests).toHaveLength(1);
});

test('Grep (a+)+$ on lines of 34 a’s: the page stays responsive and Esc stops it', async ({ page }, info) => {
  const line = `${'a'.repeat(34)}!`;
  // Six files, each past Grep's per-file time budget: the search would run for over ten seconds.
  const echoes = Array.from({ length: 6 }, (_, i) => `echo ${line} > ${ROOT}/redos/r${i}.txt`);
  const command = [`mkdir -p ${ROOT}/redos`, ...echoes].join(' && ');
  const writes = [{ type: 'tool_use' as const, id: 'toolu_files', name: 'Bash', input: { command } }];
  api.script([
    { content: writes },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_redos',
          name: 'Grep',
          input: { pattern: '(a+)+$', path: `${ROOT}/redos`, output_mode: 'content' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Still here.' }] },
  ]);
  await start(page);
  await sendPrompt(page, 'Search.');
  const card = toolCard(page, 'toolu_redos');
  await expect(card).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  const since = await pageNow(page);
  const roundTrip = await responsiveness(page);
  const escToStop = await escAndWait(page);
  await expect(card).not.toHaveAttribute('data-status', 'running');
  const { longest, count } = await longestSince(page, since);
  info.annotations.push({
    type: 'figures',
    description: `grep redos: event-loop round trip while running ${roundTrip} ms; Esc→stopped ${escToStop} ms; long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  expect(roundTrip).toBeLessThan(FREEZE_MS);
  expect(longest).toBeLessThan(FREEZE_MS);
  expect(escToStop).toBeLessThan(ESC_STOP_LIMIT_MS);

  await sendPrompt(page, 'Are you there?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Still here.');
  const last = api.requests.at(-1);
  expect(last && toolResultFor(last, 'toolu_redos')?.is_error).toBe(true);
});

test('Grep (a+)+$ left to run: the file is skipped after its time budget with a clear note', async ({
  page,
}, info) => {
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_file',
          name: 'Write',
          input: { file_path: `${ROOT}/redos.txt`, content: `${'a'.repeat(34)}!\n` },
        },
        {
          type: 'tool_use',
          id: 'toolu_ok',
          name: 'Write',
          input: { file_path: `${ROOT}/plain.txt`, content: 'aaa\n' },
        },
      ],
    },
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_budget',
          name: 'Grep',
          input: { pattern: '(a+)+$', path: ROOT, glob: '*.txt' },
        },
      ],
    },
    { content: [{ type: 'text', text: 'Searched.' }] },
  ]);
  await start(page);
  await sendPrompt(page, 'Search.');
  await expect(toolCard(page, 'toolu_budget')).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  const since = await pageNow(page);
  const roundTrip = await responsiveness(page);
  await waitIdle(page);
  const { longest, count } = await longestSince(page, since);
  info.annotations.push({
    type: 'figures',
    description: `grep budget: round trip while running ${roundTrip} ms; long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  const text = resultText(toolResultFor(api.requests[2], 'toolu_budget') ?? {});
  expect(text).toContain(`${ROOT}/plain.txt`);
  expect(text).toMatch(/1 file not searched: the pattern ran over \d+ s/);
  expect(text).toContain(`Skipped: ${ROOT}/redos.txt`);
  expect(roundTrip).toBeLessThan(FREEZE_MS);
  expect(longest).toBeLessThan(FREEZE_MS);
});

test('a 190 kB file opened in the viewer, then a runaway: highlighted off the page, all its text shown, Esc stops the run', async ({
  page,
}, info) => {
  // 3,800 lines of JavaScript (~190 kB, under the viewer's cap): highlighted and rendered on the page's
  // thread, one task took over 5 s in Chromium. Made by awk in the sandbox (a Write of it would stream
  // 190 kB of input for seconds); the same lines here, to check the viewer shows every character.
  const line = (i: number) => `export const v${i} = ${i} * 7; // MARK_${i % 13} "s"`;
  const content = `${Array.from({ length: 3_800 }, (_, i) => line(i)).join('\n')}\n`;
  const awk = `seq 0 3799 | awk '{ print "export const v" $1 " = " $1 " * 7; // MARK_" ($1 % 13) " \\"s\\"" }' > ${ROOT}/view.js`;
  let opened!: () => void;
  const viewerOpened = new Promise<void>((resolve) => {
    opened = resolve;
  });
  api.script([
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_view',
          name: 'Bash',
          input: { command: awk },
        },
      ],
    },
    async () => {
      await viewerOpened;
      return {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_loop',
            name: 'Bash',
            input: { command: `echo looping; echo x | sed ':a;s/x/x/;ta'` },
          },
        ],
      };
    },
  ]);
  await start(page);
  await sendPrompt(page, 'Write it, then loop.');
  const file = page.locator('[data-testid="file-item"][data-path="view.js"]');
  const since = await pageNow(page);
  await file.click({ timeout: 30_000 });
  const code = page.getByTestId('file-content').locator('code');
  // Until the figures are taken the test waits in the page (waitForFunction with a cheap predicate):
  // Playwright's locator checks walk the 190 kB highlighted DOM in the page's tasks, over 50 ms each
  // (seen in a Chrome trace), and would be counted as the app's.
  const inPage = (predicate: string) =>
    page.waitForFunction(predicate, undefined, { timeout: 30_000, polling: 50 });
  await inPage(`!!document.querySelector('[data-testid="file-content"] code')`);
  opened();
  await inPage(
    `document.querySelector('[data-tool-use-id="toolu_loop"]')?.textContent?.includes('looping') === true`,
  );
  const roundTrip = await responsiveness(page);
  const escToStop = await escAndWait(page, inPage);
  await inPage(
    `document.querySelector('[data-tool-use-id="toolu_loop"]')?.getAttribute('data-status') === 'interrupted' &&
     document.querySelector('[data-testid="file-content"] code')?.getAttribute('data-highlighted') === 'yes'`,
  );
  const { longest, count } = await longestSince(page, since);
  await expect(toolCard(page, 'toolu_loop')).toHaveAttribute('data-status', 'interrupted');
  info.annotations.push({
    type: 'figures',
    description: `190 kB file in the viewer, then a runaway: round trip ${roundTrip} ms; Esc→stopped ${escToStop} ms; long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  expect(await code.textContent()).toBe(content);
  await expect(code.locator('.hljs-keyword').first()).toHaveText('export');
  // Laid out in runs of whole lines, each skipped while off screen; scrolled anywhere, the line
  // numbers still sit beside their lines.
  const runs = await code.locator('.code-lines').allTextContents();
  expect(runs.length).toBeGreaterThan(10);
  expect(runs.every((r) => r.endsWith('\n'))).toBe(true);
  for (const at of [0.37, 0.81, 1]) {
    const lines = await page.evaluate(async (f) => {
      const scroll = document.querySelector('.file-scroll') as HTMLElement;
      scroll.scrollTop = (scroll.scrollHeight - scroll.clientHeight) * f;
      // The runs that come on screen are laid out at the next frames.
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
      const gutter = document.querySelector('.file-gutter') as HTMLElement;
      const code = document.querySelector('[data-testid="file-content"] code') as HTMLElement;
      const style = getComputedStyle(gutter);
      // A row near the bottom of the view, by the gutter's geometry (one number per line box), and
      // the middle of that row.
      const top = gutter.getBoundingClientRect().top + Number.parseFloat(style.paddingTop);
      const lineHeight = Number.parseFloat(style.lineHeight);
      const gutterLine = Math.floor((scroll.getBoundingClientRect().bottom - 30 - top) / lineHeight) + 1;
      const y = top + (gutterLine - 0.5) * lineHeight;
      // The file's line at y: the characters of the code before the caret there, counted.
      const caret = document.caretRangeFromPoint(code.getBoundingClientRect().left + 1, y);
      if (!caret || !code.contains(caret.startContainer)) return { gutterLine, codeLine: -1 };
      const before = document.createRange();
      before.setStart(code, 0);
      before.setEnd(caret.startContainer, caret.startOffset);
      return { gutterLine, codeLine: before.toString().split('\n').length };
    }, at);
    expect(lines.codeLine, `scrolled to ${at}`).toBe(lines.gutterLine);
  }
  expect(roundTrip).toBeLessThan(FREEZE_MS);
  expect(longest).toBeLessThan(FREEZE_MS);
  expect(escToStop).toBeLessThan(ESC_STOP_LIMIT_MS);
});

test('Write 500 directories deep: refused at once with a clear error, the page never blocks', async ({
  page,
}, info) => {
  const deep = `${ROOT}/${Array.from({ length: 500 }, (_, i) => `d${i}`).join('/')}/f.txt`;
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_deep', name: 'Write', input: { file_path: deep, content: 'x' } },
      ],
    },
    { content: [{ type: 'text', text: 'Done.' }] },
  ]);
  await start(page);
  const since = await pageNow(page);
  await sendPrompt(page, 'Write it.');
  await waitIdle(page);
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Done.');
  const elapsed = Math.round((await pageNow(page)) - since);
  const { longest, count } = await longestSince(page, since);
  const result = toolResultFor(api.requests[1], 'toolu_deep');
  info.annotations.push({
    type: 'figures',
    description: `write 500 deep: prompt → idle ${elapsed} ms; long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  expect(result?.is_error).toBe(true);
  expect(resultText(result ?? {})).toMatch(/deep|levels|too long/i);
  expect(longest).toBeLessThan(FREEZE_MS);
});

test('ToolSearch with one 100,000-character word: the page stays responsive', async ({ page }, info) => {
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_word', name: 'ToolSearch', input: { query: 'q'.repeat(100_000) } },
      ],
    },
    { content: [{ type: 'text', text: 'Searched.' }] },
  ]);
  await start(page);
  const since = await pageNow(page);
  await sendPrompt(page, 'Find a tool.');
  const card = toolCard(page, 'toolu_word');
  await expect(card).toBeVisible();
  const roundTrip = await responsiveness(page);
  await waitIdle(page);
  const elapsed = Math.round((await pageNow(page)) - since);
  const { longest, count } = await longestSince(page, since);
  info.annotations.push({
    type: 'figures',
    description: `toolsearch 100k word: round trip while running ${roundTrip} ms; prompt → idle ${elapsed} ms; long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Searched.');
  // Measured only: ToolSearch's tokenizer is another change's (src/tools/tool-search). The page must
  // still answer and the session carry on; the longest task is in the figures.
  expect(toolResultFor(api.requests[1], 'toolu_word')).toBeDefined();
});

/**
 * An SSE stream of one assistant message whose only block is a Read tool_use with `inputJson` as its
 * input, sent in 1,000-character input_json_delta chunks. Node's JSON.stringify cannot write an input
 * 10,000 levels deep (its stack ends first), so this stream is written by hand as text.
 */
function rawToolUseStream(id: string, inputJson: string): string {
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_deep',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    ],
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id, name: 'Read', input: {} },
      },
    ],
  ];
  for (let i = 0; i < inputJson.length; i += 1_000) {
    events.push([
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: inputJson.slice(i, i + 1_000) },
      },
    ]);
  }
  events.push(
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 9 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  );
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

test('a tool_use input nested 10,000 levels deep: a clear error, and the session keeps working', async ({
  page,
}, info) => {
  const depth = 10_000;
  const inputJson = `{"file_path":"${ROOT}/x","extra":${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}}`;
  // The first answer is the hostile endpoint's (valid JSON, 10,000 levels); the rest come from the mock.
  let served = false;
  await page.route(`${api.url}/v1/messages*`, async (route) => {
    if (served || route.request().method() !== 'POST') return route.fallback();
    served = true;
    await route.fulfill({
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': '*',
        'request-id': 'req_deep',
      },
      body: rawToolUseStream('toolu_nest', inputJson),
    });
  });
  api.script([
    { content: [{ type: 'text', text: 'Handled.' }] },
    { content: [{ type: 'text', text: 'Next prompt works.' }] },
  ]);
  await start(page);
  const since = await pageNow(page);
  await sendPrompt(page, 'Read it.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Handled.', { timeout: 20_000 });
  await waitIdle(page);
  const elapsed = Math.round((await pageNow(page)) - since);
  const { longest, count } = await longestSince(page, since);
  info.annotations.push({
    type: 'figures',
    description: `tool_use 10,000 deep: prompt → idle ${elapsed} ms; long tasks ${count}, longest ${longest} ms`,
  });
  console.log(info.annotations.at(-1)?.description);
  expect(served).toBe(true);
  const result = toolResultFor(api.requests[0], 'toolu_nest');
  expect(result?.is_error).toBe(true);
  expect(resultText(result ?? {})).toMatch(/nested more than/);
  expect(longest).toBeLessThan(FREEZE_MS);

  await sendPrompt(page, 'And now?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Next prompt works.');
  expect(api.requests.map((r) => r.status)).toEqual([200, 200]);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});

test('Bash runaways that never yield (a sed loop, a node busy loop): Esc stops each; the sandbox goes on with what was written before', async ({
  page,
}, info) => {
  const runaways = [
    {
      id: 'toolu_sed',
      command: `echo "written before" > ${ROOT}/before.txt; echo looping; echo x | sed ':a;s/x/x/;ta'`,
      // The sed loop starts once the file is written (its card shows what was printed before it).
      started: () => expect(toolCard(page, 'toolu_sed')).toContainText('looping'),
    },
    { id: 'toolu_node', command: `node -e 'while (true) {}'`, started: async () => {} },
  ];
  await start(page);
  const figures: string[] = [];
  for (const r of runaways) {
    api.script([{ content: [{ type: 'tool_use', id: r.id, name: 'Bash', input: { command: r.command } }] }]);
    await sendPrompt(page, 'Run it.');
    const card = toolCard(page, r.id);
    await expect(card).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
    await r.started();
    const since = await pageNow(page);
    const roundTrip = await responsiveness(page);
    const escToStop = await escAndWait(page);
    await expect(card).not.toHaveAttribute('data-status', 'running');
    const { longest } = await longestSince(page, since);
    figures.push(
      `${r.id}: round trip ${roundTrip} ms, Esc→stopped ${escToStop} ms, longest task ${longest} ms`,
    );
    expect(roundTrip).toBeLessThan(FREEZE_MS);
    expect(escToStop).toBeLessThan(ESC_STOP_LIMIT_MS);
  }
  info.annotations.push({ type: 'figures', description: `bash runaways: ${figures.join('; ')}` });
  console.log(info.annotations.at(-1)?.description);
  // The sandbox worker the sed loop blocked was replaced: the next command runs, and the file written
  // just before the loop is there.
  api.script([
    {
      content: [
        { type: 'tool_use', id: 'toolu_after', name: 'Bash', input: { command: `cat ${ROOT}/before.txt` } },
      ],
    },
    { content: [{ type: 'text', text: 'Carried on.' }] },
  ]);
  await sendPrompt(page, 'Still there?');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('Carried on.');
  const last = api.requests.at(-1);
  const after = last && toolResultFor(last, 'toolu_after');
  expect(after?.is_error).not.toBe(true);
  expect(after && resultText(after)).toContain('written before');
});
