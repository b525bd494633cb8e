/**
 * The workbench in Chromium, on a production build served by `vite preview` (COOP/COEP on):
 * - first-load JS: gzip bytes of the entry's static graph, and of every script fetched until the page is
 *   interactive (the `tabcode:interactive` mark: the agent session is up, the prompt box usable);
 * - time to interactive, median of 5 cold loads (fresh browser context each), with the default sandbox
 *   choice and with `?sandbox=just-bash`;
 * - a 2,000-message session (imported through the sessions list, then the page reloaded): time until the
 *   transcript is rendered, and long tasks (> 50 ms) while scrolling it from the bottom to the top,
 *   virtualized vs `?virtualize=off` (everything in the DOM) measured side by side;
 * - the cost of durability on that session, in Chromium's IndexedDB: persisting one transcript change and
 *   one tool result as the page does (only the changed entries, one transaction), p50/p95, against the
 *   whole record rewritten per change (the store's format 1) in the same run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { build } from 'vite';
import { toExport } from '../src/agent/session-export.ts';
import type { MessageParam } from '../src/core/messages.ts';
import { buildAndPreview, launchChromium } from './preview-build.ts';
import { median, ms, ratio, table } from './stats.ts';
import type { BenchContext } from './types.ts';
import type { StorageTimes } from './workbench-storage.ts';

export const title = 'Workbench in Chromium: first-load JS, time to interactive, a 2,000-message session';

const RUNS = 5;
const PORT = 4391;
const MESSAGES = 2000;

export async function run(ctx: BenchContext): Promise<string[]> {
  const app = await buildAndPreview(ctx.root, PORT);
  const lines: string[] = [];
  try {
    const browser = await launchChromium();
    try {
      lines.push(...firstLoadJs(app.outDir));
      lines.push('');
      lines.push(...(await timeToInteractive(browser, app.base)));
      lines.push('');
      lines.push(...(await longSession(browser, app.base, app.work)));
      lines.push('');
      lines.push(...(await durability(browser, app.base, ctx.root)));
    } finally {
      await browser.close();
    }
  } finally {
    await app.close();
  }
  return lines;
}

/** Gzip size of the entry script and everything it imports statically (what index.html makes the browser fetch). */
function firstLoadJs(outDir: string): string[] {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const seen = new Set<string>();
  // `./assets/…` (the config's relative base) or `/assets/…` (an absolute one).
  const queue = [...html.matchAll(/(?:src|href)="\.?\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  let raw = 0;
  let gz = 0;
  while (queue.length) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(outDir, file));
    raw += code.length;
    gz += gzipSync(code, { level: 9 }).length;
    // Static imports between chunks: `from"./x.js"` / `import"./x.js"` (dynamic import() excluded).
    for (const m of code.toString('utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      queue.push(`assets/${m[1]}`);
  }
  return [`first-load JS (entry + static imports, ${seen.size} files): ${kb(gz)} gzip (${kb(raw)} raw)`];
}

interface LoadStats {
  tti: number;
  fcp: number;
  scriptsGz: number;
  scripts: number;
}

async function coldLoad(browser: Browser, url: string): Promise<LoadStats> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const bodies: Promise<number>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script' && res.ok())
      bodies.push(
        res.body().then(
          (b) => gzipSync(b, { level: 9 }).length,
          () => 0,
        ),
      );
  });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('tabcode:interactive').length > 0, null, {
    timeout: 60_000,
  });
  const timing = await page.evaluate(() => ({
    tti: performance.getEntriesByName('tabcode:interactive')[0].startTime,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  }));
  const sizes = await Promise.all(bodies);
  await context.close();
  return { ...timing, scriptsGz: sizes.reduce((a, b) => a + b, 0), scripts: sizes.length };
}

async function timeToInteractive(browser: Browser, base: string): Promise<string[]> {
  const rows: (string | number)[][] = [];
  let justBash = 0;
  let scripts = '';
  for (const [label, path] of [
    ['?sandbox=just-bash', '/?sandbox=just-bash'],
    ['default (auto: tries WebContainer)', '/'],
  ] as const) {
    const runs: LoadStats[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await coldLoad(browser, base + path));
    const tti = median(runs.map((r) => r.tti));
    if (!justBash) {
      justBash = tti;
      scripts = `JS fetched until interactive: ${kb(median(runs.map((r) => r.scriptsGz)))} gzip in ${runs[0].scripts} scripts`;
    }
    rows.push([label, ms(median(runs.map((r) => r.fcp))), ms(tti), ratio(tti, justBash)]);
  }
  return [
    `time to interactive, median of ${RUNS} cold loads (fresh context, empty cache and IndexedDB):`,
    ...table(['page', 'first contentful paint', 'interactive', 'vs just-bash'], rows),
    scripts,
  ];
}

/** A long session as an export file: prompts, markdown replies, tool calls with results. */
function longSessionFile(): string {
  const messages: MessageParam[] = [];
  for (let i = 0; messages.length < MESSAGES; i++) {
    messages.push({
      role: 'user',
      content: [{ type: 'text', text: `Step ${i}: look at file${i % 7}.js and explain it.` }],
    });
    if (i % 3 === 0) {
      const id = `toolu_${String(i).padStart(6, '0')}`;
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: `Reading **file${i % 7}.js** first.` },
          { type: 'tool_use', id, name: 'Read', input: { file_path: `/home/user/project/file${i % 7}.js` } },
        ],
      });
      messages.push({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            content: Array.from({ length: 12 }, (_, n) => `${n + 1}\tconst v${n} = ${i * n};`).join('\n'),
          },
        ],
      });
    }
    messages.push({
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: `## Step ${i}\n\nThe file defines a few values:\n\n- \`v1\` is ${i}\n- \`v2\` is ${i * 2}\n\n\`\`\`js\nconst total = v1 + v2; // ${i * 3}\n\`\`\`\n\nSee [the docs](https://example.com/${i}).`,
        },
      ],
    });
  }
  messages.length = MESSAGES;
  if (messages[messages.length - 1].role === 'user') messages.pop();
  return toExport({
    id: 's_bench',
    title: 'A 2,000-message session',
    createdAt: Date.now(),
    updatedAt: Date.now(),
    messageCount: messages.length,
    messages,
    view: null,
    usage: [],
    turnOpen: false,
  });
}

interface ScrollStats {
  rendered: number;
  longTasks: number;
  blocking: number;
  worst: number;
  domNodes: number;
}

async function measureLongSession(page: Page, url: string): Promise<ScrollStats> {
  await page.goto(url);
  await page.waitForFunction(
    () => performance.getEntriesByName('tabcode:transcript-rendered').length > 0,
    null,
    { timeout: 120_000 },
  );
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="assistant-text"]').length > 0);
  const rendered = await page.evaluate(
    () => performance.getEntriesByName('tabcode:transcript-rendered')[0].startTime,
  );
  await page.waitForTimeout(500);
  return page
    .evaluate(async () => {
      const el = document.querySelector('[data-testid="transcript"]') as HTMLElement;
      const tasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push(e.duration);
      });
      observer.observe({ type: 'longtask', buffered: false });
      // Scroll from the bottom to the top one screen per frame pair, as a fast reader would.
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      el.scrollTop = el.scrollHeight;
      await frame();
      for (let step = 0; step < 400 && el.scrollTop > 0; step++) {
        el.scrollTop -= el.clientHeight * 0.9;
        await frame();
      }
      await new Promise((r) => setTimeout(r, 200));
      observer.disconnect();
      return {
        rendered: 0,
        longTasks: tasks.length,
        blocking: tasks.reduce((a, d) => a + Math.max(0, d - 50), 0),
        worst: Math.max(0, ...tasks),
        domNodes: document.querySelectorAll('*').length,
      };
    })
    .then((s) => ({ ...s, rendered }));
}

async function longSession(browser: Browser, base: string, work: string): Promise<string[]> {
  const file = join(work, 'long-session.json');
  writeFileSync(file, longSessionFile());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/?sandbox=just-bash`);
  await page.waitForFunction(() => performance.getEntriesByName('tabcode:interactive').length > 0, null, {
    timeout: 60_000,
  });
  await page.getByTestId('import-file').setInputFiles(file);
  await page.getByTestId('import-ok').waitFor({ timeout: 120_000 });
  await page.waitForFunction(
    () => document.querySelector('[data-testid="save-status"]')?.getAttribute('data-state') !== 'pending',
  );
  const virtual: ScrollStats[] = [];
  const full: ScrollStats[] = [];
  for (let i = 0; i < 3; i++) {
    virtual.push(await measureLongSession(page, `${base}/?sandbox=just-bash`));
    full.push(await measureLongSession(page, `${base}/?sandbox=just-bash&virtualize=off`));
  }
  await context.close();
  const pick = (runs: ScrollStats[], k: keyof ScrollStats) => median(runs.map((r) => r[k]));
  const row = (label: string, runs: ScrollStats[]) => [
    label,
    ms(pick(runs, 'rendered')),
    pick(runs, 'longTasks'),
    ms(pick(runs, 'blocking')),
    ms(pick(runs, 'worst')),
    pick(runs, 'domNodes'),
  ];
  return [
    `a ${MESSAGES}-message session (reloaded after import), median of 3:`,
    ...table(
      [
        'transcript',
        'rendered after',
        'long tasks scrolling',
        'blocking (>50 ms)',
        'worst task',
        'DOM nodes',
      ],
      [row('virtualized (default)', virtual), row('everything in the DOM', full)],
    ),
    `render time virtualized / full: ${ratio(pick(virtual, 'rendered'), pick(full, 'rendered'))}; long tasks while scrolling: ${pick(virtual, 'longTasks')} vs ${pick(full, 'longTasks')}`,
  ];
}

/** Persisting a change and a tool result on the 2,000-message session, in the browser's IndexedDB. */
async function durability(browser: Browser, base: string, root: string): Promise<string[]> {
  const bundled = await build({
    configFile: false,
    root,
    logLevel: 'error',
    build: {
      write: false,
      minify: false,
      lib: { entry: resolve(root, 'bench/workbench-storage.ts'), formats: ['iife'], name: 'tabcodeStorage' },
    },
  });
  const output = (Array.isArray(bundled) ? bundled[0] : bundled) as { output: { code?: string }[] };
  const code = output.output.find((o) => o.code)?.code ?? '';
  // The page's CSP allows no inline script; the bench's own storage code is injected as one.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${base}/?sandbox=just-bash`);
  await page.addScriptTag({ content: code });
  const runs = 40;
  const times = (await page.evaluate(
    ([text, n]) =>
      (
        globalThis as unknown as { tabcodeStorageBench: (t: string, n: number) => Promise<unknown> }
      ).tabcodeStorageBench(text, n),
    [longSessionFile(), runs] as const,
  )) as StorageTimes;
  await context.close();
  const p = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
  const row = (label: string, values: number[]) => [label, ms(p(values, 0.5)), ms(p(values, 0.95))];
  return [
    `cost of durability on the ${MESSAGES}-message session (${times.itemCount} view items), Chromium IndexedDB, ${runs} of each:`,
    ...table(
      ['persist', 'p50', 'p95'],
      [
        row('one transcript change (changed entries only)', times.change),
        row('one tool result (the message in progress)', times.toolResult),
        row('baseline: whole record per change (format 1)', times.wholeRecord),
      ],
    ),
    `a change costs ${ratio(p(times.change, 0.5), p(times.wholeRecord, 0.5))} of a whole-record write (p50); a tool result ${ratio(p(times.toolResult, 0.5), p(times.wholeRecord, 0.5))}`,
  ];
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
