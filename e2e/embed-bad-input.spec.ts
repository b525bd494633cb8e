/**
 * Bad input from a host page, in a real Chromium, with the package build (served on loopback like
 * the docs site): mounting twice on one element, something that is not an element, a 20 MB file and
 * `..` paths, theme values that are not CSS, a replay that is missing, corrupt or from another
 * version, and unmounting in the middle of a turn. Each gets a clear warning (or a clear rejection),
 * the host page stays as it was (its own root attribute, its elements), and the playground works.
 */
import { expect, type Page, test } from '@playwright/test';
import { loopbackOnly, type SiteServer, serveSite } from './embed-site.ts';

/** A host page of its own: a dark theme on its root, three empty slots, and the package's mount(). */
const HOST = `<!doctype html>
<html lang="en" data-theme="dark">
  <head><meta charset="utf-8"><title>host</title>
    <script type="module">
      import { mount } from './tabcode/tabcode.js';
      window.tabcode = { mount };
      window.hostReady = true;
    </script>
  </head>
  <body>
    <p id="host-text">The host's own content.</p>
    <div id="a" style="height: 420px"></div>
    <div id="b" style="height: 420px"></div>
    <div id="c" style="height: 420px"></div>
  </body>
</html>`;

let site: SiteServer;
test.beforeAll(async () => {
  site = await serveSite({
    '/host.html': HOST,
    '/corrupt.replay.json': '{"format": "tabcode-replay", "version": 1, "turns": [{"responses": [',
  });
});
test.afterAll(async () => {
  await site?.close();
});

async function openHost(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.url}/host.html`);
  await page.waitForFunction(() => (window as unknown as { hostReady?: boolean }).hostReady === true);
  return errors;
}

type Win = { tabcode: { mount: (el: unknown, config?: unknown) => Promise<Record<string, unknown>> } };

test('mount twice, not an element, a 20 MB file, `..` paths, non-CSS theme values: warnings, and a working playground', async ({
  page,
  context,
}) => {
  const refused = await loopbackOnly(context);
  const errors = await openHost(page);
  const result = await page.evaluate(async () => {
    const { mount } = (window as unknown as Win).tabcode;
    const el = document.getElementById('a') as HTMLElement;
    const warnings: string[] = [];
    el.addEventListener('embed-warning', (e) => warnings.push((e as CustomEvent).detail.field));
    const config = {
      sandbox: 'just-bash',
      files: {
        'ok.md': '# ok\n',
        '../up.txt': 'x',
        'a/../../b.txt': 'x',
        'big.csv': 'x'.repeat(20 * 1024 * 1024),
      },
      theme: {
        scheme: 'light',
        '--accent': 'red; background: url(https://example.com/x)',
        '--bg': 'expression(alert(1))',
        '--fg': '#111',
      },
      replay: {
        format: 'tabcode-replay',
        version: 1,
        turns: [{ responses: [{ content: [{ type: 'text', text: 'Hi from the replay.' }] }] }],
      },
    };
    const first = mount(el, config);
    const second = mount(el, { files: { 'other.md': 'x' } });
    const [h1, h2] = await Promise.all([first, second]);
    let notElement = '';
    try {
      await mount('not an element', {});
    } catch (err) {
      notElement = String(err);
    }
    const root = el.querySelector<HTMLElement>('.tabcode-root') as HTMLElement;
    return {
      same: h1 === h2,
      roots: el.querySelectorAll('.tabcode-root').length,
      warnings,
      handleWarnings: (h1.warnings as { field: string }[]).map((w) => w.field),
      accent: root.style.getPropertyValue('--accent'),
      bg: root.style.getPropertyValue('--bg'),
      fg: root.style.getPropertyValue('--fg'),
      rootTheme: root.dataset.theme,
      htmlTheme: document.documentElement.dataset.theme,
      notElement,
    };
  });
  expect(result.same).toBe(true);
  expect(result.roots).toBe(1);
  expect(result.warnings).toEqual([
    'files["../up.txt"]',
    'files["a/../../b.txt"]',
    'files["big.csv"]',
    'theme["--accent"]',
    'theme["--bg"]',
    'mount',
  ]);
  expect(result.handleWarnings).toEqual(result.warnings);
  expect(result).toMatchObject({ accent: '', bg: '', fg: '#111', rootTheme: 'light', htmlTheme: 'dark' });
  expect(result.notElement).toMatch(/TypeError: tabcode: mount\(element, config\) needs a DOM element/);

  const a = page.locator('#a');
  const notice = a.getByTestId('embed-warnings');
  await expect(notice.locator('[data-field="files[\\"big.csv\\"]"]')).toContainText('20,971,520 characters');
  await expect(notice.locator('[data-field="theme[\\"--accent\\"]"]')).toContainText('is not a CSS colour');
  await expect(notice.locator('[data-field="mount"]')).toContainText('already mounted');
  await expect(a.locator('[data-testid="file-item"][data-path="ok.md"]')).toBeVisible();
  await expect(a.locator('[data-testid="file-item"]')).toHaveCount(1);
  // It works: a prompt gets the replay's answer.
  await a.getByTestId('prompt-input').fill('hello');
  await a.getByTestId('prompt-input').press('Enter');
  await expect(a.getByTestId('assistant-text')).toHaveText('Hi from the replay.');
  await expect(page.locator('#host-text')).toHaveText("The host's own content.");
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test('a replay that is missing, corrupt or from another version is refused with a reason; the playground works', async ({
  page,
  context,
}) => {
  const refused = await loopbackOnly(context);
  const errors = await openHost(page);
  const fields = await page.evaluate(async () => {
    const { mount } = (window as unknown as Win).tabcode;
    const seen: Record<string, string[]> = { a: [], b: [], c: [] };
    for (const id of ['a', 'b', 'c'])
      document
        .getElementById(id)
        ?.addEventListener('embed-warning', (e) => seen[id].push((e as CustomEvent).detail.message));
    const el = (id: string) => document.getElementById(id) as HTMLElement;
    await Promise.all([
      mount(el('a'), { sandbox: 'just-bash', replay: './replays/no-such.replay.json' }),
      mount(el('b'), { sandbox: 'just-bash', replay: './corrupt.replay.json' }),
      mount(el('c'), { sandbox: 'just-bash', replay: { format: 'tabcode-replay', version: 7, turns: [] } }),
    ]);
    return seen;
  });
  expect(fields.a.join()).toMatch(/no-such\.replay\.json could not be loaded \(HTTP 404\); it is not played/);
  expect(fields.b.join()).toMatch(/The replay is not JSON .*; it is not played/);
  expect(fields.c.join()).toMatch(/version 7; this tabcode plays version 1 replays/);
  for (const id of ['#a', '#b', '#c']) {
    await expect(page.locator(id).getByTestId('embed-warnings')).toBeVisible();
    await expect(page.locator(id).getByTestId('prompt-input')).toHaveAttribute('data-ready', 'true');
    await expect(page.locator(id).getByTestId('embed-play')).toHaveCount(0);
    // A replay that is not played is not claimed: the empty state says a key is needed.
    await expect(page.locator(id).getByTestId('empty-state')).toHaveAttribute('data-mode', 'no-key');
  }
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});

test('unmount in the middle of a turn: the element is empty, nothing throws, and it mounts again', async ({
  page,
  context,
}) => {
  const refused = await loopbackOnly(context);
  const errors = await openHost(page);
  const outcome = await page.evaluate(async () => {
    const { mount } = (window as unknown as Win).tabcode;
    const el = document.getElementById('b') as HTMLElement;
    const long =
      'This answer streams slowly, word by word, so that the host can take the playground away. '.repeat(8);
    const replay = {
      format: 'tabcode-replay',
      version: 1,
      turns: [{ prompt: 'Go', responses: [{ content: [{ type: 'text', text: long }], chunkDelayMs: 60 }] }],
    };
    const handle = (await mount(el, { sandbox: 'just-bash', replay })) as {
      play(): Promise<void>;
      send(p: string): Promise<void>;
      subscribe(l: (e: { type: string }) => void): () => void;
      unmount(): Promise<void>;
    };
    const seen: string[] = [];
    handle.subscribe((e) => seen.push(e.type));
    const playing = handle.play();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (seen.includes('text-delta')) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    await handle.unmount();
    const settled = await Promise.race([
      playing.then(() => 'resolved'),
      new Promise((r) => setTimeout(() => r('hung'), 5000)),
    ]);
    const afterSend = await Promise.race([
      handle.send('again').then(() => 'resolved'),
      new Promise((r) => setTimeout(() => r('hung'), 2000)),
    ]);
    const emptied = el.childElementCount;
    const again = (await mount(el, { sandbox: 'just-bash', files: { 'fresh.md': '# fresh\n' } })) as {
      sandbox: string;
    };
    return {
      settled,
      afterSend,
      emptied,
      again: again.sandbox,
      roots: el.querySelectorAll('.tabcode-root').length,
    };
  });
  expect(outcome).toEqual({
    settled: 'resolved',
    afterSend: 'resolved',
    emptied: 0,
    again: 'just-bash',
    roots: 1,
  });
  await expect(page.locator('#b [data-testid="file-item"][data-path="fresh.md"]')).toBeVisible();
  // Live with no key: its empty state says so (with the button to add one) and lists its own file.
  const fresh = page.locator('#b').getByTestId('empty-state');
  await expect(fresh).toHaveAttribute('data-mode', 'no-key');
  await expect(fresh.getByTestId('empty-file')).toHaveText(['fresh.md']);
  await expect(fresh.getByTestId('empty-add-key')).toBeVisible();
  await expect(fresh).not.toContainText('npm run');
  await expect(page.locator('#b').getByTestId('user-message')).toHaveCount(0);
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});
