/**
 * python3 in the real just-bash sandbox, with the python worker's own code run in-process on the real
 * Pyodide (loaded from node_modules). Pyodide takes seconds to load, so the file shares one sandbox —
 * one warm worker — and each test works in its own folder.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { deferredWorker } from './deferred-worker.ts';
import { createInProcessPythonWorker, PYODIDE_NODE_DIR } from './in-process-worker.ts';
import { PYODIDE_LOCK_INFO, PYODIDE_VERSION, PYTHON_VERSION } from './version.ts';

const ROOT = '/home/user/project';
let sb: Sandbox;
let started = 0;

beforeAll(async () => {
  // Through deferredWorker, as the page creates its python worker (a module loaded on first use).
  sb = await createJustBashSandbox({
    workers: { python: () => deferredWorker(async () => createInProcessPythonWorker()) },
    fetch: null,
  });
  // The first run loads Pyodide; later ones reuse the warm worker.
  started = 0;
  const t0 = performance.now();
  const r = await sb.exec('python3 -c "pass"');
  started = performance.now() - t0;
  expect(r).toMatchObject({ exitCode: 0, stderr: '' });
}, 120_000);

afterAll(async () => {
  await sb?.dispose();
});

/** Runs a command line from the workspace root (the shell session keeps its cwd between calls). */
const run = (command: string) => sb.exec(`cd ${ROOT} && ${command}`);

describe('python3 in the just-bash sandbox', () => {
  it('reports the version without loading anything, and `python` is the same command', async () => {
    expect(started).toBeGreaterThan(0);
    expect((await run('python3 --version')).stdout).toBe(`Python ${PYTHON_VERSION}\n`);
    expect((await run('python -V')).stdout).toBe(`Python ${PYTHON_VERSION}\n`);
    expect((await run('python -c "import sys; print(sys.version_info[:2])"')).stdout).toBe(
      `(${PYTHON_VERSION.split('.').slice(0, 2).join(', ')})\n`,
    );
  });

  it('works in pipes, &&, $? and redirections; sys.exit codes and messages', async () => {
    const r = await run(
      [
        `python3 -c "print('one'); print('two')" | grep two && echo "rc=$?"`,
        `python3 -c "import sys; sys.exit(3)"; echo "exit=$?"`,
        `python3 -c "import sys; sys.exit('bad input')"; echo "msg=$?"`,
        `python3 -c "raise SystemExit(256)"; echo "wrap=$?"`,
        `python3 -c "import sys; print('out'); print('err', file=sys.stderr)" > both.txt 2>&1; cat both.txt`,
      ].join('; '),
    );
    expect(r.stdout).toBe('two\nrc=0\nexit=3\nmsg=1\nwrap=0\nout\nerr\n');
    expect(r.stderr).toBe('bad input\n');
  });

  it('processes a CSV with the csv module into a file that is then in the sandbox', async () => {
    await sb.writeFile(
      `${ROOT}/csv/sales.csv`,
      'region,product,amount\nnorth,tea,12.50\nsouth,tea,7.25\nnorth,coffee,20\nsouth,coffee,3.75\nnorth,tea,1\n',
    );
    await sb.writeFile(
      `${ROOT}/csv/summarize.py`,
      [
        'import csv, sys, os',
        'from collections import defaultdict',
        'totals = defaultdict(float)',
        'with open(sys.argv[1], newline="") as f:',
        '    for row in csv.DictReader(f):',
        '        totals[row["region"]] += float(row["amount"])',
        'os.makedirs("out", exist_ok=True)',
        'with open(sys.argv[2], "w", newline="") as f:',
        '    w = csv.writer(f)',
        '    w.writerow(["region", "total"])',
        '    for region in sorted(totals):',
        '        w.writerow([region, f"{totals[region]:.2f}"])',
        'print(f"{len(totals)} regions")',
      ].join('\n'),
    );
    const r = await run('cd csv && python3 summarize.py sales.csv out/summary.csv && cat out/summary.csv');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('2 regions\nregion,total\r\nnorth,33.50\r\nsouth,11.00\r\n');
    expect(await sb.readFile(`${ROOT}/csv/out/summary.csv`)).toBe(
      'region,total\r\nnorth,33.50\r\nsouth,11.00\r\n',
    );
  });

  it('prints an uncaught exception as CPython does, with the program frames only, and exits 1', async () => {
    await sb.writeFile(
      `${ROOT}/tb/bad.py`,
      'def inner(x):\n    return 10 / x\n\ndef outer():\n    return inner(0)\n\nouter()\n',
    );
    const r = await run('python3 tb/bad.py; echo "rc=$?"');
    expect(r.stdout).toBe('rc=1\n');
    expect(r.stderr).toBe(
      [
        'Traceback (most recent call last):',
        `  File "${ROOT}/tb/bad.py", line 7, in <module>`,
        '    outer()',
        '    ~~~~~^^',
        `  File "${ROOT}/tb/bad.py", line 5, in outer`,
        '    return inner(0)',
        `  File "${ROOT}/tb/bad.py", line 2, in inner`,
        '    return 10 / x',
        '           ~~~^~~',
        'ZeroDivisionError: division by zero',
        '',
      ].join('\n'),
    );
    const syntax = await run(`python3 -c "print('x'"`);
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stderr).toContain('File "<string>", line 1');
    expect(syntax.stderr).toContain('SyntaxError:');
    const missing = await run('python3 tb/nope.py');
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toBe(
      `/usr/bin/python3: can't open file '${ROOT}/tb/nope.py': [Errno 44] No such file or directory\n`,
    );
    const pkg = await run('python3 -c "import numpy"');
    expect(pkg.exitCode).toBe(1);
    expect(pkg.stderr).toContain("ModuleNotFoundError: No module named 'numpy'");
    expect(pkg.stderr).toContain('standard library only');
    expect((await run('python3 -z')).exitCode).toBe(2);
    const deep = await run(`python3 -c "def f(n): return f(n + 1)
f(0)"`);
    expect(deep.exitCode).toBe(1);
    expect(deep.stderr).toContain('RecursionError: maximum recursion depth exceeded');
  });

  it('reads stdin: data for the program, or the program itself', async () => {
    const data = await run(
      `printf 'b\\na\\n' | python3 -c "import sys; print(sorted(sys.stdin.read().split()))"`,
    );
    expect(data.stdout).toBe("['a', 'b']\n");
    const script = await run("python3 - one two <<'EOF'\nimport sys\nprint(sys.argv)\nEOF");
    expect(script.stdout).toBe("['-', 'one', 'two']\n");
    expect((await run('echo "print(6 * 7)" | python3')).stdout).toBe('42\n');
    const input = await run(`printf 'Ada\\n' | python3 -c "name = input('name? '); print('hi', name)"`);
    expect(input.stdout).toBe('name? hi Ada\n');
    const eof = await run(`python3 -c "input()"`);
    expect(eof.exitCode).toBe(1);
    expect(eof.stderr).toContain('EOFError');
    const repl = await run('python3');
    expect(repl.exitCode).toBe(2);
    expect(repl.stderr).toContain('interactive interpreter is not available');
  });

  it('gives the program its argv, environment and cwd', async () => {
    await sb.writeFile(
      `${ROOT}/env/sub/show.py`,
      'import os, sys\nprint(sys.argv)\nprint(os.getcwd())\nprint(os.environ.get("GREETING"))\nprint(sys.path[0])\n',
    );
    const r = await run(`(export GREETING=hello; cd env/sub && python3 show.py 'two words' x)`);
    expect(r.stdout).toBe(`['show.py', 'two words', 'x']\n${ROOT}/env/sub\nhello\n${ROOT}/env/sub\n`);
    // What a program does to its environment and cwd stays in that run.
    await run(`python3 -c "import os; os.environ['LEAK'] = '1'; os.chdir('/tmp')"`);
    expect((await run(`python3 -c "import os; print(os.environ.get('LEAK'), os.getcwd())"`)).stdout).toBe(
      `None ${ROOT}\n`,
    );
  });

  it('starts each run afresh: edited modules, builtins and atexit handlers do not carry over', async () => {
    await sb.writeFile(`${ROOT}/fresh/helper.py`, 'VALUE = 1\n');
    await sb.writeFile(
      `${ROOT}/fresh/main.py`,
      'import helper, builtins\nprint(helper.VALUE, hasattr(builtins, "leak"))\nbuiltins.leak = True\n',
    );
    expect((await run('cd fresh && python3 main.py')).stdout).toBe('1 False\n');
    await sb.writeFile(`${ROOT}/fresh/helper.py`, 'VALUE = 2\n');
    expect((await run('cd fresh && python3 main.py')).stdout).toBe('2 False\n');
    const exit = await run(`python3 -c "import atexit; atexit.register(print, 'bye'); print('hi')"`);
    expect(exit.stdout).toBe('hi\nbye\n');
    expect((await run(`python3 -c "print('again')"`)).stdout).toBe('again\n');
    // A program that closes stdout (json.tool does) does not take the next run's output with it.
    expect((await run(`python3 -c "import sys; print('x'); sys.stdout.close()"`)).stdout).toBe('x\n');
    expect((await run(`python3 -c "print('still here')"`)).stdout).toBe('still here\n');
  });

  it('reports every file the program created, changed or removed before it exits', async () => {
    await sb.writeFile(`${ROOT}/files/keep.txt`, 'keep');
    await sb.writeFile(`${ROOT}/files/gone.txt`, 'gone');
    await sb.writeFile(`${ROOT}/files/old/inner.txt`, 'inner');
    await sb.writeFile(`${ROOT}/files/edit.txt`, 'before');
    const program = [
      'import os, shutil, pathlib',
      'os.makedirs("made/deep", exist_ok=True)',
      'pathlib.Path("made/deep/a.txt").write_text("alpha")',
      'open("edit.txt", "a").write(" after")',
      'os.remove("gone.txt")',
      'shutil.copytree("old", "copied")',
      'os.rename("old", "renamed")',
      'shutil.copy("keep.txt", "made/keep-copy.txt")',
      'os.replace("made/keep-copy.txt", "made/moved.txt")',
      'open("bin.dat", "wb").write(bytes(range(256)))',
      'os.chmod("made/deep/a.txt", 0o755)',
      'os.symlink("keep.txt", "link.txt")',
      'os.makedirs("tmpdir")',
      'shutil.rmtree("tmpdir")',
      'open("/tmp/py-scratch.txt", "w").write("in tmp")',
      'with open("trunc.txt", "w") as f: f.write("long text")',
      'with open("trunc.txt", "r+") as f: f.truncate(4)',
    ].join('\n');
    await sb.writeFile(`${ROOT}/files/ops.py`, program);
    const r = await run(
      'cd files && python3 ops.py && find . -type f | sort && cat trunc.txt edit.txt /tmp/py-scratch.txt',
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        './bin.dat',
        './copied/inner.txt',
        './edit.txt',
        './keep.txt',
        './made/deep/a.txt',
        './made/moved.txt',
        './ops.py',
        './renamed/inner.txt',
        './trunc.txt',
        'longbefore afterin tmp',
      ].join('\n'),
    );
    expect(await sb.exists(`${ROOT}/files/gone.txt`)).toBe(false);
    expect(await sb.exists(`${ROOT}/files/old`)).toBe(false);
    expect(await sb.exists(`${ROOT}/files/tmpdir`)).toBe(false);
    expect(await sb.readFile(`${ROOT}/files/renamed/inner.txt`)).toBe('inner');
    expect((await run('readlink files/link.txt && cat files/link.txt')).stdout).toBe('keep.txt\nkeep');
    expect((await run('stat -c %a files/made/deep/a.txt')).stdout.trim()).toBe('755');
    const bytes = await run(
      `python3 -c "print(list(open('files/bin.dat', 'rb').read()) == list(range(256)))"`,
    );
    expect(bytes.stdout).toBe('True\n');
  });

  it('runs stdlib modules with -m (json.tool, unittest) and says plainly what cannot run', async () => {
    await sb.writeFile(`${ROOT}/mods/data.json`, '{"b": 1, "a": [1, 2]}');
    const tool = await run('cd mods && python3 -m json.tool --sort-keys data.json');
    expect(tool.stdout).toBe('{\n    "a": [\n        1,\n        2\n    ],\n    "b": 1\n}\n');
    await sb.writeFile(
      `${ROOT}/mods/test_math.py`,
      'import unittest\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertEqual(2 + 2, 4)\n    def test_bad(self):\n        self.assertEqual(2 + 2, 5)\n',
    );
    const tests = await run('cd mods && python3 -m unittest test_math');
    expect(tests.exitCode).toBe(1);
    expect(tests.stderr).toContain('Ran 2 tests');
    expect(tests.stderr).toContain('FAILED (failures=1)');
    const nope = await run('python3 -m no_such_module');
    expect(nope).toMatchObject({ exitCode: 1, stderr: '/usr/bin/python3: No module named no_such_module\n' });
    const server = await run('python3 -m http.server 8000');
    expect(server.exitCode).toBe(1);
    expect(server.stderr).toContain('http.server cannot run here');
    expect(server.stderr).toContain('no network');
    const pip = await run('python3 -m pip install requests');
    expect(pip.exitCode).toBe(1);
    expect(pip.stderr).toContain('packages cannot be installed');
  });

  it('runs asyncio programs (timers, tasks, gather) on an event loop without sockets', async () => {
    const r = await run(
      `python3 -c "${[
        'import asyncio, time',
        'async def job(n):',
        '    await asyncio.sleep(0.05)',
        '    return n * 2',
        'async def main():',
        '    t = time.monotonic()',
        '    r = await asyncio.gather(job(1), job(2), job(3))',
        '    return r, time.monotonic() - t < 0.5',
        'print(asyncio.run(main()))',
      ].join('\n')}"`,
    );
    expect(r).toMatchObject({ stdout: '([2, 4, 6], True)\n', stderr: '', exitCode: 0 });
  });
});

describe('isolation: Python cannot reach the browser or the network', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const attempts: [string, string, RegExp][] = [
    ['import js', 'import js; js.fetch', /no access to the browser: the 'js' module is not available/],
    ['import pyodide_js', 'import pyodide_js', /the 'pyodide_js' module is not available/],
    [
      'pyodide.code.run_js',
      'from pyodide.code import run_js; run_js("1")',
      /the 'pyodide' module is not available/,
    ],
    ['pyodide.ffi', 'import pyodide.ffi', /the 'pyodide' module is not available/],
    ['pyodide.http', 'from pyodide.http import pyfetch', /the 'pyodide' module is not available/],
    ['ctypes', 'import ctypes', /does not provide 'ctypes'/],
    ['micropip', 'import micropip', /packages cannot be installed/],
    [
      'urllib to a URL',
      'import urllib.request; urllib.request.urlopen("http://127.0.0.1:PORT/")',
      /URLError: .*no network/,
    ],
    ['a socket', 'import socket; socket.create_connection(("127.0.0.1", PORT))', /OSError: .*no network/],
    [
      'a raw socket',
      'import _socket; s = _socket.socket(); s.connect(("127.0.0.1", PORT))',
      /OSError: \[Errno \d+\]/,
    ],
    ['a server', 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))', /OSError: .*no network/],
    [
      'webbrowser',
      'import webbrowser; webbrowser.open("http://127.0.0.1:PORT/")',
      /cannot open a browser window/,
    ],
  ];
  for (const [name, code, message] of attempts) {
    it(`${name} fails with a clear error`, async () => {
      const r = await run(`python3 -c '${code.replaceAll('PORT', String(port))}'`);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('<tabcode');
      expect(hits).toBe(0);
    });
  }

  it('a program cannot recover the bridges by clearing the import system', async () => {
    const r = await run(
      `python3 -c 'import sys; [sys.modules.pop(k) for k in list(sys.modules) if k.startswith(("pyodide", "_pyodide", "js"))]; sys.meta_path[:] = sys.meta_path[1:]; import js'`,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/ModuleNotFoundError: No module named 'js'/);
    // The next run has the blocker back.
    expect((await run(`python3 -c 'import js'`)).stderr).toContain('no access to the browser');
  });
});

describe('a python worker that cannot be loaded', () => {
  it('fails the command with a clear message, and the next command tries again', async () => {
    let attempts = 0;
    const offline = await createJustBashSandbox({
      workers: {
        python: () =>
          deferredWorker(async () => {
            attempts++;
            throw new Error('Failed to fetch dynamically imported module');
          }),
      },
      fetch: null,
    });
    try {
      const r = await offline.exec('python3 -c pass; echo "rc=$?"');
      expect(r.stdout).toBe('rc=1\n');
      expect(r.stderr).toBe(
        'python3: the worker could not be loaded: Failed to fetch dynamically imported module\n',
      );
      await offline.exec('python3 -c pass');
      expect(attempts).toBe(2);
      // Answered without a worker.
      expect((await offline.exec('python3 --version')).stdout).toBe(`Python ${PYTHON_VERSION}\n`);
      expect(attempts).toBe(2);
    } finally {
      await offline.dispose();
    }
  });
});

describe('the pinned versions', () => {
  it('match the installed pyodide package and its interpreter', async () => {
    const pkg = JSON.parse(readFileSync(`${PYODIDE_NODE_DIR}package.json`, 'utf8')) as { version: string };
    expect(pkg.version).toBe(PYODIDE_VERSION);
    const lock = JSON.parse(readFileSync(`${PYODIDE_NODE_DIR}pyodide-lock.json`, 'utf8')) as { info: object };
    expect(lock.info).toEqual(PYODIDE_LOCK_INFO);
    const r = await run('python3 -c "import sys; print(sys.version.split()[0])"');
    expect(r.stdout).toBe(`${PYTHON_VERSION}\n`);
  });
});
