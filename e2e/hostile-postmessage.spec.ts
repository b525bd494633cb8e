/**
 * Issue 17, hostile postMessage traffic against embed.html in real Chromium. A host page (its own origin,
 * served by this test on 127.0.0.1) frames the embed twice and a sibling page of another origin once,
 * then posts what a careless or hostile parent might: messages before the config, a config with bad
 * fields and prototype-pollution keys, wrong types, unknown types, huge payloads, structures that look
 * uncloneable, a config whose `allowedOrigins` leaves the host out, and a flood of 10,000 messages; the
 * sibling posts a config and prompts of its own. Each is ignored or answered with a clear warning or
 * error, the flood queues no more than a few prompts and gets a bounded number of replies, no frame has
 * an error, Object.prototype stays clean, and a prompt still plays afterwards.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Frame, type Page, test } from '@playwright/test';

interface Posted {
  type: string;
  warning?: { field: string; message: string };
  event?: { type: string; name?: string };
  message?: string;
  replay?: unknown;
}

const FLOOD = 10_000;
/** host-bridge.ts's budgets (the test checks the iframe keeps to them). */
const MAX_HOST_WARNINGS = 50;
const MAX_PENDING_HOST_PROMPTS = 4;

let hostServer: Server;
let siblingServer: Server;
let hostOrigin = '';
let siblingOrigin = '';

function hostPage(embedURL: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<iframe id="main" src="${embedURL}" style="width:1100px;height:700px"></iframe>
<iframe id="strict" src="${embedURL}" style="width:400px;height:200px"></iframe>
<iframe id="sibling" src="${siblingOrigin}/sibling.html" style="width:100px;height:50px"></iframe>
<script>
  const frames = { main: document.getElementById('main'), strict: document.getElementById('strict') };
  window.posted = { main: [], strict: [] };
  addEventListener('message', (e) => {
    for (const [name, frame] of Object.entries(frames))
      if (e.source === frame.contentWindow) window.posted[name].push(e.data);
  });
  window.post = (name, message) => frames[name].contentWindow.postMessage(message, '*');
</script></body></html>`;
}

const SIBLING = `<!doctype html><html><head><meta charset="utf-8"></head><body>sibling</body></html>`;

async function listen(
  body: (path: string) => string | undefined,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const page = body(new URL(req.url ?? '/', 'http://x').pathname);
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let embedURL = '';
test.beforeAll(async () => {
  ({ server: siblingServer, origin: siblingOrigin } = await listen((p) =>
    p === '/sibling.html' ? SIBLING : undefined,
  ));
  ({ server: hostServer, origin: hostOrigin } = await listen((p) =>
    p === '/host.html' ? hostPage(embedURL) : undefined,
  ));
});

test.afterAll(async () => {
  for (const server of [hostServer, siblingServer]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

const posted = (page: Page, name: 'main' | 'strict') =>
  page.evaluate((n) => (window as unknown as { posted: Record<string, Posted[]> }).posted[n], name);

async function frameOf(page: Page, selector: string): Promise<Frame> {
  const frame = await (await page.locator(selector).elementHandle())?.contentFrame();
  if (!frame) throw new Error(`no frame at ${selector}`);
  return frame;
}

test('hostile postMessage traffic is ignored or answered clearly, and the playground keeps working', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  embedURL = `${baseURL}/embed.html`;
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  // Every frame records its own uncaught errors (init scripts run in iframes too, outside their CSP).
  await page.addInitScript(() => {
    const errors: string[] = [];
    (window as unknown as { frameErrors: string[] }).frameErrors = errors;
    addEventListener('error', (e) => errors.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
  });
  await page.goto(`${hostOrigin}/host.html`);
  for (const name of ['main', 'strict'] as const)
    await expect.poll(async () => (await posted(page, name)).map((m) => m.type)).toContain('tabcode:loaded');
  const main = await frameOf(page, '#main');
  const sibling = await frameOf(page, '#sibling');
  const ui = page.frameLocator('#main');

  // Before the config: refused with a reason; the sibling's config (another window, another origin) is ignored.
  await sibling.evaluate(() => {
    const target = parent.frames[0];
    target.postMessage(
      { type: 'tabcode:config', config: { sandbox: 'just-bash', files: { 'sibling.md': 'x' } } },
      '*',
    );
    target.postMessage({ type: 'tabcode:send', prompt: 'from the sibling' }, '*');
  });
  await page.evaluate(() => {
    const post = (window as unknown as { post: (n: string, m: unknown) => void }).post;
    post('main', { type: 'tabcode:play' });
    post('main', { type: 'tabcode:send', prompt: 'before the config' });
  });
  await expect
    .poll(async () => (await posted(page, 'main')).filter((m) => m.type === 'tabcode:warning').length)
    .toBe(2);
  const early = (await posted(page, 'main')).filter((m) => m.type === 'tabcode:warning');
  expect(early.map((w) => w.warning?.message)).toEqual([
    'Post tabcode:config first; this message was ignored.',
    'Post tabcode:config first; this message was ignored.',
  ]);

  // The config: bad fields, pollution keys, and (in the same task) a prompt that waits for the mount.
  // The demo's first answer runs a Bash command that needs permission, so that run stays open.
  await page.evaluate(
    ({ origin }) => {
      const post = (window as unknown as { post: (n: string, m: unknown) => void }).post;
      const config = JSON.parse(
        JSON.stringify({
          sandbox: 'just-bash',
          maxTokens: 'lots',
          allowedOrigins: [origin],
          files: { 'ok.md': '# ok\n', 'bad\u0000name.md': 'x' },
          demo: {
            chunkDelayMs: 0,
            turns: [
              {
                content: [
                  { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'touch waited.txt' } },
                ],
              },
            ],
            endText: 'Still answering after the storm.',
          },
        }).replace('{', '{"__proto__":{"polluted":"config"},"constructor":{"prototype":{"polluted":"c"}},'),
      );
      post('main', { type: 'tabcode:config', config });
      post('main', { type: 'tabcode:send', prompt: 'early prompt' });
    },
    { origin: hostOrigin },
  );
  await expect.poll(async () => (await posted(page, 'main')).map((m) => m.type)).toContain('tabcode:ready');
  await expect(ui.locator('[data-testid="file-item"][data-path="ok.md"]')).toBeVisible();
  await expect
    .poll(async () => (await posted(page, 'main')).some((m) => m.event?.type === 'permission-request'))
    .toBe(true);
  // Warnings about config fields (reported by the mount, outside the bridge's budget of refusals).
  const configWarnings = (await posted(page, 'main')).filter((m) => m.type === 'tabcode:warning').slice(2);
  expect(configWarnings.map((w) => w.warning?.field)).toContain('maxTokens');

  // A config that leaves the host out of its own allowedOrigins, then a malformed list: refused, with why.
  await page.evaluate(() => {
    const post = (window as unknown as { post: (n: string, m: unknown) => void }).post;
    post('strict', { type: 'tabcode:config', config: { allowedOrigins: ['https://docs.example.com'] } });
    post('strict', { type: 'tabcode:config', config: { allowedOrigins: 'everyone' } });
  });
  await expect
    .poll(async () => (await posted(page, 'strict')).filter((m) => m.type === 'tabcode:error').length)
    .toBe(2);
  const strictErrors = (await posted(page, 'strict')).filter((m) => m.type === 'tabcode:error');
  expect(strictErrors[0].message).toContain(`origin (${hostOrigin}) is not in the config's allowedOrigins`);
  expect(strictErrors[1].message).toContain('allowedOrigins must be a list of origins');
  expect((await posted(page, 'strict')).map((m) => m.type)).not.toContain('tabcode:ready');

  // One of each hostile shape, then a sentinel whose answer shows everything before it was handled.
  const before = (await posted(page, 'main')).length;
  await page.evaluate(() => {
    const post = (window as unknown as { post: (n: string, m: unknown) => void }).post;
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 2_000; i++) deep = { next: deep };
    const cyclic: Record<string, unknown> = { type: 'tabcode:send' };
    cyclic.prompt = cyclic;
    const shapes: unknown[] = [
      null,
      42,
      'tabcode:send',
      [],
      { type: 123 },
      { type: 'tabcode:send', prompt: 5 },
      { type: 'tabcode:send', prompt: 'x'.repeat(200_000) },
      { type: 'tabcode:step', step: '1' },
      { type: 'tabcode:step', step: Number.NaN },
      { type: 'tabcode:nope' },
      { type: `tabcode:${'z'.repeat(100_000)}` },
      { type: 'tabcode:config', config: { sandbox: 'just-bash' } },
      { type: 'tabcode:config', config: null },
      JSON.parse('{"type":"tabcode:bogus","__proto__":{"polluted":"message"}}'),
      { type: 'tabcode:bogus', constructor: { prototype: { polluted: 'ctor' } } },
      { type: 'tabcode:bogus', payload: new Uint8Array(8_000_000) },
      { type: 'tabcode:bogus', map: new Map([[{}, new Set([1])]]), when: new Date(), re: /x/g, deep },
      cyclic,
      { type: 'unrelated-library', data: 'not ours' },
    ];
    for (const shape of shapes) post('main', shape);
    post('main', { type: 'tabcode:export-replay' });
  });
  await expect
    .poll(async () => (await posted(page, 'main')).slice(before).map((m) => m.type))
    .toContain('tabcode:replay');
  const answers = (await posted(page, 'main')).slice(before).filter((m) => m.type === 'tabcode:warning');
  expect(answers.map((w) => w.warning?.field)).toEqual([
    'prompt',
    'prompt',
    'step',
    'step',
    'type',
    'type',
    'config',
    'config',
    'type',
    'type',
    'type',
    'type',
    'prompt',
  ]);
  const texts = answers.map((w) => w.warning?.message ?? '');
  expect(texts[1]).toContain('at most 100000 are accepted');
  expect(texts[4]).toContain('Unknown message type "tabcode:nope"');
  expect(texts[5].length).toBeLessThan(400);
  expect(texts[6]).toContain('already applied');

  // The sibling again, after the mount: still nobody's parent.
  await sibling.evaluate(() => {
    parent.frames[0].postMessage({ type: 'tabcode:send', prompt: 'from the sibling' }, '*');
    parent.frames[0].postMessage({ type: 'tabcode:interrupt' }, '*');
  });

  // The flood, while the first prompt waits for permission: bad, unknown, foreign and valid messages.
  const beforeFlood = (await posted(page, 'main')).length;
  await page.evaluate((count) => {
    const post = (window as unknown as { post: (n: string, m: unknown) => void }).post;
    for (let i = 0; i < count; i++) {
      const kind = i % 5;
      if (kind === 0) post('main', { type: 'tabcode:send', prompt: `flood ${i}` });
      else if (kind === 1) post('main', { type: `tabcode:flood-${i}` });
      else if (kind === 2) post('main', { type: 'tabcode:step', step: 10_000 + i });
      else if (kind === 3) post('main', { type: 'tabcode:send', prompt: [i] });
      else post('main', { noise: i });
    }
    post('main', { type: 'tabcode:export-replay' });
  }, FLOOD);
  await expect
    .poll(async () => (await posted(page, 'main')).slice(beforeFlood).map((m) => m.type), { timeout: 30_000 })
    .toContain('tabcode:replay');
  const all = await posted(page, 'main');
  const budgeted = all.filter((m) => m.type === 'tabcode:warning').slice(2 + configWarnings.length);
  expect(budgeted.length + early.length).toBe(MAX_HOST_WARNINGS);
  expect(budgeted.at(-1)?.warning?.message).toContain('further refused messages get no reply');
  expect(all.slice(beforeFlood).length).toBeLessThan(MAX_HOST_WARNINGS + 10);

  // Stop the waiting run: the prompts the flood got in (up to the cap) play, then one more still works.
  await page.evaluate(() =>
    (window as unknown as { post: (n: string, m: unknown) => void }).post('main', {
      type: 'tabcode:interrupt',
    }),
  );
  const runEnds = async () => (await posted(page, 'main')).filter((m) => m.event?.type === 'run-end').length;
  await expect.poll(runEnds, { timeout: 30_000 }).toBe(MAX_PENDING_HOST_PROMPTS);
  await expect(ui.getByTestId('user-message')).toHaveCount(MAX_PENDING_HOST_PROMPTS);
  await expect(ui.getByTestId('user-message').nth(1)).toHaveText('flood 0');
  await page.evaluate(() =>
    (window as unknown as { post: (n: string, m: unknown) => void }).post('main', {
      type: 'tabcode:send',
      prompt: 'after the flood',
    }),
  );
  await expect.poll(runEnds, { timeout: 30_000 }).toBe(MAX_PENDING_HOST_PROMPTS + 1);
  await expect(ui.getByTestId('user-message').last()).toHaveText('after the flood');
  await expect(ui.getByTestId('assistant-text').last()).toContainText('Still answering after the storm.');

  // Nothing the sibling sent took effect; no frame polluted or broken.
  await expect(ui.getByText('from the sibling')).toHaveCount(0);
  await expect(ui.locator('[data-testid="file-item"][data-path="sibling.md"]')).toHaveCount(0);
  for (const frame of [main, await frameOf(page, '#strict'), page.mainFrame()]) {
    const state = await frame.evaluate(() => ({
      polluted: Object.hasOwn(Object.prototype, 'polluted') || 'polluted' in {},
      errors: (window as unknown as { frameErrors: string[] }).frameErrors,
    }));
    expect(state).toEqual({ polluted: false, errors: [] });
  }
  expect(pageErrors).toEqual([]);
});
