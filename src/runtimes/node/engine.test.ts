import { createHash, createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NodeEngine } from './engine.ts';
import { putFiles, runNode, sharedEngine, TEST_ROOT } from './testing/run-node.ts';

let engine: NodeEngine;
beforeAll(async () => {
  engine = await sharedEngine();
});

describe('node engine: programs', () => {
  it('runs a CommonJS script with console, timers and exit events', async () => {
    putFiles(engine, {
      'a.js':
        "console.log('hello', 1 + 1, { a: [1, 2] });\nsetTimeout(() => console.log('later'), 5);\nprocess.on('exit', (c) => console.log('exit', c));\n",
    });
    const r = await runNode(engine, ['a.js']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('hello 2 { a: [ 1, 2 ] }\nlater\nexit 0\n');
    expect(r.exitCode).toBe(0);
  });

  it('runs ES modules with top-level await, import.meta and CommonJS interop', async () => {
    putFiles(engine, {
      'esm/package.json': '{"type":"module"}',
      'esm/main.js':
        "import { x } from './lib.js';\nimport cjs, { named } from '../cjs.cjs';\nimport path from 'node:path';\nconst v = await Promise.resolve(x * 2);\nconsole.log(v, cjs.named, named, path.basename(import.meta.url), import.meta.filename, import.meta.dirname);\nconst dyn = await import('./lib.js');\nconsole.log(dyn.x, import.meta.resolve('./lib.js'));\n",
      'esm/lib.js': 'export const x = 21;\n',
      'cjs.cjs': 'exports.named = "n";\n',
    });
    const r = await runNode(engine, ['esm/main.js']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `42 n n main.js ${TEST_ROOT}/esm/main.js ${TEST_ROOT}/esm\n21 file://${TEST_ROOT}/esm/lib.js\n`,
    );
  });

  it('resolves require: relative, index.js, JSON, node_modules main and exports, require(esm)', async () => {
    putFiles(engine, {
      'r/main.js': [
        "const a = require('./lib');",
        "const cfg = require('./config.json');",
        "const pkg = require('pkg');",
        "const sub = require('pkg/feature');",
        "const old = require('old');",
        "const esm = require('./esm.mjs');",
        'console.log(a.name, cfg.port, pkg(), sub, old.v, esm.default, esm.named);',
        "console.log(require.resolve('pkg'), require.main === module, module.filename === __filename);",
      ].join('\n'),
      'r/lib/index.js': 'module.exports = { name: "lib" };',
      'r/config.json': '{ "port": 8080 }',
      'node_modules/pkg/package.json': JSON.stringify({
        name: 'pkg',
        exports: { '.': { require: './cjs.js', import: './esm.mjs' }, './feature': './feature.js' },
      }),
      'node_modules/pkg/cjs.js': 'module.exports = () => "pkg-cjs";',
      'node_modules/pkg/esm.mjs': 'export default () => "pkg-esm";',
      'node_modules/pkg/feature.js': 'module.exports = "feature";',
      'node_modules/old/package.json': JSON.stringify({ name: 'old', main: 'lib/entry' }),
      'node_modules/old/lib/entry.js': 'exports.v = "old-main";',
      'r/esm.mjs': 'export default "esm-default"; export const named = "esm-named";',
    });
    const r = await runNode(engine, ['r/main.js']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `lib 8080 pkg-cjs feature old-main esm-default esm-named\n${TEST_ROOT}/node_modules/pkg/cjs.js true true\n`,
    );
  });

  it('prints an uncaught error as Node does: location, source line, caret, stack; exit 1', async () => {
    putFiles(engine, { 'boom.js': 'function fail() {\n  throw new Error("boom");\n}\nfail();\n' });
    const r = await runNode(engine, ['boom.js']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(`${TEST_ROOT}/boom.js:2`);
    expect(lines[1]).toBe('  throw new Error("boom");');
    expect(lines[2]).toMatch(/^ +\^$/);
    expect(lines[4]).toBe('Error: boom');
    expect(lines[5]).toMatch(new RegExp(`^    at fail \\(${TEST_ROOT}/boom.js:2:\\d+\\)$`));
    expect(r.stderr).toContain(`${TEST_ROOT}/boom.js:4:1`);
    expect(r.stderr.trim().endsWith('Node.js v22.12.0')).toBe(true);
  });

  it('reports an error thrown from an ES module with its file URL and an async rejection of the main module', async () => {
    putFiles(engine, { 'bad.mjs': 'await null;\nthrow new TypeError("no good");\n' });
    const r = await runNode(engine, ['bad.mjs']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`file://${TEST_ROOT}/bad.mjs:2`);
    expect(r.stderr).toContain('TypeError: no good');
  });

  it('runs a .js file with module syntax and no "type" as an ES module (Node 22 detection)', async () => {
    putFiles(engine, {
      'detect/main.js': "import { max } from './stats.js';\nconsole.log(max([3, 9, 2]));\n",
      'detect/stats.js': 'export function max(v) { return Math.max(...v); }\n',
      'detect/old.js': "const { max } = require('./stats.js');\nconsole.log('cjs', max([1, 4]));\n",
    });
    expect((await runNode(engine, ['detect/main.js'])).stdout).toBe('9\n');
    expect((await runNode(engine, ['detect/old.js'])).stdout).toBe('cjs 4\n');
  });

  it("an import that cannot be resolved rejects with Node's code and message", async () => {
    const r = await runNode(engine, [
      '-e',
      "Promise.all([import('node:nope').catch((e) => [e.code, e.message]), import('./missing.mjs').catch((e) => [e.code, e.message.split(' imported')[0]])]).then((x) => console.log(JSON.stringify(x)))",
    ]);
    expect(JSON.parse(r.stdout)).toEqual([
      ['ERR_UNKNOWN_BUILTIN_MODULE', 'No such built-in module: node:nope'],
      ['ERR_MODULE_NOT_FOUND', `Cannot find module '${TEST_ROOT}/missing.mjs'`],
    ]);
  });

  it('names a missing module and a missing file like Node', async () => {
    putFiles(engine, { 'miss.js': "require('left-pad');\n" });
    const r = await runNode(engine, ['miss.js']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Error: Cannot find module 'left-pad'");
    expect(r.stderr).toContain("code: 'MODULE_NOT_FOUND'");
    const r2 = await runNode(engine, ['nope.js']);
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr).toContain(`Cannot find module '${TEST_ROOT}/nope.js'`);
  });

  it('process.exit, exitCode, argv and env', async () => {
    putFiles(engine, {
      'p.js':
        "console.log(JSON.stringify(process.argv.slice(1)), process.env.FOO, process.cwd());\nprocess.on('exit', (c) => console.log('bye', c));\nprocess.exitCode = 3;\nif (process.argv[2] === 'now') { process.exit(5); console.log('never'); }\n",
    });
    const r = await runNode(engine, ['p.js', 'x', 'y'], { env: { FOO: 'bar' } });
    expect(r.stdout).toBe(`["${TEST_ROOT}/p.js","x","y"] bar ${TEST_ROOT}\nbye 3\n`);
    expect(r.exitCode).toBe(3);
    const r2 = await runNode(engine, ['p.js', 'now']);
    expect(r2.stdout).toMatch(/bye 5\n$/);
    expect(r2.stdout).not.toContain('never');
    expect(r2.exitCode).toBe(5);
  });

  it('node -e, -p, stdin and --version', async () => {
    expect((await runNode(engine, ['-e', 'console.log(require("path").join("a", "..", "b"))'])).stdout).toBe(
      'b\n',
    );
    expect((await runNode(engine, ['-p', '[1, 2].map((x) => x * 3)'])).stdout).toBe('[ 3, 6 ]\n');
    expect((await runNode(engine, ['-p', '"text"'])).stdout).toBe('text\n');
    expect((await runNode(engine, [], { stdin: 'console.log("from stdin")' })).stdout).toBe('from stdin\n');
    expect(
      (await runNode(engine, ['-e', 'import fs from "node:fs"; console.log(typeof fs.readFileSync)'])).stdout,
    ).toBe('function\n');
    expect((await runNode(engine, ['--version'])).stdout).toBe('v22.12.0\n');
    const bad = await runNode(engine, ['--inspect', 'a.js']);
    expect(bad.exitCode).toBe(9);
    expect(bad.stderr).toContain('--inspect is not supported');
  });

  it('orders nextTick, promises, immediates and timers as Node does', async () => {
    putFiles(engine, {
      'order.js':
        "const out = [];\nsetTimeout(() => out.push('timeout'), 0);\nsetImmediate(() => out.push('immediate'));\nPromise.resolve().then(() => out.push('promise'));\nprocess.nextTick(() => out.push('tick'));\nout.push('sync');\nsetTimeout(() => console.log(out.join(',')), 20);\n",
    });
    const r = await runNode(engine, ['order.js']);
    expect(r.stdout.trim().split(',').slice(0, 3)).toEqual(['sync', 'tick', 'promise']);
    expect(r.stdout).toContain('immediate');
    expect(r.stdout).toContain('timeout');
  });

  it("a top-level await that never settles exits 13 with Node's warning", async () => {
    putFiles(engine, { 'hang.mjs': 'await new Promise(() => {});\n' });
    const r = await runNode(engine, ['hang.mjs']);
    expect(r.exitCode).toBe(13);
    expect(r.stderr).toContain('Warning: Detected unsettled top-level await');
  });
});

describe('node engine: TypeScript, child_process, crypto, limits', () => {
  it("runs a TypeScript file with its types stripped; lines stay the file's own", async () => {
    putFiles(engine, {
      'ts/main.ts':
        "interface Point { x: number; y: number }\nconst p: Point = { x: 1, y: 2 };\nfunction len(a: Point): number { return Math.hypot(a.x, a.y); }\nconsole.log(len(p).toFixed(3));\nthrow new Error('at line 5');\n",
    });
    const r = await runNode(engine, ['ts/main.ts']);
    expect(r.stdout).toBe('2.236\n');
    expect(r.stderr).toContain(`${TEST_ROOT}/ts/main.ts:5`);
    expect(r.exitCode).toBe(1);
  });

  it('child_process.exec goes to the sandbox shell; execSync says to use exec', async () => {
    putFiles(engine, {
      'cp.js':
        "const { exec, execSync } = require('child_process');\nexec('echo hi', (err, out) => console.log('exec:', err, JSON.stringify(out)));\ntry { execSync('ls'); } catch (e) { console.log(e.code); }\n",
    });
    const r = await runNode(engine, ['cp.js'], {
      exec: (command) => ({ exitCode: 0, stdout: command === 'echo hi' ? 'hi\n' : '', stderr: '' }),
    });
    expect(r.stdout).toBe('ERR_NOT_SUPPORTED\nexec: null "hi\\n"\n');
  });

  it("crypto hashes match Node's; random values and UUIDs are well formed", async () => {
    const r = await runNode(engine, [
      '-e',
      "const c = require('crypto'); console.log(c.createHash('sha256').update('abc').digest('hex')); console.log(c.createHash('md5').update('a').update('bc').digest('base64')); console.log(c.createHmac('sha1', 'key').update('msg').digest('hex')); console.log(c.randomUUID()); console.log(c.randomBytes(8).length);",
    ]);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(lines[1]).toBe(createHash('md5').update('abc').digest('base64'));
    expect(lines[2]).toBe(createHmac('sha1', 'key').update('msg').digest('hex'));
    expect(lines[3]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(lines[4]).toBe('8');
  });

  it('unsupported built-ins load but explain themselves when used', async () => {
    const r = await runNode(engine, ['-e', "require('http').createServer(() => {}).listen(3000)"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("http.createServer() is not available in tabcode's built-in sandbox");
    expect(r.stderr).toContain("code: 'ERR_NOT_SUPPORTED'");
    const w = await runNode(engine, [
      '-e',
      "const { Worker } = require('worker_threads'); new Worker('x.js')",
    ]);
    expect(w.stderr).toContain('new worker_threads.Worker() is not available');
  });

  it('a program that allocates without bound gets a heap-limit message and exit 134', async () => {
    const r = await runNode(
      engine,
      ['-e', 'const a = []; for (;;) a.push({ n: a.length, list: [1, 2, 3] });'],
      {
        memoryLimitBytes: 32 * 1024 * 1024,
      },
    );
    expect(r.exitCode).toBe(134);
    expect(r.stderr).toContain('JavaScript heap out of memory');
  });

  it('deep recursion is a RangeError the program can catch', async () => {
    const r = await runNode(engine, [
      '-e',
      'function f() { return f() + 1; } try { f(); } catch (e) { console.log(e instanceof RangeError, e.message); }',
    ]);
    expect(r.stdout).toMatch(/^true .*stack/i);
  });
});

describe('node engine: ES module details', () => {
  it("columns on line 1 of an ES module are the file's own; CommonJS names in ESM get Node's hint", async () => {
    putFiles(engine, {
      'esm1/package.json': '{"type":"module"}',
      'esm1/a.js': "const x = require('./b');\n",
    });
    const r = await runNode(engine, ['esm1/a.js']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`file://${TEST_ROOT}/esm1/a.js:1:11`);
    expect(r.stderr.split('\n')[2]).toBe('          ^');
    expect(r.stderr).toContain(
      'ReferenceError: require is not defined in ES module scope, you can use import instead',
    );
    expect(r.stderr).toContain("rename it to use the '.cjs' file extension");
  });
});

describe('node engine: promises Node would report', () => {
  it('an async main() that throws is reported and exits 1, as in Node', async () => {
    putFiles(engine, {
      'rej.js':
        "async function main() {\n  await null;\n  throw new Error('failed inside main');\n}\nmain();\n",
    });
    const r = await runNode(engine, ['rej.js']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Error: failed inside main');
    expect(r.stderr).toContain(`${TEST_ROOT}/rej.js:3`);
  });

  it('a rejection handled later in the same tick is not reported; a non-Error reason is wrapped', async () => {
    const ok = await runNode(engine, [
      '-e',
      "const p = Promise.reject(new Error('x')); p.catch(() => console.log('handled'));",
    ]);
    expect(ok.stdout).toBe('handled\n');
    expect(ok.exitCode).toBe(0);
    const str = await runNode(engine, ['-e', "Promise.reject('oops')"]);
    expect(str.exitCode).toBe(1);
    expect(str.stderr).toContain('The promise rejected with the reason "\'oops\'"');
    expect(str.stderr).toContain("code: 'ERR_UNHANDLED_REJECTION'");
  });

  it("process.on('unhandledRejection') takes it instead", async () => {
    const r = await runNode(engine, [
      '-e',
      "process.on('unhandledRejection', (reason) => console.log('caught:', reason.message)); Promise.reject(new Error('late'));",
    ]);
    expect(r.stdout).toBe('caught: late\n');
    expect(r.exitCode).toBe(0);
  });

  it('each run starts from a clean runtime: globals a program sets are gone next time', async () => {
    await runNode(engine, ['-e', 'globalThis.leftover = 1; Array.prototype.evil = () => 1;']);
    const r = await runNode(engine, ['-e', 'console.log(typeof leftover, typeof [].evil)']);
    expect(r.stdout).toBe('undefined undefined\n');
  });
});

describe('node engine: node --test options', () => {
  it('--test-name-pattern runs only the matching tests; --test-timeout cancels a slow one', async () => {
    putFiles(engine, {
      'tt/a.test.js':
        "const { test } = require('node:test');\ntest('fast one', () => {});\ntest('other', () => {});\ntest('slow one', () => new Promise((r) => setTimeout(r, 2000)));\n",
    });
    const r = await runNode(engine, ['--test', '--test-name-pattern=fast', 'tt/']);
    expect(r.stdout).toContain('✔ fast one');
    expect(r.stdout).not.toContain('✔ other');
    const t = await runNode(engine, ['--test', '--test-timeout=100', 'tt/']);
    expect(t.stdout).toMatch(/✖ slow one/);
    expect(t.exitCode).toBe(1);
  });
});
