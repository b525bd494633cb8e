/**
 * A docs page with tabcode playgrounds, in Chromium, each playing the example site's recorded replay
 * (examples/replays/) with no key and no network: the package (`<tabcode-playground>`, one script tag)
 * against the iframe (the app build's embed.html), with one and with two playgrounds on the page, cold
 * (a fresh browser context) and warm (the same page loaded again: the HTTP cache), measured in the same
 * run. For each: the JS the page fetched until every playground was interactive (painted with a usable
 * prompt box, gzip), and the time from navigation to the first replayed tool result (of every
 * playground) and to the end of the replays. Then the package checks (bench/embed-budget.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from '@playwright/test';
import { build } from 'vite';
import { loopbackOnly, type SiteServer, serveSite } from '../e2e/embed-site.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { checkLibrary, EMBED_FIRST_LOAD_BUDGET_KB } from './embed-budget.ts';
import { median, ms, ratio, table } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title =
  'Embedded playgrounds: bytes until interactive and time to the first replayed tool result';

const RUNS = 3;
const EXAMPLES = resolve(import.meta.dirname, '../examples');
const REPLAYS = ['greet', 'sales'];
const PERMISSIONS = { permissionMode: 'acceptEdits', permissions: { allow: ['Bash(node:*)'] } };

/** Times (host page clock, ms since navigation) the pages record, for the bench to read. */
const RECORDER = `<script>
  window.bench = { ready: {}, sandbox: {}, firstResult: {}, end: {} };
  const note = (id, type) => {
    const t = performance.now();
    if (type === 'tool-result' && window.bench.firstResult[id] === undefined) window.bench.firstResult[id] = t;
    if (type === 'replay-end') window.bench.end[id] = t;
  };
  /** mount() resolved (the handle: the agent is up and its sandbox has the files), in which sandbox. */
  const ready = (id, sandbox) => {
    window.bench.ready[id] = performance.now();
    window.bench.sandbox[id] = sandbox;
  };
</script>`;

function elementPage(count: number): string {
  const elements = REPLAYS.slice(0, count)
    .map(
      (
        name,
      ) => `<tabcode-playground id="${name}" replay="/replays/${name}.replay.json" autorun height="420px">
  <script type="application/json">${JSON.stringify(PERMISSIONS)}</script>
</tabcode-playground>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>
<script type="module" src="/tabcode/tabcode.js"></script>${RECORDER}
<script>
  document.addEventListener('tabcode-event', (e) => note(e.target.id, e.detail.type), true);
  document.addEventListener('tabcode-ready', (e) => ready(e.target.id, e.detail.sandbox), true);
</script>
</head><body>${elements}</body></html>`;
}

function iframePage(count: number, app: string): string {
  const frames = REPLAYS.slice(0, count)
    .map((name) => `<iframe id="${name}" style="width:100%;height:420px"></iframe>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>${RECORDER}</head><body>${frames}
<script type="module">
  const replays = {};
  await Promise.all(${JSON.stringify(REPLAYS.slice(0, count))}.map(async (n) => { replays[n] = await (await fetch('/replays/' + n + '.replay.json')).json(); }));
  const post = (frame, message) => frame.contentWindow.postMessage(message, '${app}');
  const byWindow = new Map([...document.querySelectorAll('iframe')].map((f) => [f.contentWindow, f]));
  addEventListener('message', (e) => {
    const frame = byWindow.get(e.source);
    if (!frame) return;
    if (e.data.type === 'tabcode:loaded') post(frame, { type: 'tabcode:config', config: { replay: replays[frame.id], autorun: true, ...${JSON.stringify(PERMISSIONS)} } });
    if (e.data.type === 'tabcode:ready') ready(frame.id, e.data.sandbox);
    if (e.data.type === 'tabcode:event') note(frame.id, e.data.event.type);
  });
  // The frames load once this page listens (embed.html says tabcode:loaded once, on start).
  for (const frame of byWindow.values()) frame.src = '${app}/embed.html';
</script></body></html>`;
}

interface Load {
  /** gzip KB of the JS fetched over the network until every playground was interactive. */
  fetchedKb: number;
  /** The same JS, whether it came from the network or the cache. */
  neededKb: number;
  interactive: number;
  /** Navigation to the last playground's mount() resolving (its agent up, with the default sandbox). */
  mounted: number;
  /** The sandboxes the playgrounds got (`auto`, the default). */
  sandboxes: string[];
  firstResult: number;
  end: number;
}

/** Gzip sizes by URL (the bodies the server sent), filled as responses arrive. */
type Sizes = Map<string, number>;

async function load(
  page: import('@playwright/test').Page,
  url: string,
  count: number,
  sizes: Sizes,
): Promise<Load> {
  await page.goto(url);
  await page.waitForFunction(
    (n) => Object.keys((window as unknown as { bench: { end: object } }).bench.end).length >= n,
    count,
    {
      timeout: 120_000,
    },
  );
  const host = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    bench: (
      window as unknown as {
        bench: {
          ready: Record<string, number>;
          sandbox: Record<string, string>;
          firstResult: Record<string, number>;
          end: Record<string, number>;
        };
      }
    ).bench,
  }));
  // Every document's marks and scripts (the page's, each iframe's), on the host page's clock.
  const frames = await Promise.all(
    page.frames().map((f) =>
      f
        .evaluate(() => ({
          origin: performance.timeOrigin,
          marks: performance.getEntriesByName('tabcode:embed-interactive').map((m) => m.startTime),
          scripts: performance
            .getEntriesByType('resource')
            .filter((r) => /\.m?js(?:$|\?)/.test(r.name))
            .map((r) => {
              const e = r as PerformanceResourceTiming;
              return { url: e.name, end: e.responseEnd, transfer: e.transferSize };
            }),
        }))
        .catch(() => ({
          origin: 0,
          marks: [] as number[],
          scripts: [] as { url: string; end: number; transfer: number }[],
        })),
    ),
  );
  const marks = frames.flatMap((f) => f.marks.map((m) => m + f.origin - host.origin));
  const interactive = Math.max(...marks.sort((a, b) => a - b).slice(0, count));
  let fetched = 0;
  let needed = 0;
  for (const f of frames) {
    for (const s of f.scripts) {
      if (s.end + f.origin - host.origin > interactive) continue;
      const gz = sizes.get(s.url) ?? 0;
      needed += gz;
      if (s.transfer > 0) fetched += gz;
    }
  }
  return {
    fetchedKb: fetched / 1024,
    neededKb: needed / 1024,
    interactive,
    mounted: Math.max(...Object.values(host.bench.ready)),
    sandboxes: Object.values(host.bench.sandbox),
    firstResult: Math.max(...Object.values(host.bench.firstResult)),
    end: Math.max(...Object.values(host.bench.end)),
  };
}

async function measure(
  browser: Browser,
  url: string,
  count: number,
): Promise<{ cold: Load[]; warm: Load[] }> {
  const cold: Load[] = [];
  const warm: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await loopbackOnly(context);
    const sizes: Sizes = new Map();
    context.on('response', (res) => {
      if (!/\.m?js(?:$|\?)/.test(res.url()) || sizes.has(res.url())) return;
      void res.body().then(
        (b) => sizes.set(res.url(), gzipSync(b, { level: 9 }).length),
        () => {},
      );
    });
    const page = await context.newPage();
    cold.push(await load(page, url, count, sizes));
    warm.push(await load(page, url, count, sizes));
    await context.close();
  }
  return { cold, warm };
}

/** The sandboxes every load got, e.g. "just-bash" (a WebContainer cannot boot in these pages). */
function sandboxesOf(results: Record<string, { cold: Load[]; warm: Load[] }>): string {
  const kinds = new Set(
    Object.values(results).flatMap((r) => [...r.cold, ...r.warm].flatMap((l) => l.sandboxes)),
  );
  return [...kinds].join(', ') || 'no sandbox reported';
}

export async function run(ctx: BenchContext): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'tabcode-bench-embed-'));
  const libDir = join(work, 'lib');
  const appDir = join(work, 'app');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: ctx.root,
      configFile: resolve(ctx.root, 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: appDir, emptyOutDir: true },
    });
    process.env.TABCODE_LIB_OUT = libDir;
    await build({ root: ctx.root, configFile: resolve(ctx.root, 'vite.lib.config.ts'), logLevel: 'error' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
    delete process.env.TABCODE_LIB_OUT;
  }
  let site: SiteServer | undefined;
  let app: SiteServer | undefined;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const lines: string[] = [];
  try {
    // The app build on an origin of its own (localhost), the docs site on 127.0.0.1.
    app = await serveSite({}, { mounts: { '/': appDir } });
    const appOrigin = app.url.replace('127.0.0.1', 'localhost');
    site = await serveSite(
      {
        '/bench-element-1.html': elementPage(1),
        '/bench-element-2.html': elementPage(2),
        '/bench-iframe-1.html': iframePage(1, appOrigin),
        '/bench-iframe-2.html': iframePage(2, appOrigin),
      },
      { mounts: { '/tabcode/': libDir, '/': EXAMPLES } },
    );
    const rows: (string | number)[][] = [];
    const results: Record<string, { cold: Load[]; warm: Load[] }> = {};
    for (const way of ['element', 'iframe'] as const) {
      for (const count of [1, 2]) {
        const r = await measure(browser, `${site.url}/bench-${way}-${count}.html`, count);
        results[`${way}-${count}`] = r;
        const m = (list: Load[], k: Exclude<keyof Load, 'sandboxes'>) => median(list.map((x) => x[k]));
        rows.push([
          way === 'element' ? 'package (<tabcode-playground>)' : 'iframe (embed.html)',
          count,
          `${m(r.cold, 'fetchedKb').toFixed(1)} KB`,
          ms(m(r.cold, 'interactive')),
          ms(m(r.cold, 'mounted')),
          ms(m(r.cold, 'firstResult')),
          ms(m(r.cold, 'end')),
          `${m(r.warm, 'fetchedKb').toFixed(1)} KB`,
          ms(m(r.warm, 'firstResult')),
          ms(m(r.warm, 'end')),
        ]);
      }
    }
    const med = (key: string, phase: 'cold' | 'warm', k: Exclude<keyof Load, 'sandboxes'>) =>
      median(results[key][phase].map((x) => x[k]));
    lines.push(
      `median of ${RUNS} loads each; JS gzip fetched until every playground is interactive (painted, prompt box usable); times from navigation:`,
      ...table(
        [
          'way',
          'playgrounds',
          'cold JS',
          'cold interactive',
          'cold mount() resolved',
          'cold 1st tool result',
          'cold replay end',
          'warm JS',
          'warm 1st tool result',
          'warm replay end',
        ],
        rows,
      ),
      `a framed playground (iframe, one): first load ${med('iframe-1', 'cold', 'neededKb').toFixed(1)} KB gzip of JS until interactive; the package's: ${med('element-1', 'cold', 'neededKb').toFixed(1)} KB`,
      `mount() with the default sandbox (auto) resolved ${ms(med('element-1', 'cold', 'mounted'))} after navigation (cold, one playground), in ${sandboxesOf(results)}; it never waits for a WebContainer`,
      `package vs iframe, one playground: JS until interactive ${ratio(med('element-1', 'cold', 'neededKb'), med('iframe-1', 'cold', 'neededKb'))}, first tool result ${ratio(med('element-1', 'cold', 'firstResult'), med('iframe-1', 'cold', 'firstResult'))} (cold)`,
      `two playgrounds vs one: package JS ${ratio(med('element-2', 'cold', 'neededKb'), med('element-1', 'cold', 'neededKb'))}, iframe JS ${ratio(med('iframe-2', 'cold', 'neededKb'), med('iframe-1', 'cold', 'neededKb'))} (an iframe loads its page's JS per frame; the package once per page)`,
      `budget: host-facing JS until interactive ≤ ${EMBED_FIRST_LOAD_BUDGET_KB} KB gzip (the package's static graph below; with two playgrounds the JS column also counts what the first one loads lazily before the second paints)`,
    );
    lines.push('', ...checkLibrary(ctx.root, libDir, { pack: false }).lines);
  } finally {
    await browser.close();
    await site?.close();
    await app?.close();
    rmSync(work, { recursive: true, force: true });
  }
  return lines;
}
