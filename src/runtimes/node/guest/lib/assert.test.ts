// node:assert in the guest against Node's own: which calls throw, and the whole AssertionError
// (message with its diff, code, operator, actual/expected, generatedMessage) when they do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode, expectSameAsNodeAsync } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';
import { rng, ValueGen } from '../testing/value-gen.ts';

let h: GuestHarness;
beforeAll(async () => {
  h = await GuestHarness.create();
});
afterAll(() => h.dispose());

/** Runs `assert.<fn>(...args)` with args given as source; returns what was thrown, described. */
const CALL = `([fn, ...args], require) => {
  const assert = require('assert');
  const values = args.map((a) => (0, eval)('(' + a + ')'));
  try {
    const target = fn.startsWith('strict.') ? assert.strict[fn.slice(7)] : assert[fn];
    target(...values);
    return 'passed';
  } catch (e) {
    const info = { name: e.name, code: e.code, message: e.message, operator: e.operator, generated: e.generatedMessage };
    if (e.code === 'ERR_ASSERTION') info.text = String(e);
    return info;
  }
}`;

const PAIRS: [string, string][] = [
  ['1', '2'],
  ['1', '1'],
  ['1', "'1'"],
  ['0', '-0'],
  ['NaN', 'NaN'],
  ["'hello world'", "'hello there'"],
  ["'a'.repeat(30)", "'a'.repeat(29) + 'b'"],
  ["'line1\\nline2'", "'line1\\nline3'"],
  ['null', 'undefined'],
  ['true', '1'],
  ['{ a: 1 }', '{ a: 1 }'],
  ['{ a: 1 }', '{ a: 2 }'],
  ['{ a: 1, b: 2 }', '{ b: 2, a: 1 }'],
  ['{ a: [1, 2, 3] }', '{ a: [1, 2, 4] }'],
  ['[1, 2, 3]', '[1, 2, 3, 4]'],
  ['[1, 2, 3, 4]', '[1, 2, 3]'],
  ['{ a: { b: { c: { d: 1 } } } }', '{ a: { b: { c: { d: 2 } } } }'],
  ['Array.from({ length: 20 }, (_, i) => i)', 'Array.from({ length: 20 }, (_, i) => (i === 10 ? -1 : i))'],
  [
    'Array.from({ length: 80 }, (_, i) => ({ i }))',
    'Array.from({ length: 80 }, (_, i) => ({ i: i === 40 ? 0 : i }))',
  ],
  ['new Map([[1, 2]])', 'new Map([[1, 3]])'],
  ['new Set([1, 2])', 'new Set([1, 3])'],
  ['new Date(0)', 'new Date(1)'],
  ['/a/g', '/a/i'],
  [
    "Object.assign(new Error('x'), { stack: 'Error: x' })",
    "Object.assign(new Error('y'), { stack: 'Error: y' })",
  ],
  ['[1, [2, [3]]]', '[1, [2, [4]]]'],
  ["{ s: Symbol.for('a') }", "{ s: Symbol.for('a') }"],
  ['{ a: 1 }', 'Object.assign(Object.create(null), { a: 1 })'],
  ['function f() {}', 'function f() {}'],
  ['[]', '{}'],
  ["'x'", "'x'.repeat(600)"],
  ['{ long: "x".repeat(600) }', '{ long: "y".repeat(600) }'],
];

function parses(source: string): boolean {
  try {
    new Function(`return (${source});`);
    return true;
  } catch {
    return false;
  }
}

const FUNCTIONS = [
  'strictEqual',
  'notStrictEqual',
  'deepStrictEqual',
  'notDeepStrictEqual',
  'equal',
  'notEqual',
  'deepEqual',
  'notDeepEqual',
];

describe('assert matches Node', () => {
  it('comparisons over a table of value pairs', () => {
    const inputs = FUNCTIONS.flatMap((fn) => PAIRS.map(([a, b]) => [fn, a, b]));
    expectSameAsNode(h, CALL, inputs);
  });

  it('deepStrictEqual diffs of generated nested values with one change', () => {
    const gen = new ValueGen(7);
    const next = rng(3);
    const inputs: string[][] = [];
    for (let i = 0; i < 150; i++) {
      const base = gen.object(0);
      // Change one value, add one key, or drop the object into a larger structure.
      const variant =
        next() < 0.5 ? base.replace(/: ([^,{}[\]()]+)(,| })/, ': 12345$2') : `{ extra: 1, ...${base} }`;
      if (!parses(variant)) continue;
      inputs.push(
        ['deepStrictEqual', base, variant],
        ['deepStrictEqual', `[${base}, 1, 2]`, `[${variant}, 1, 2]`],
      );
    }
    expectSameAsNode(h, CALL, inputs);
  });

  it('messages, strict mode and argument errors', () => {
    expectSameAsNode(h, CALL, [
      ['strictEqual', '1', '2', "'custom message'"],
      ['strictEqual', '1', '2', "new TypeError('thrown instead')"],
      ['deepStrictEqual', '{ a: 1 }', '{ a: 2 }', "'my message'"],
      ['strict.equal', '1', "'1'"],
      ['strict.deepEqual', '{ a: 1 }', "{ a: '1' }"],
      ['strict.notEqual', '1', '1'],
      ['strictEqual', '1'],
      ['deepEqual'],
      ['ok', '0', "'zero'"],
      ['ok'],
      ['fail'],
      ['fail', "'boom'"],
      ['fail', "new RangeError('as is')"],
      ['ifError', 'null'],
      ['ifError', 'undefined'],
      ['ifError', "Object.assign(new Error('bad'), { stack: 'Error: bad' })"],
      ['ifError', "'a string'"],
      ['ifError', "Object.assign(new TypeError(''), { stack: 'TypeError' })"],
      ['match', "'abc'", '/b/'],
      ['match', "'abc'", '/x/'],
      ['match', '123', '/1/'],
      ['match', "'abc'", "'b'"],
      ['doesNotMatch', "'abc'", '/b/'],
      ['doesNotMatch', "'abc'", '/x/', "'msg'"],
    ]);
  });

  it('throws and doesNotThrow with every kind of expectation', () => {
    const thrower = (err: string) => `() => { throw ${err}; }`;
    const typeErr =
      "Object.assign(new TypeError('bad thing'), { code: 'E_BAD', stack: 'TypeError: bad thing' })";
    expectSameAsNode(h, CALL, [
      ['throws', thrower(typeErr)],
      ['throws', '() => {}'],
      ['throws', '() => {}', "'should have thrown'"],
      ['throws', '() => {}', 'TypeError'],
      ['throws', thrower(typeErr), 'TypeError'],
      ['throws', thrower(typeErr), 'RangeError'],
      ['throws', thrower(typeErr), '/bad/'],
      ['throws', thrower(typeErr), '/good/'],
      ['throws', thrower(typeErr), "{ message: 'bad thing', code: 'E_BAD' }"],
      ['throws', thrower(typeErr), "{ message: /bad/, name: 'TypeError' }"],
      ['throws', thrower(typeErr), "{ message: 'other' }"],
      ['throws', thrower(typeErr), "{ code: 'E_OTHER' }", "'custom'"],
      ['throws', thrower(typeErr), '{}'],
      ['throws', thrower(typeErr), "new TypeError('bad thing')"],
      ['throws', thrower(typeErr), "new TypeError('other')"],
      ['throws', thrower(typeErr), '(err) => err instanceof TypeError'],
      ['throws', thrower(typeErr), 'function check(err) { return false; }'],
      ['throws', thrower('42'), '{ a: 1 }'],
      ['throws', thrower("'str'"), "'str'"],
      ['throws', thrower(typeErr), "'bad thing'"],
      ['throws', '5'],
      ['throws', thrower(typeErr), '5'],
      ['doesNotThrow', '() => {}'],
      ['doesNotThrow', thrower(typeErr)],
      ['doesNotThrow', thrower(typeErr), "'with message'"],
      ['doesNotThrow', thrower(typeErr), 'TypeError'],
      ['doesNotThrow', thrower(typeErr), 'RangeError'],
      ['doesNotThrow', thrower(typeErr), '/bad/'],
    ]);
  });

  it('rejects and doesNotReject', async () => {
    await expectSameAsNodeAsync(
      h,
      `async ([fn, ...args], require) => {
      const assert = require('assert');
      const values = args.map((a) => (0, eval)('(' + a + ')'));
      try { await assert[fn](...values); return 'passed'; }
      catch (e) { return { name: e.name, code: e.code, message: e.message, operator: e.operator }; }
    }`,
      [
        ['rejects', "Promise.reject(new TypeError('no'))", 'TypeError'],
        ['rejects', 'Promise.resolve(1)'],
        ['rejects', "async () => { throw new Error('x'); }", '/x/'],
        ['rejects', '() => 5'],
        ['rejects', '5'],
        ['doesNotReject', 'Promise.resolve(1)'],
        ['doesNotReject', "Promise.reject(new Error('oops'))"],
        ['doesNotReject', "async () => { throw new Error('late'); }", "'msg'"],
      ],
    );
  });

  it('AssertionError: construction, properties and util.inspect', () => {
    expectSameAsNode(
      h,
      `(src, require) => {
      const assert = require('assert');
      const e = (0, eval)('(AssertionError) => ' + src)(assert.AssertionError);
      e.stack = e.stack.split('\\n')[0];
      return [e.name, e.code, e.message, e.actual, e.expected, e.operator, e.generatedMessage, String(e), Object.keys(e), require('util').inspect(e)];
    }`,
      [
        "new AssertionError({ actual: 1, expected: 2, operator: 'strictEqual' })",
        "new AssertionError({ message: 'custom', actual: 'a'.repeat(600), expected: 'b' })",
        "new AssertionError({ actual: { a: 1 }, expected: { a: 2 }, operator: 'deepStrictEqual' })",
        "new AssertionError({ actual: 1, expected: 2, operator: 'weird' })",
      ],
    );
    expectSameAsNode(
      h,
      `(src, require) => { try { new (require('assert').AssertionError)((0, eval)(src)); } catch (e) { return [e.code, e.message]; } }`,
      ['null', "'str'"],
    );
    expectSameAsNode(
      h,
      `(k, require) => [Object.keys(require('assert')).sort(), Object.keys(require('assert/strict')).sort(), require('assert').strict === require('assert/strict'), require('assert/strict').strict === require('assert/strict')]`,
      [0],
    );
  });
});

describe('assert in the guest', () => {
  it('keeps one copy of a multi-line message in the stack when the engine writes V8-style stacks', async () => {
    const v8 = await GuestHarness.create();
    try {
      const stack = v8.eval(`{
        Error.prepareStackTrace = (e, frames) => e.name + ': ' + e.message + '\\n' + frames.map((f) => '    at ' + f.getFileName() + ':' + f.getLineNumber()).join('\\n');
        let s; try { require('assert').strictEqual(1, 2); } catch (e) { s = e.stack; } s }`) as string;
      expect(stack.split('\n').slice(0, 4)).toEqual([
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
        '',
        '1 !== 2',
        '',
      ]);
      expect(stack.split('\n')[4]).toMatch(/^ {4}at \/home\/user\/project\/test\.js:3$/);
      expect(stack.match(/1 !== 2/g)).toHaveLength(1);
    } finally {
      v8.dispose();
    }
  });

  it('says "value == true" for a falsy assert.ok when the source cannot be read, as Node does', () => {
    // This harness has no node:fs (the engine provides it), so the source is unreadable here.
    expect(h.eval(`{ let m; try { require('assert').ok(false); } catch (e) { m = e.message; } m }`)).toBe(
      'false == true',
    );
    const generated = h.eval(
      `{ let g; try { require('assert')(0); } catch (e) { g = [e.generatedMessage, e.actual, e.expected, e.operator]; } JSON.stringify(g) }`,
    );
    expect(JSON.parse(generated as string)).toEqual([true, 0, true, '==']);
  });

  it('quotes the failing call from the source file, as Node does', async () => {
    // Each file is evaluated as it is, under its own name, with a node:fs that serves these texts.
    const files: Record<string, string> = {
      '/home/user/project/a.js':
        'var assert = require("assert"); var x = 1; var m;\ntry {\n  assert.ok(x === 2, undefined);\n} catch (e) { m = e.message; }\nm',
      '/home/user/project/b.js':
        'var { ok } = require("assert"); var m;\ntry { ok(typeof 123 === "string") } catch (e) { m = e.message; }\nm',
      '/home/user/project/c.js':
        'var assert = require("assert"); var m;\ntry {\nassert(\n  [1, 2].includes(3)\n);\n} catch (e) { m = e.message; }\nm',
      '/home/user/project/d.js':
        'var assert = require("assert"); var m;\ntry { [1].forEach((v) => assert.ok(v > 1)); } catch (e) { m = e.message; }\nm',
    };
    const fakeFs = `module.exports = { readFileSync(p) { const files = ${JSON.stringify(files)};
      if (!(p in files)) throw new Error('ENOENT: ' + p); return files[p]; } };`;
    const { GUEST_SOURCES } = await import('../sources.ts');
    const withFs = await GuestHarness.create({ ...GUEST_SOURCES, fs: fakeFs });
    try {
      const message = (file: string) => withFs.eval(files[file] as string, file);
      expect(message('/home/user/project/a.js')).toBe(
        'The expression evaluated to a falsy value:\n\n  assert.ok(x === 2, undefined)\n',
      );
      expect(message('/home/user/project/b.js')).toBe(
        'The expression evaluated to a falsy value:\n\n  ok(typeof 123 === "string")\n',
      );
      expect(message('/home/user/project/c.js')).toBe(
        'The expression evaluated to a falsy value:\n\n  assert(\n    [1, 2].includes(3)\n  )\n',
      );
      expect(message('/home/user/project/d.js')).toBe(
        'The expression evaluated to a falsy value:\n\n  assert.ok(v > 1)\n',
      );
    } finally {
      withFs.dispose();
    }
  });
});
