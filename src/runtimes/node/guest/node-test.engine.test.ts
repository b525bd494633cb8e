/**
 * node:test, stream and readline on the real engine (the `node` command's QuickJS worker, run
 * in-process): `node --test` through internal/test/runner, a test file run directly, streams on the
 * process's stdin and stdout.
 */
import { describe, expect, it } from 'vitest';
import { putFiles, runNode, sharedEngine } from '../testing/run-node.ts';
import { normalizeReport } from './testing/node-goldens.ts';

describe('on the engine', () => {
  it('node --test runs every test file into one summary and exits 1 on a failure', async () => {
    const engine = await sharedEngine();
    putFiles(engine, {
      'package.json': '{ "name": "demo", "scripts": { "test": "node --test" } }',
      'src/add.js': 'module.exports = (a, b) => a + b;\n',
      'test/add.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const add = require('../src/add.js');",
        "test('adds', () => { assert.strictEqual(add(1, 2), 3); });",
        "test.describe('suite', () => { test.it('fails', () => { throw new Error('nope'); }); });",
        "test('waits for a timer', (t, done) => { setTimeout(done, 5); });",
      ].join('\n'),
      'test/esm.test.mjs':
        "import test from 'node:test';\nawait Promise.resolve();\ntest('esm', async () => {});\n",
    });
    const r = await runNode(engine, ['--test', 'test/']);
    expect(normalizeReport(r.stdout)).toBe(
      [
        '✔ adds (Nms)',
        '▶ suite',
        '  ✖ fails (Nms)',
        '    Error: nope',
        '',
        '✖ suite (Nms)',
        '✔ waits for a timer (Nms)',
        '✔ esm (Nms)',
        'ℹ tests 4',
        'ℹ suites 1',
        'ℹ pass 3',
        'ℹ fail 1',
        'ℹ cancelled 0',
        'ℹ skipped 0',
        'ℹ todo 0',
        'ℹ duration_ms N',
        '',
        '✖ failing tests:',
        '',
        'test at test/add.test.js:5:37',
        '✖ fails (Nms)',
        '  Error: nope',
        '',
      ].join('\n'),
    );
    expect(r.exitCode).toBe(1);
  });

  it('a test file run directly reports when its code is done; all passing exits 0', async () => {
    const engine = await sharedEngine();
    putFiles(engine, {
      'direct.test.js':
        "const test = require('node:test');\nconsole.log('top');\ntest('one', () => {});\nconsole.log('end of file');\n",
    });
    const r = await runNode(engine, ['direct.test.js']);
    expect(normalizeReport(r.stdout)).toMatch(/^top\nend of file\n✔ one \(Nms\)\nℹ tests 1\n/);
    expect(r.exitCode).toBe(0);
  });

  it('streams pipe stdin through a Transform to stdout; readline answers a question from stdin', async () => {
    const engine = await sharedEngine();
    putFiles(engine, {
      'upper.js':
        "const { Transform, pipeline } = require('stream');\npipeline(process.stdin, new Transform({ transform(c, e, cb) { cb(null, String(c).toUpperCase()); } }), process.stdout, (err) => { if (err) console.error(err); });\n",
      'ask.js':
        "const rl = require('readline/promises').createInterface({ input: process.stdin, output: process.stdout });\nrl.question('name? ').then((a) => { console.log('hi ' + a); rl.close(); });\n",
    });
    expect((await runNode(engine, ['upper.js'], { stdin: 'shout\n' })).stdout).toBe('SHOUT\n');
    expect((await runNode(engine, ['ask.js'], { stdin: 'bob\n' })).stdout).toBe('name? hi bob\n');
  });
});
