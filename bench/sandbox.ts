/**
 * Sandboxes, measured side by side in one run:
 * - Glob and Grep over a generated tree of 5,000 files / 50 MB on just-bash: our tools vs just-bash's
 *   own `rg` on the same tree (Node, in-process).
 * - In Chromium (a production build of bench/sandbox-page, served with COOP/COEP): just-bash boot to
 *   first exec, and saving / restoring the same tree in the browser's real IndexedDB.
 */
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { createToolUseContext } from '../src/core/context.ts';
import { createJustBashSandbox } from '../src/sandbox/just-bash.ts';
import { GlobTool } from '../src/tools/glob/glob.ts';
import { GrepTool } from '../src/tools/grep/grep.ts';
import { makeTree, TREE_BYTES, TREE_FILES, TREE_MARKER } from './sandbox-tree.ts';
import { median, ms, ratio, table, timeMedian } from './stats.ts';
import type { BenchContext } from './types.ts';

export const title =
  'Sandboxes: Glob/Grep over 5,000 files / 50 MB vs rg; just-bash boot and save/restore in Chromium';

/** A regular expression (not a plain string) for the regex case. */
const REGEX = 'MARKER [0-9]+7:';

async function searchBench(): Promise<string[]> {
  const sandbox = await createJustBashSandbox({ files: makeTree() });
  const ctx = createToolUseContext({ sandbox });
  const all = 1_000_000;

  // Same answers first, so the timings compare equal work (counted with wc: exec output is capped).
  const count = async (command: string) => Number((await sandbox.exec(`${command} | wc -l`)).stdout.trim());
  const rgFiles = await count(`rg -l ${TREE_MARKER} .`);
  const grepFiles = (await GrepTool.call({ pattern: TREE_MARKER, head_limit: all }, ctx)).data;
  const rgLines = await count(`rg -n ${TREE_MARKER} .`);
  const grepLines = (
    await GrepTool.call({ pattern: TREE_MARKER, output_mode: 'content', '-n': true, head_limit: all }, ctx)
  ).data;
  const rgRegex = await count(`rg -l '${REGEX}' .`);
  const grepRegex = (await GrepTool.call({ pattern: REGEX, head_limit: all }, ctx)).data;
  const rgTs = await count(`rg --files -g '*.ts' .`);
  const globTs = (await GlobTool.call({ pattern: '**/*.ts' }, ctx)).data;
  const grepLineCount = 'numLines' in grepLines ? Number(grepLines.numLines) : Number.NaN;
  const checks = [
    `same answers — files with the marker: rg ${rgFiles}, Grep ${grepFiles.numFiles}; matching lines: rg ${rgLines}, ` +
      `Grep ${grepLineCount}; files matching the regex: rg ${rgRegex}, Grep ${grepRegex.numFiles}; ` +
      `*.ts files: rg ${rgTs}, Glob ${globTs.numFiles}${globTs.truncated ? ' (Glob returns the newest 100; it still lists and stats all)' : ''}`,
  ];

  const runs = 3;
  const grepL = await timeMedian(() => GrepTool.call({ pattern: TREE_MARKER, head_limit: all }, ctx), runs);
  const rgL = await timeMedian(() => sandbox.exec(`rg -l ${TREE_MARKER} .`), runs);
  const grepC = await timeMedian(
    () => GrepTool.call({ pattern: TREE_MARKER, output_mode: 'content', '-n': true, head_limit: all }, ctx),
    runs,
  );
  const rgC = await timeMedian(() => sandbox.exec(`rg -n ${TREE_MARKER} .`), runs);
  const grepI = await timeMedian(() => GrepTool.call({ pattern: REGEX, head_limit: all }, ctx), runs);
  const rgI = await timeMedian(() => sandbox.exec(`rg -l '${REGEX}' .`), runs);
  const glob = await timeMedian(() => GlobTool.call({ pattern: '**/*.ts' }, ctx), runs);
  const rgGlob = await timeMedian(() => sandbox.exec(`rg --files -g '*.ts' .`), runs);
  return [
    `tree: ${TREE_FILES} files, ${(TREE_BYTES / 1024 / 1024).toFixed(0)} MB, on just-bash (Node ${process.version})`,
    ...table(
      ['search', 'our tool', "just-bash's rg", 'tool / rg'],
      [
        ['Grep files_with_matches (literal)', ms(grepL), ms(rgL), ratio(grepL, rgL)],
        ['Grep content -n (literal)', ms(grepC), ms(rgC), ratio(grepC, rgC)],
        ['Grep files_with_matches (regex)', ms(grepI), ms(rgI), ratio(grepI, rgI)],
        ['Glob **/*.ts vs rg --files -g', ms(glob), ms(rgGlob), ratio(glob, rgGlob)],
      ],
    ),
    ...checks,
  ];
}

async function browserBench(root: string): Promise<string[]> {
  const outDir = resolve(root, 'node_modules/.cache/tabcode-bench-sandbox');
  const configFile = resolve(root, 'vite.config.ts');
  await build({
    configFile,
    root,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: { input: resolve(root, 'bench/sandbox-page/index.html') },
    },
  });
  const server = await preview({
    configFile,
    root,
    logLevel: 'error',
    preview: { port: 4195 },
    build: { outDir },
  });
  const base = server.resolvedUrls?.local[0] ?? 'http://localhost:4195/';
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const sample = async (phase: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}bench/sandbox-page/index.html?phase=${phase}`);
      await page.waitForFunction(() => window.benchResult !== undefined, undefined, { timeout: 600_000 });
      const result = (await page.evaluate(() => window.benchResult)) as Record<string, number | string>;
      await context.close();
      if (typeof result.error === 'string') throw new Error(result.error);
      return result as Record<string, number>;
    };
    const boots: Record<string, number>[] = [];
    for (let i = 0; i < 6; i++) boots.push(await sample('boot'));
    const m = (key: string) => median(boots.slice(1).map((b) => b[key]));
    const save = await sample('save');
    const mb = save.bytes / 1024 / 1024;
    return [
      `Chromium ${browser.version()}, production build, a fresh browser context per page load (median of 5)`,
      ...table(
        ['just-bash boot', 'median', 'vs second exec'],
        [
          [
            'navigation → first exec done',
            ms(m('sinceNavigation')),
            ratio(m('sinceNavigation'), m('secondExecMs')),
          ],
          ['  load the just-bash module', ms(m('importMs')), ratio(m('importMs'), m('secondExecMs'))],
          ['  create the sandbox', ms(m('createMs')), ratio(m('createMs'), m('secondExecMs'))],
          ['  first exec (echo)', ms(m('firstExecMs')), ratio(m('firstExecMs'), m('secondExecMs'))],
          ['  second exec (echo)', ms(m('secondExecMs')), '1.00×'],
        ],
      ),
      '',
      ...table(
        [`IndexedDB, ${save.files} files / ${mb.toFixed(1)} MB`, 'time', 'MB/s', 'vs full save'],
        [
          [
            'full save (first save of the tree)',
            ms(save.fullSave),
            (mb / (save.fullSave / 1000)).toFixed(0),
            '1.00×',
          ],
          ['save after editing one file', ms(save.oneFileSave), '', ratio(save.oneFileSave, save.fullSave)],
          [
            'save after a command (changes come as events)',
            ms(save.afterCommandSave),
            '',
            ratio(save.afterCommandSave, save.fullSave),
          ],
          [
            'restore: read the store',
            ms(save.load),
            (mb / (save.load / 1000)).toFixed(0),
            ratio(save.load, save.fullSave),
          ],
          [
            'restore: start a sandbox with it',
            ms(save.restoreSandbox),
            '',
            ratio(save.restoreSandbox, save.fullSave),
          ],
        ],
      ),
    ];
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
  }
}

export async function run(ctx: BenchContext): Promise<string[]> {
  return [...(await searchBench()), '', ...(await browserBench(ctx.root))];
}
