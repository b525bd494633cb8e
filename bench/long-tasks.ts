/**
 * Main-thread long tasks (over 50 ms, the browser's own `longtask` entries) in Chromium on a production
 * build, measured side by side in one run:
 * - a scripted agent session against the mock Messages API (e2e/mock-api): heavy Bash (a 3,000-line
 *   shell loop, cat/sort/uniq/grep/wc over the results), 40 Writes of 200 lines and four of ~250 kB,
 *   Grep in content and files mode,
 *   and the hostile cases of issue 17 (a Write 500 directories deep, a Grep `(a+)+$` past its time
 *   budget, a tool_use input nested 10,000 levels deep), with the sandbox in its worker
 *   (`?sandbox-thread=worker`, the default) and on the page's thread (`?sandbox-thread=main`), runs
 *   alternated; every run checks the same tool results came back;
 * - after each session, the heavy render on the page: a 190 kB JavaScript file (written in the session)
 *   opened in the file viewer until it is highlighted, then the fold of its Write's 3,800-row diff
 *   opened (issue 17: highlighting and rendering large inputs on the page's thread);
 * - on a bench page (bench/long-tasks-page): the round trip of one file operation through the worker vs
 *   on the page's thread, and the longest task while one heavy command runs on each.
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { type MockApi, startMockApi } from '../e2e/mock-api/server.ts';
import type { TurnSpec } from '../e2e/mock-api/types.ts';
import { buildAndPreview, launchChromium } from './preview-build.ts';
import { median, ms, ratio, table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title = 'Main-thread long tasks in a heavy session: sandbox in a worker vs on the page';

const PORT = 4403;
/** Sessions per variant (alternated: worker, main, worker, main, ...). */
const RUNS = 2;
const ROOT = '/home/user/project';
/** The request (0-based) answered by the hand-written 10,000-levels stream instead of the mock. */
const DEEP_REQUEST = 8;
/** Lines of each of the four big Writes (~50 bytes a line). */
const BIG_LINES = 1_000;
/** Lines of the file opened in the viewer after the session (~50 bytes a line: ~190 kB, under the viewer's cap). */
const VIEW_LINES = 3_800;
/** A session that has not ended by then is stuck (a heavy one takes well under a minute). */
const SESSION_TIMEOUT_MS = 240_000;

interface Session {
  longTasks: number;
  longest: number;
  total: number;
  wallMs: number;
  /** The heavy render after the session (viewer + open diff). */
  render: { longTasks: number; longest: number; wallMs: number };
}

/** The session the mock model plays; the request DEEP_REQUEST is answered by `deepStream` in between. */
function script(): TurnSpec[] {
  const big = (n: number) =>
    Array.from(
      { length: BIG_LINES },
      (_, i) => `export const v${n}_${i} = ${i} * 7; // MARKER_${i % 11}`,
    ).join('\n');
  const tool = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });
  return [
    {
      content: [
        tool('toolu_tree', 'Bash', {
          command: `cd ${ROOT} && for i in $(seq 1 3000); do echo "item $i MARKER_$((i % 7)) $((i * 31 % 97))"; done | sort -k4 -n | uniq | wc -l && seq 1 3000 | awk '{ print "item " $1 " MARKER_" ($1 % 7) }' > items.txt && wc -l items.txt`,
        }),
      ],
    },
    {
      content: Array.from({ length: 40 }, (_, n) =>
        tool(`toolu_small${n}`, 'Write', {
          file_path: `${ROOT}/gen/f${n}.txt`,
          content: Array.from({ length: 200 }, (_, i) => `item ${n}-${i} MARKER_${(n + i) % 7}`).join('\n'),
        }),
      ),
    },
    {
      content: [0, 1, 2, 3].map((n) =>
        tool(`toolu_big${n}`, 'Write', { file_path: `${ROOT}/big${n}.js`, content: big(n) }),
      ),
    },
    {
      content: [
        tool('toolu_view', 'Write', {
          file_path: `${ROOT}/view.js`,
          content: Array.from(
            { length: VIEW_LINES },
            (_, i) => `export const w${i} = ${i} * 7; // MARKER_${i % 11} "s"`,
          ).join('\n'),
        }),
      ],
    },
    {
      content: [
        tool('toolu_grep_content', 'Grep', {
          pattern: 'MARKER_3',
          path: `${ROOT}/gen`,
          output_mode: 'content',
          '-n': true,
        }),
        tool('toolu_grep_regex', 'Grep', {
          pattern: 'v[0-9]_[0-9]+7 ',
          path: ROOT,
          output_mode: 'files_with_matches',
        }),
      ],
    },
    {
      content: [
        tool('toolu_pipe', 'Bash', {
          command: `cd ${ROOT} && cat gen/*.txt items.txt | sort -k3 -n | uniq -c | wc -l; grep -c MARKER_3 items.txt; wc -l big*.js`,
        }),
      ],
    },
    {
      content: [
        tool('toolu_deep_path', 'Write', {
          file_path: `${ROOT}/${Array.from({ length: 500 }, (_, i) => `d${i}`).join('/')}/f.txt`,
          content: 'x',
        }),
        tool('toolu_redos_file', 'Write', {
          file_path: `${ROOT}/redos/r.txt`,
          content: `${'a'.repeat(34)}!\n`,
        }),
      ],
    },
    {
      content: [
        tool('toolu_redos', 'Grep', { pattern: '(a+)+$', path: `${ROOT}/redos`, output_mode: 'content' }),
      ],
    },
    // Request DEEP_REQUEST is the 10,000-levels input (served by the route); then:
    { content: [{ type: 'text', text: 'Session done.' }] },
  ];
}

/** One SSE reply whose only block is a Read tool_use with `inputJson` as its input, in 1,000-char deltas. */
function deepStream(): string {
  const depth = 10_000;
  const inputJson = `{"file_path":"${ROOT}/x","extra":${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}}`;
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_deep',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_nest', name: 'Read', input: {} },
    },
  ];
  for (let i = 0; i < inputJson.length; i += 1_000) {
    const partial_json = inputJson.slice(i, i + 1_000);
    events.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json } });
  }
  events.push(
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: 'message_stop' },
  );
  return events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** How often the page is asked whether the session ended (ms). */
const POLL_MS = 250;

/** In the page: the last reply is shown and the turn is over (no Stop button). */
function sessionEnded(): boolean {
  if (document.querySelector('[data-testid="stop-button"]')) return false;
  const texts = document.querySelectorAll('[data-testid="assistant-text"]');
  return texts[texts.length - 1]?.textContent?.includes('Session done.') === true;
}

/** Tool results that must be errors (hostile inputs refused); every other call must succeed. */
const EXPECTED_ERRORS = new Set(['toolu_deep_path', 'toolu_nest']);

function checkResults(api: MockApi): void {
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const req of api.requests)
    for (const m of req.body.messages)
      if (typeof m.content !== 'string')
        for (const b of m.content)
          if (b.type === 'tool_result')
            results.set(b.tool_use_id, { isError: b.is_error === true, text: JSON.stringify(b.content) });
  const expected = script()
    .flatMap((t) => t.content ?? [])
    .flatMap((b) => (b.type === 'tool_use' && b.id ? [b.id] : []));
  for (const id of [...expected, 'toolu_nest']) {
    const result = results.get(id);
    if (!result) throw new Error(`no tool result for ${id}`);
    if (result.isError !== EXPECTED_ERRORS.has(id))
      throw new Error(`${id}: is_error ${result.isError}: ${result.text.slice(0, 300)}`);
  }
  // The ReDoS file is skipped after Grep's time budget, with a note (not an error: other files may match).
  if (!results.get('toolu_redos')?.text.includes('not searched'))
    throw new Error('the (a+)+$ file was searched');
}

async function session(
  browser: Browser,
  base: string,
  api: MockApi,
  thread: 'worker' | 'main',
): Promise<Session> {
  api.reset();
  api.script(script());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  let posts = 0;
  await page.route(`${api.url}/v1/messages*`, async (route) => {
    const request = route.request();
    const isMessages = request.method() === 'POST' && new URL(request.url()).pathname === '/v1/messages';
    if (!isMessages || posts++ !== DEEP_REQUEST) return route.fallback();
    await route.fulfill({
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': '*',
      },
      body: deepStream(),
    });
  });
  try {
    await page.goto(`${base}/?sandbox-thread=${thread}`);
    await page.getByTestId('file-item').first().waitFor({ timeout: 60_000 });
    await connect(page, api);
    await page.getByTestId('mode-switch').selectOption('bypassPermissions');
    // Let the page settle after boot, so the figures are the session's.
    await page.waitForTimeout(1_000);
    const since = await page.evaluate(() => performance.now());
    const input = page.getByTestId('prompt-input');
    await input.fill('Build the tree, write the files, search them.');
    await input.press('Enter');
    // Waited for with a cheap predicate polled at an interval: a Playwright locator polls with its
    // selector engine, whose every poll walks the DOM of 50 cards and is itself a long task of the page.
    await page
      .waitForFunction(sessionEnded, undefined, { timeout: SESSION_TIMEOUT_MS, polling: POLL_MS })
      .catch(async (err: unknown) => {
        const shot = join(tmpdir(), `tabcode-long-tasks-${thread}.png`);
        await page.screenshot({ path: shot });
        throw new Error(
          `the ${thread} session did not finish (${api.requests.length} requests; screenshot ${shot}): ${err}`,
        );
      });
    const wallMs = (await page.evaluate(() => performance.now())) - since;
    const tasks = await page.evaluate(tasksSince, since);
    checkResults(api);
    const render = await heavyRender(page);
    process.stderr.write(
      `long-tasks: ${thread} session ${Math.round(wallMs)} ms, ${tasks.length} long tasks\n`,
    );
    return {
      longTasks: tasks.length,
      longest: Math.max(0, ...tasks),
      total: tasks.reduce((a, b) => a + b, 0),
      wallMs,
      render,
    };
  } finally {
    await context.close();
  }
}

/** In the page: the long tasks that started at or after `t` (durations). */
function tasksSince(t: number): number[] {
  return (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks
    .filter((x) => x.start >= t)
    .map((x) => x.duration);
}

/**
 * After the session: view.js opened in the file viewer until highlighted, then its Write's diff opened
 * (3,800 rows) until every row is there. Returns the long tasks over that time.
 */
async function heavyRender(page: Page): Promise<Session['render']> {
  await page.waitForTimeout(1_000);
  const since = await page.evaluate(() => performance.now());
  await page.locator('[data-testid="file-item"][data-path="view.js"]').click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="file-content"] code')?.getAttribute('data-highlighted') === 'yes',
    undefined,
    { timeout: 60_000, polling: POLL_MS },
  );
  await page
    .locator('[data-testid="tool-card"][data-tool-use-id="toolu_view"] [data-testid="fold-toggle"]')
    .click();
  await page.waitForFunction(
    (n) =>
      document.querySelectorAll('[data-tool-use-id="toolu_view"] .diff-line[data-diff-op="add"]').length >= n,
    VIEW_LINES,
    { timeout: 60_000, polling: POLL_MS },
  );
  await page.waitForTimeout(500);
  const wallMs = (await page.evaluate(() => performance.now())) - since;
  const tasks = await page.evaluate(tasksSince, since);
  return { longTasks: tasks.length, longest: Math.max(0, ...tasks), wallMs };
}

async function connect(page: Page, api: MockApi): Promise<void> {
  await page.getByTestId('settings-button').click();
  await page.getByTestId('api-key-input').fill('test');
  await page.getByTestId('base-url-input').fill(api.url);
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-dialog').waitFor({ state: 'hidden' });
}

async function roundTrips(browser: Browser, base: string): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/bench/long-tasks-page/index.html`);
  await page.waitForFunction(() => window.benchResult !== undefined, undefined, { timeout: 300_000 });
  const r = (await page.evaluate(() => window.benchResult)) as Record<string, number | string>;
  await context.close();
  if (typeof r.error === 'string') throw new Error(r.error);
  const n = r as Record<string, number>;
  const row = (op: string, label: string) => [
    label,
    ms(n[`worker.${op}`]),
    ms(n[`main.${op}`]),
    ratio(n[`worker.${op}`], n[`main.${op}`]),
  ];
  return [
    'one operation on a small file, median of 300 (bench page, same sandbox code on each thread):',
    ...table(
      ['operation', 'through the worker', 'on the page', 'worker / page'],
      [
        row('readFile', 'readFile'),
        row('writeFile', 'writeFile'),
        row('stat', 'stat'),
        row('exec', "exec('true')"),
      ],
    ),
    `one heavy command (a 3,000-iteration shell loop, then sort | uniq | wc): worker ${ms(n['worker.heavyMs'])}, ` +
      `longest main-thread task ${ms(n['worker.heavyLongest'])} (${n['worker.heavyLongTasks']} long tasks); ` +
      `page ${ms(n['main.heavyMs'])}, longest ${ms(n['main.heavyLongest'])} (${n['main.heavyLongTasks']} long tasks)`,
  ];
}

export async function run(ctx: BenchContext): Promise<string[]> {
  const app = await buildAndPreview(ctx.root, PORT, {
    main: resolve(ctx.root, 'index.html'),
    page: resolve(ctx.root, 'bench/long-tasks-page/index.html'),
  });
  const base = app.base;
  let api: MockApi | undefined;
  let browser: Browser | undefined;
  try {
    api = await startMockApi();
    browser = await launchChromium();
    const runs: Record<'worker' | 'main', Session[]> = { worker: [], main: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const thread of ['worker', 'main'] as const)
        runs[thread].push(await session(browser, base, api, thread));
    }
    const rows = (['worker', 'main'] as const).map((thread) => {
      const s = runs[thread];
      return [
        thread === 'worker'
          ? 'sandbox in its worker (default)'
          : 'sandbox on the page (?sandbox-thread=main)',
        s.map((x) => x.longTasks).join(', '),
        s.map((x) => ms(x.longest)).join(', '),
        ms(median(s.map((x) => x.total))),
        ms(median(s.map((x) => x.wallMs))),
      ];
    });
    const renderRows = (['worker', 'main'] as const).map((thread) => {
      const s = runs[thread].map((x) => x.render);
      return [
        thread === 'worker' ? 'after the worker session' : 'after the page session',
        s.map((x) => x.longTasks).join(', '),
        s.map((x) => ms(x.longest)).join(', '),
        ms(median(s.map((x) => x.wallMs))),
      ];
    });
    return [
      `Chromium ${browser.version()}, production build; one session = 10 model turns, 54 tool calls (3 hostile), each run checked`,
      ...table(
        [
          'session',
          'long tasks (per run)',
          'longest (per run)',
          'time in long tasks (median)',
          'prompt → done (median)',
        ],
        rows,
      ),
      '',
      `heavy render after each session: a ${VIEW_LINES.toLocaleString('en-US')}-line (~190 kB) file opened in the viewer until highlighted, then its Write's diff opened (all rows shown):`,
      ...table(
        ['render', 'long tasks (per run)', 'longest (per run)', 'click → all shown (median)'],
        renderRows,
      ),
      '',
      ...(await roundTrips(browser, base)),
    ];
  } finally {
    await browser?.close();
    await api?.close();
    await app.close();
  }
}
