/**
 * The README's embed snippets work as written: each code block of its "Embed it" section becomes a page
 * of the docs site (served on loopback with the package at /tabcode/ and the example replays at
 * /replays/), and each plays its replay to the end in Chromium, every tool result matching the
 * recording, with nothing fetched beyond loopback. The only change made to a snippet is the iframe's
 * placeholder address of embed.html, replaced by this run's app build; the JSX one is compiled with
 * esbuild into a page that renders it with React from the import map (as examples/react.html does).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type FrameLocator, type Page, test } from '@playwright/test';
import { loopbackOnly, type SiteServer, serveSite } from './embed-site.ts';

const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');
/** Where the README's iframe snippet says "your tabcode build serves embed.html". */
const PLACEHOLDER_EMBED_URL = 'https://tabcode.example/embed.html';

/** The code blocks of the README's embed section, by language. */
function snippets(): { html: string[]; jsx: string[] } {
  const start = README.indexOf('## Embed it\n');
  const end = README.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error('README.md has no "## Embed it" section');
  const section = README.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
  return {
    html: blocks.filter((b) => b.lang === 'html').map((b) => b.code),
    jsx: blocks.filter((b) => b.lang === 'jsx').map((b) => b.code),
  };
}

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>README snippet</title>${head}</head><body>${body}</body></html>`;

const IMPORT_MAP = `<script type="importmap">{ "imports": {
  "react": "https://esm.sh/react@19.3.1",
  "react-dom/client": "https://esm.sh/react-dom@19.3.1/client?deps=react@19.3.1" } }</script>`;

/** A page that renders the README's JSX (one element) into #app. */
async function jsxPage(jsx: string): Promise<string> {
  const { transform } = await import('esbuild');
  const { code } = await transform(
    `import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { Tabcode } from '/tabcode/react.js';
createRoot(document.getElementById('app')).render(${jsx.trim()});`,
    { loader: 'jsx', jsxFactory: 'h', format: 'esm' },
  );
  return page(`<div id="app"></div><script type="module">${code}</script>`, IMPORT_MAP);
}

const { html, jsx } = snippets();
let site: SiteServer;
test.beforeAll(async () => {
  expect(html.length, 'the README embed section has its three HTML snippets').toBe(3);
  expect(jsx.length, 'the README embed section has its JSX snippet').toBe(1);
  site = await serveSite({
    '/readme-element.html': page(html[0]),
    '/readme-mount.html': page(html[1]),
    '/readme-react.html': await jsxPage(jsx[0]),
  });
});
test.afterAll(async () => {
  await site?.close();
});

/** Console lines and page errors of a page. */
function watch(p: Page): { logs: string[]; errors: string[] } {
  const out = { logs: [] as string[], errors: [] as string[] };
  p.on('console', (m) => out.logs.push(m.text()));
  p.on('pageerror', (e) => out.errors.push(e.message));
  return out;
}

/** Long waits: the replays play at their recorded pace, and a loaded machine is slower still. */
const PLAY_TIMEOUT = 90_000;

/** The playground played its replay to the end (Play says Played), every one of `checks` tool results matching. */
async function playedToTheEnd(scope: Page | FrameLocator, checks: number): Promise<void> {
  await expect(scope.getByTestId('embed-play')).toHaveAttribute('data-state', 'done', {
    timeout: PLAY_TIMEOUT,
  });
  const status = scope.getByTestId('replay-status');
  await expect(status).toHaveAttribute('data-state', 'ok');
  await expect(status).toHaveAttribute('data-checks', String(checks));
  await expect(scope.getByTestId('tool-card')).toHaveCount(checks);
}

test('the script tag and <tabcode-playground> snippet plays its replay to the end', async ({
  page: p,
  context,
}) => {
  test.setTimeout(150_000);
  const refused = await loopbackOnly(context);
  const { errors } = watch(p);
  await p.goto(`${site.url}/readme-element.html`);
  await playedToTheEnd(p, 3);
  await expect(p.getByTestId('assistant-text').last()).toContainText('exports greet() and farewell()');
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test('the mount() snippet plays its replay to the end and logs no mismatch', async ({ page: p, context }) => {
  test.setTimeout(150_000);
  const refused = await loopbackOnly(context);
  const { logs, errors } = watch(p);
  await p.goto(`${site.url}/readme-mount.html`);
  await playedToTheEnd(p, 2);
  await expect.poll(() => logs, { timeout: PLAY_TIMEOUT }).toContain('0 mismatches');
  // The look the snippet asks for: no header, the dark scheme.
  await expect(p.locator('.app-header')).toBeHidden();
  await expect(p.locator('.tabcode-root')).toHaveAttribute('data-theme', 'dark');
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test('the React snippet plays its replay to the end', async ({ page: p, context }) => {
  test.setTimeout(150_000);
  const refused = await loopbackOnly(context);
  const { logs, errors } = watch(p);
  await p.goto(`${site.url}/readme-react.html`);
  await playedToTheEnd(p, 3);
  // The snippet's onEvent logs the mismatches of replay-end.
  await expect.poll(() => logs, { timeout: PLAY_TIMEOUT }).toContain('0');
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test('the iframe snippet plays its replay to the end', async ({ page: p, context, baseURL }) => {
  test.setTimeout(150_000);
  expect(html[2]).toContain(PLACEHOLDER_EMBED_URL);
  const pages = {
    '/readme-iframe.html': page(html[2].replace(PLACEHOLDER_EMBED_URL, `${baseURL}/embed.html`)),
  };
  const own = await serveSite(pages);
  try {
    const refused = await loopbackOnly(context);
    const { logs, errors } = watch(p);
    await p.goto(`${own.url}/readme-iframe.html`);
    await playedToTheEnd(p.frameLocator('#tabcode'), 3);
    await expect.poll(() => logs, { timeout: PLAY_TIMEOUT }).toContain('replay-end');
    // height: 'auto': the snippet sized the frame as the playground asked.
    expect(await p.locator('#tabcode').evaluate((f) => f.style.height)).toMatch(/^\d+px$/);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await own.close();
  }
});
