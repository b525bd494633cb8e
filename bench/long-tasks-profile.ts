/**
 * Finds what blocks the page (issue 17: no tool input may block the main thread over 50 ms): drives the
 * built app in Chromium through hostile and large inputs against the mock Messages API (e2e/mock-api),
 * records main-thread long tasks (PerformanceObserver('longtask')) and a CPU profile (CDP, 0.5 ms
 * samples), and prints, per case, the long tasks with the functions that took their time (self and
 * inclusive). Not part of `npm run bench` (a diagnostic, its figures include the profiler's overhead;
 * `--no-profile` gives clean counts).
 *
 *   npx tsx bench/long-tasks-profile.ts [--dist DIR] [--port N] [--only CASE] [--no-profile] [--trace]
 *
 * `--trace` also records a Chrome trace of the run and breaks each main-thread task over 50 ms into the
 * renderer's own work (style, layout, text shaping, paint, GC...), which a CPU profile does not show, and
 * lists the page's longest text nodes (what the layout had to shape).
 *
 * Without --dist it builds the app unminified (function names kept) into a temporary folder.
 * Cases: read-5mb (a ~5 MB file made by Bash, Read, then shown in the file viewer), write-2mb (a Write of
 * ~1.9 MB, its card's fold opened), write-1line (a Write of one 1.5 MB line, then the file in the viewer), edit-1mb (Edits on a 1 MB file: one line, replace_all, a 300 kB
 * old_string), edit-ask (the same asked for in default mode: the permission prompt shows the diff),
 * grep-100k (Grep content mode, 100,000 matching lines, head_limit 0), view-runaway (a 190 kB file opened
 * in the viewer during a run, then a command that never yields, stopped with Esc), reload-300 (a session of 300 model
 * turns, reloaded, then one more prompt).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, CDPSession, Page } from '@playwright/test';
import { build, preview } from 'vite';
import { type MockApi, startMockApi } from '../e2e/mock-api/server.ts';
import type { TurnSpec } from '../e2e/mock-api/types.ts';
import { launchChromium } from './preview-build.ts';

const ROOT = '/home/user/project';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const PROFILE = !process.argv.includes('--no-profile');
const TRACE = process.argv.includes('--trace');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * The main-thread tasks over 50 ms in a Chrome trace, each with the time its direct parts took (the
 * outermost events inside it) and its longest events at any depth.
 */
function traceTasks(json: string): string[] {
  const events = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return ['  (no renderer main thread in the trace)'];
  const own = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const ms = (us: number | undefined) => Math.round((us ?? 0) / 1000);
  const out: string[] = [];
  for (const task of own.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = own.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    const parts = new Map<string, number>();
    let reach = 0;
    for (const e of inside) {
      if (e.ts < reach) continue; // nested in a part already counted
      parts.set(e.name, (parts.get(e.name) ?? 0) + (e.dur ?? 0));
      reach = e.ts + (e.dur ?? 0);
    }
    const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 8);
    const longest = inside
      .filter((e) => (e.dur ?? 0) >= 5_000)
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 12);
    out.push(
      `  trace task ${ms(task.dur)} ms: ${top.map(([n, d]) => `${n} ${ms(d)}ms`).join(' | ')}`,
      `    longest inside: ${longest.map((e) => `${e.name} ${ms(e.dur)}ms`).join(' | ')}`,
    );
  }
  return out.length ? out : ['  (no task over 50 ms in the trace)'];
}

interface Task {
  start: number;
  duration: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const tool = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });
const text = (t: string): TurnSpec => ({ content: [{ type: 'text', text: t }] });

/** JS-looking lines of ~50 characters. */
const jsLines = (n: number, tag = 'v') =>
  Array.from({ length: n }, (_, i) => `export const ${tag}${i} = ${i} * 7; // MARK_${i % 13} "s"`).join('\n');

type RawBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

/**
 * Answers the page's next Messages request with `blocks`, streamed in DELTA_CHARS-character deltas (the
 * mock streams tool inputs 12 characters an event, which it cannot do for megabytes of input).
 */
async function serveRaw(page: Page, api: MockApi, blocks: RawBlock[]): Promise<void> {
  const DELTA_CHARS = 100;
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        id: `msg_raw${Date.now()}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
  ];
  blocks.forEach((b, index) => {
    const json = b.type === 'tool_use' ? JSON.stringify(b.input) : b.text;
    events.push({
      type: 'content_block_start',
      index,
      content_block:
        b.type === 'tool_use'
          ? { type: 'tool_use', id: b.id, name: b.name, input: {} }
          : { type: 'text', text: '' },
    });
    for (let i = 0; i < json.length; i += DELTA_CHARS) {
      const piece = json.slice(i, i + DELTA_CHARS);
      events.push({
        type: 'content_block_delta',
        index,
        delta:
          b.type === 'tool_use'
            ? { type: 'input_json_delta', partial_json: piece }
            : { type: 'text_delta', text: piece },
      });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: {
        stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        stop_sequence: null,
      },
      usage: { output_tokens: 9 },
    },
    { type: 'message_stop' },
  );
  const body = events
    .map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`)
    .join('');
  let served = false;
  await page.route(`${api.url}/v1/messages*`, async (route) => {
    const request = route.request();
    const isMessages = request.method() === 'POST' && new URL(request.url()).pathname === '/v1/messages';
    if (served || !isMessages) return route.fallback();
    served = true;
    await route.fulfill({
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': '*',
      },
      body,
    });
  });
}

/** In the page: a turn is over (no Stop button) and the last reply says `done`. */
function ended(done: string): boolean {
  if (document.querySelector('[data-testid="stop-button"]')) return false;
  const texts = document.querySelectorAll('[data-testid="assistant-text"]');
  return texts[texts.length - 1]?.textContent?.includes(done) === true;
}

async function waitEnded(page: Page, done: string, timeout = 240_000): Promise<void> {
  await page.waitForFunction(ended, done, { timeout, polling: 250 });
}

/** Waits until the file viewer's code is highlighted. */
async function waitHighlighted(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="file-content"] code')?.getAttribute('data-highlighted') === 'yes',
    undefined,
    { timeout: 60_000, polling: 50 },
  );
}

async function prompt(page: Page, textIn: string): Promise<void> {
  const input = page.getByTestId('prompt-input');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="prompt-input"]')?.getAttribute('data-ready') === 'true',
    undefined,
    { polling: 250 },
  );
  await input.fill(textIn);
  await input.press('Enter');
}

interface Case {
  name: string;
  mode?: 'bypassPermissions' | 'default';
  /** Setup (not measured). */
  before?(page: Page, api: MockApi): Promise<void>;
  /** The measured part. */
  run(page: Page, api: MockApi): Promise<void>;
}

const CASES: Case[] = [
  {
    name: 'read-5mb',
    async before(page, api) {
      api.script([
        {
          content: [
            tool('toolu_mk', 'Bash', {
              command: `cd ${ROOT} && seq 1 100000 | awk '{ print "export const v" $1 " = " $1 " * 7; // a comment to pad the line " $1 }' > big.js && wc -c big.js`,
            }),
          ],
        },
        text('Made.'),
      ]);
      await prompt(page, 'Make it.');
      await waitEnded(page, 'Made.');
    },
    async run(page, api) {
      api.script([{ content: [tool('toolu_read', 'Read', { file_path: `${ROOT}/big.js` })] }, text('Read.')]);
      await prompt(page, 'Read it.');
      await waitEnded(page, 'Read.');
      await page.locator('[data-testid="file-item"][data-path="big.js"]').click();
      const t0 = Date.now();
      // Its first 200,000 characters, highlighted, and a note.
      await waitHighlighted(page);
      console.log(`  read-5mb: click → highlighted ${Date.now() - t0} ms`);
      await page.waitForTimeout(1_000);
    },
  },
  {
    name: 'view-190k',
    async before(page, api) {
      api.script([
        { content: [tool('toolu_mk', 'Write', { file_path: `${ROOT}/mid.js`, content: jsLines(3_800) })] },
        text('Made.'),
      ]);
      await prompt(page, 'Make it.');
      await waitEnded(page, 'Made.');
    },
    async run(page) {
      const t0 = Date.now();
      await page.locator('[data-testid="file-item"][data-path="mid.js"]').click();
      await waitHighlighted(page);
      console.log(`  view-190k: click → highlighted ${Date.now() - t0} ms`);
      await page.waitForTimeout(1_000);
    },
  },
  {
    // As e2e/hostile-freeze.spec.ts: the file opened in the viewer while a run goes on, then a command
    // that never yields, stopped with Esc (the sandbox worker is replaced), then the highlighting.
    name: 'view-runaway',
    async run(page, api) {
      // The file is made by awk in the sandbox (not a Write): the page learns of it from the sandbox.
      const awk = `seq 0 3799 | awk '{ print "export const v" $1 " = " $1 " * 7; // MARK_" ($1 % 13) " \\"s\\"" }' > ${ROOT}/view.js`;
      let opened!: () => void;
      const viewerOpened = new Promise<void>((resolve) => {
        opened = resolve;
      });
      api.script([
        { content: [tool('toolu_view', 'Bash', { command: awk })] },
        async () => {
          await viewerOpened;
          return {
            content: [tool('toolu_loop', 'Bash', { command: `echo looping; echo x | sed ':a;s/x/x/;ta'` })],
          };
        },
        text('Stopped.'),
      ]);
      await prompt(page, 'Write it, then loop.');
      await page.locator('[data-testid="file-item"][data-path="view.js"]').click({ timeout: 30_000 });
      await page.getByTestId('file-content').locator('code').waitFor({ state: 'attached' });
      opened();
      await page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="tool-card"][data-tool-use-id="toolu_loop"]')
            ?.textContent?.includes('looping') === true,
        undefined,
        { timeout: 30_000, polling: 50 },
      );
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('[data-testid="stop-button"]'), undefined, {
        timeout: 60_000,
        polling: 50,
      });
      await waitHighlighted(page);
      await page.waitForTimeout(1_000);
    },
  },
  {
    name: 'write-2mb',
    async run(page, api) {
      const content = jsLines(36_000).slice(0, 1_900_000);
      await serveRaw(page, api, [tool('toolu_w', 'Write', { file_path: `${ROOT}/w.js`, content })]);
      api.script([text('Wrote.')]);
      await prompt(page, 'Write it.');
      await waitEnded(page, 'Wrote.');
      const card = page.locator('[data-testid="tool-card"][data-tool-use-id="toolu_w"]');
      await card.getByTestId('fold-toggle').first().click();
      await page.waitForTimeout(1_000);
    },
  },
  {
    // A minified file: one line of 1.5 MB (a fold of lines does not cut it).
    name: 'write-1line',
    async run(page, api) {
      const content = `var a=${JSON.stringify(jsLines(30_000).slice(0, 1_500_000))};`;
      await serveRaw(page, api, [tool('toolu_w1', 'Write', { file_path: `${ROOT}/min.js`, content })]);
      api.script([text('Wrote.')]);
      await prompt(page, 'Write it.');
      await waitEnded(page, 'Wrote.');
      await page.waitForTimeout(1_000);
      // Then opened in the file viewer (which shows its first 200,000 characters).
      await page.locator('[data-testid="file-item"][data-path="min.js"]').click();
      await waitHighlighted(page);
      await page.waitForTimeout(1_000);
    },
  },
  {
    name: 'edit-1mb',
    async before(page, api) {
      api.script([
        { content: [tool('toolu_mk', 'Write', { file_path: `${ROOT}/e.js`, content: jsLines(20_000) })] },
        { content: [tool('toolu_rd', 'Read', { file_path: `${ROOT}/e.js`, limit: 10 })] },
        text('Ready.'),
      ]);
      await prompt(page, 'Prepare.');
      await waitEnded(page, 'Ready.');
    },
    async run(page, api) {
      const big = jsLines(20_000).slice(200_000, 500_000);
      const cut = big.slice(big.indexOf('\n') + 1, big.lastIndexOf('\n'));
      const after12 = cut
        .replace('export const v10000 = 10000 * 7;', 'export const v10000 = 1;')
        .replaceAll('MARK_3 ', 'MARK_X ');
      api.script([
        {
          content: [
            tool('toolu_e1', 'Edit', {
              file_path: `${ROOT}/e.js`,
              old_string: 'export const v10000 = 10000 * 7;',
              new_string: 'export const v10000 = 1;',
            }),
          ],
        },
        {
          content: [
            tool('toolu_e2', 'Edit', {
              file_path: `${ROOT}/e.js`,
              old_string: 'MARK_3 ',
              new_string: 'MARK_X ',
              replace_all: true,
            }),
          ],
        },
        {
          content: [
            tool('toolu_e3', 'Edit', {
              file_path: `${ROOT}/e.js`,
              // The file as the two Edits before left it (the cut spans line 10000).
              old_string: after12,
              new_string: after12.replaceAll('* 7', '* 8'),
            }),
          ],
        },
        text('Edited.'),
      ]);
      await prompt(page, 'Edit it.');
      await waitEnded(page, 'Edited.');
      await page.waitForTimeout(500);
    },
  },
  {
    name: 'edit-ask',
    mode: 'default',
    async before(page, api) {
      api.script([
        { content: [tool('toolu_mk', 'Write', { file_path: `${ROOT}/e.js`, content: jsLines(20_000) })] },
        { content: [tool('toolu_rd', 'Read', { file_path: `${ROOT}/e.js`, limit: 10 })] },
        text('Ready.'),
      ]);
      await page.getByTestId('mode-switch').selectOption('bypassPermissions');
      await prompt(page, 'Prepare.');
      await waitEnded(page, 'Ready.');
      await page.getByTestId('mode-switch').selectOption('default');
    },
    async run(page, api) {
      const big = jsLines(20_000).slice(200_000, 500_000);
      const cut = big.slice(big.indexOf('\n') + 1, big.lastIndexOf('\n'));
      api.script([
        {
          content: [
            tool('toolu_e3', 'Edit', {
              file_path: `${ROOT}/e.js`,
              old_string: cut,
              new_string: cut.replaceAll('* 7', '* 8'),
            }),
          ],
        },
        text('Edited.'),
      ]);
      await prompt(page, 'Edit it.');
      const allow = async (id: string, next?: () => Promise<void>) => {
        const req = page.locator(`[data-testid="permission-request"][data-tool-use-id="${id}"]`);
        await req.waitFor({ timeout: 60_000 });
        await page.waitForTimeout(500);
        await next?.();
        await req.getByTestId('permission-allow-once').click();
      };
      await allow('toolu_e3', () =>
        serveRaw(page, api, [
          tool('toolu_w2', 'Write', {
            file_path: `${ROOT}/e.js`,
            content: jsLines(36_000, 'q').slice(0, 1_900_000),
          }),
        ]),
      );
      await allow('toolu_w2');
      await waitEnded(page, 'Edited.');
      await page.waitForTimeout(500);
    },
  },
  {
    name: 'grep-100k',
    async before(page, api) {
      api.script([
        {
          content: [
            tool('toolu_mk', 'Bash', {
              command: `cd ${ROOT} && mkdir -p g && seq 1 100000 | awk '{ print "line " $1 " needle here" }' > g/a.txt && wc -l g/a.txt`,
            }),
          ],
        },
        text('Made.'),
      ]);
      await prompt(page, 'Make it.');
      await waitEnded(page, 'Made.');
    },
    async run(page, api) {
      api.script([
        {
          content: [
            tool('toolu_g', 'Grep', {
              pattern: 'needle',
              path: `${ROOT}/g`,
              output_mode: 'content',
              '-n': true,
              head_limit: 0,
            }),
          ],
        },
        text('Found.'),
      ]);
      await prompt(page, 'Search.');
      await waitEnded(page, 'Found.');
      await page.waitForTimeout(500);
    },
  },
  {
    name: 'reload-300',
    async before(page, api) {
      // 6 prompts of 49 tool turns and a text turn: 300 model turns (a prompt runs at most 50).
      for (let p = 0; p < Number(process.env.PROMPTS ?? 6); p++) {
        const turns: TurnSpec[] = [];
        for (let t = 0; t < 49; t++) {
          const n = p * 49 + t;
          turns.push(
            n % 7 === 3
              ? {
                  content: [
                    tool(`toolu_w${n}`, 'Write', {
                      file_path: `${ROOT}/t/f${n}.js`,
                      content: jsLines(120, `t${n}_`),
                    }),
                  ],
                }
              : {
                  content: [
                    { type: 'text', text: `Step ${n}: **checking** \`x\`.` },
                    tool(`toolu_b${n}`, 'Bash', { command: `echo step ${n}; seq 1 40` }),
                  ],
                },
          );
        }
        turns.push(text(`Prompt ${p} done.`));
        api.script(turns);
        await prompt(page, `Work ${p}.`);
        await waitEnded(page, `Prompt ${p} done.`);
      }
      await page.waitForFunction(
        () => document.querySelector('[data-testid="save-status"]')?.getAttribute('data-state') === 'saved',
        undefined,
        { timeout: 60_000, polling: 250 },
      );
    },
    async run(page, api) {
      await page.reload();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="tool-card"]').length > 0,
        undefined,
        { timeout: 60_000, polling: 250 },
      );
      await page.waitForTimeout(2_000);
      // The key was kept in the tab's memory only: given again.
      await page.getByTestId('settings-button').click();
      await page.getByTestId('api-key-input').fill('test');
      await page.getByTestId('base-url-input').fill(api.url);
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-dialog').waitFor({ state: 'hidden' });
      api.script([text('After reload.')]);
      await prompt(page, 'Again.');
      await waitEnded(page, 'After reload.');
      await page.waitForTimeout(500);
    },
  },
];

async function serve(dist: string, port: number) {
  return preview({
    root: resolve(import.meta.dirname, '..'),
    configFile: resolve(import.meta.dirname, '../vite.config.ts'),
    logLevel: 'error',
    build: { outDir: dist },
    preview: { port, strictPort: true },
  });
}

/** Functions by self and inclusive time over the samples in [from, to] (page ms). */
function attribute(profile: CpuProfile, offset: number, from: number, to: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => {
    const f = n.callFrame;
    const file = f.url.slice(f.url.lastIndexOf('/') + 1);
    return `${f.functionName || '(anon)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const at = t / 1000 - offset;
    if (at < from || at > to) continue;
    const dt = (profile.timeDeltas[i + 1] ?? 500) / 1000;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const l = label(node);
    self.set(l, (self.get(l) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id);
      if (!n) break;
      const k = label(n);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([k]) => !k.startsWith('(root)') && !k.startsWith('(program)') && !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${v.toFixed(0)}ms ${k}`);
  return { self: top(self, 6), incl: top(incl, 14) };
}

async function runCase(browser: Browser, base: string, api: MockApi, c: Case): Promise<string[]> {
  api.reset();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // tsx keeps function names with a `__name` helper that the page does not have.
  await page.addInitScript('globalThis.__name = (f) => f;');
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const out: string[] = [];
  try {
    await page.goto(`${base}/`);
    await page.getByTestId('file-item').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('settings-button').click();
    await page.getByTestId('api-key-input').fill('test');
    await page.getByTestId('base-url-input').fill(api.url);
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-dialog').waitFor({ state: 'hidden' });
    await page.getByTestId('mode-switch').selectOption(c.mode ?? 'bypassPermissions');
    await c.before?.(page, api);
    await page.waitForTimeout(1_000);
    let cdp: CDPSession | undefined;
    if (PROFILE) {
      cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    // performance.now() ↔ profiler clock: both count from the same monotonic clock; the offset is
    // taken from a sample of a marker function that spins for 30 ms at a known page time.
    const mark = await page.evaluate(() => {
      const t0 = performance.now();
      // A named function, to be found in the profile.
      const spin = function __align_marker() {
        while (performance.now() - t0 < 30) {}
      };
      spin();
      return t0;
    });
    const since = mark + 31;
    if (TRACE)
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'],
      });
    const wall = Date.now();
    await c.run(page, api);
    const wallMs = Date.now() - wall;
    const traced = TRACE ? traceTasks((await browser.stopTracing()).toString('utf8')) : [];
    if (TRACE) {
      // What the layout had to shape: the page's size and its longest text nodes.
      const dom = await page.evaluate(() => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const texts: { length: number; where: string }[] = [];
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          const text = n.textContent ?? '';
          const card = el?.closest('[data-testid="tool-card"]')?.getAttribute('data-tool-use-id');
          const tag = el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` : '?';
          const lines = text.split('\n').length;
          texts.push({
            length: text.length,
            where: `${tag} (${lines} lines${card ? `, card ${card}` : ''}) ${JSON.stringify(text.slice(0, 60))}`,
          });
        }
        texts.sort((a, b) => b.length - a.length);
        return { elements: document.getElementsByTagName('*').length, longest: texts.slice(0, 5) };
      });
      traced.push(
        `    dom: ${dom.elements} elements; longest text nodes: ${dom.longest.map((t) => `${t.length} in ${t.where}`).join(', ')}`,
      );
    }
    // A reload starts a new document (its own clock); tasks are read from the page that is there now.
    const tasks = (await page.evaluate(
      (t) => (window as unknown as { __longTasks: Task[] }).__longTasks.filter((x) => x.start >= t),
      c.name === 'reload-300' ? 0 : since,
    )) as Task[];
    let profile: CpuProfile | undefined;
    if (cdp) profile = ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile;
    const longest = Math.max(0, ...tasks.map((t) => t.duration));
    out.push(
      `${c.name}: ${tasks.length} long tasks, longest ${Math.round(longest)} ms, total ${Math.round(tasks.reduce((a, b) => a + b.duration, 0))} ms (case ${wallMs} ms)`,
    );
    out.push(...traced);
    if (profile && c.name !== 'reload-300') {
      // Offset: the marker's first sample is at page time ≈ mark.
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      let t = profile.startTime;
      let first: number | undefined;
      for (let i = 0; i < profile.samples.length; i++) {
        t += profile.timeDeltas[i];
        if (byId.get(profile.samples[i])?.callFrame.functionName === '__align_marker') {
          first = t / 1000;
          break;
        }
      }
      if (first === undefined) out.push('  (marker not found in the profile: no attribution)');
      else {
        const offset = first - mark;
        for (const task of tasks.sort((a, b) => b.duration - a.duration).slice(0, 6)) {
          const a = attribute(profile, offset, task.start, task.start + task.duration);
          out.push(`  task ${Math.round(task.duration)} ms at ${Math.round(task.start - since)} ms:`);
          out.push(`    self: ${a.self.join(' | ')}`);
          out.push(`    incl: ${a.incl.join(' | ')}`);
        }
      }
    } else if (profile) {
      // After a reload the marker is in the old document: the new document's tasks are listed with the
      // profile's heaviest functions overall since the reload.
      for (const task of tasks.sort((a, b) => b.duration - a.duration).slice(0, 8))
        out.push(`  task ${Math.round(task.duration)} ms at ${Math.round(task.start)} ms`);
      const a = attribute(profile, 0, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
      out.push(`  whole run self: ${a.self.join(' | ')}`);
      out.push(`  whole run incl: ${a.incl.join(' | ')}`);
    }
  } catch (err) {
    for (const r of api.requests)
      out.push(
        `  request: ${r.status} ${r.error ?? ''} ${JSON.stringify(r.response?.content.map((b) => b.type))}`,
      );
    const state = await page
      .evaluate(() => {
        const texts = [...document.querySelectorAll('[data-testid="assistant-text"]')];
        return {
          stopButton: Boolean(document.querySelector('[data-testid="stop-button"]')),
          assistantTexts: texts.length,
          lastAssistantText: texts.at(-1)?.textContent?.slice(0, 120),
          toolCards: document.querySelectorAll('[data-testid="tool-card"]').length,
        };
      })
      .catch((e: unknown) => String(e));
    out.push(`  page: ${JSON.stringify(state)}`);
    console.log(out.join('\n'));
    await page.screenshot({ path: join(tmpdir(), `tabcode-profile-${c.name}.png`) }).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
  return out;
}

async function main() {
  const port = Number(arg('port') ?? 4421);
  let dist = arg('dist');
  let work: string | undefined;
  if (!dist) {
    work = mkdtempSync(join(tmpdir(), 'tabcode-profile-'));
    dist = join(work, 'dist');
    process.env.NODE_ENV = 'production';
    await build({
      root: resolve(import.meta.dirname, '..'),
      configFile: resolve(import.meta.dirname, '../vite.config.ts'),
      logLevel: 'error',
      build: { outDir: dist, emptyOutDir: true, minify: false },
    });
  }
  const server = await serve(dist, port);
  // A window large enough for the inputs here: no auto-compaction eats the scripted turns.
  const api = await startMockApi({ contextWindow: 20_000_000 });
  const browser = await launchChromium();
  const only = arg('only');
  try {
    console.log(`Chromium ${browser.version()}, ${PROFILE ? 'profiled (0.5 ms samples)' : 'not profiled'}`);
    for (const c of CASES) {
      if (only && !only.split(',').includes(c.name)) continue;
      try {
        for (const line of await runCase(browser, `http://localhost:${port}`, api, c)) console.log(line);
      } catch (err) {
        console.log(`  (screenshot: ${join(tmpdir(), `tabcode-profile-${c.name}.png`)})`);
        console.log(`${c.name}: FAILED ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      }
    }
  } finally {
    await browser.close();
    await api.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
