// node:util (everything but inspect, which util-inspect.test.ts covers) in the guest against Node's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode, expectSameAsNodeAsync } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';
import { rng, ValueGen } from '../testing/value-gen.ts';

let h: GuestHarness;
beforeAll(async () => {
  h = await GuestHarness.create();
});
afterAll(() => h.dispose());

const VALUES = [
  '1', '-0', '1.5', 'NaN', '-Infinity', '2n', '"str"', '"42abc"', '"0x1f"', '" 12 "', 'true', 'null', 'undefined',
  "Symbol('s')", '[1, [2, [3, [4]]]]', '{ a: { b: { c: 1 } } }', 'new Date(0)', 'new Error("e")', '/re/g',
  'function f() {}', 'class K {}', 'new Map([[1, 2]])', 'new Set([1])', '{ toString() { return "custom" } }',
  'new (class P { toString() { return "P!" } })()', 'new (class Q {})()', 'Object.create(null)', '[]', '{}',
  "Object.assign(Object.create(null), { a: 1 })", '{ [Symbol.toPrimitive]() { return 7 } }', 'new Number(5)',
  "new String('s')", '(() => { const o = {}; o.o = o; return o; })()', '[undefined, null]', '"%s"', '"%%"',
]; // biome-ignore format: a table

describe('util.format matches Node', () => {
  it('each placeholder with each value, and extra arguments', () => {
    const formats = [
      '%s',
      '%d',
      '%i',
      '%f',
      '%j',
      '%o',
      '%O',
      '%c',
      '%%',
      '%x',
      'a%sb%dc',
      '%s %s',
      '%',
      'x%',
    ];
    // %o shows own non-enumerable properties, where engines differ: V8 gives sloppy functions own
    // `arguments` and `caller` and puts an error's `stack` before `message`. Those two pairs are left out.
    const engineSpecific = (f: string, v: string) =>
      f === '%o' && (v === 'function f() {}' || v === 'new Error("e")');
    const inputs = formats.flatMap((f) => VALUES.filter((v) => !engineSpecific(f, v)).map((v) => [f, v]));
    expectSameAsNode(
      h,
      `([f, v], require) => {
      const value = (0, eval)('(' + v + ')');
      const err = value instanceof Error ? Object.assign(value, { stack: 'Error: e' }) : value;
      // The engine's own TypeError messages (e.g. for a BigInt in JSON) differ from V8's; compare names.
      try {
        return [require('util').format(f, err), require('util').format(f, err, 'extra', 3), require('util').format(err, f)];
      } catch (e) {
        return 'threw ' + e.name;
      }
    }`,
      inputs,
    );
  });

  it('no format string, several values, and formatWithOptions', () => {
    expectSameAsNode(
      h,
      `(vs, require) => {
      const values = vs.map((v) => (0, eval)('(' + v + ')')).map((v) => (v instanceof Error ? Object.assign(v, { stack: 'Error: e' }) : v));
      const u = require('util');
      return [u.format(...values), u.formatWithOptions({ colors: true }, ...values), u.formatWithOptions({ depth: 0, compact: true }, '%O', ...values)];
    }`,
      [VALUES.slice(0, 6), VALUES.slice(6, 14), VALUES.slice(14, 24), VALUES.slice(24), []],
    );
    expectSameAsNode(h, `(o, require) => require('util').formatWithOptions(o, 'x')`, [null, 'str', 1]);
  });
});

describe('util helpers match Node', () => {
  it('types over a table of values', () => {
    const typeNames = [
      'isDate', 'isRegExp', 'isMap', 'isSet', 'isWeakMap', 'isWeakSet', 'isPromise', 'isTypedArray', 'isUint8Array',
      'isFloat64Array', 'isArrayBuffer', 'isAnyArrayBuffer', 'isDataView', 'isArrayBufferView', 'isAsyncFunction',
      'isGeneratorFunction', 'isGeneratorObject', 'isNativeError', 'isBoxedPrimitive', 'isNumberObject',
      'isStringObject', 'isBooleanObject', 'isBigIntObject', 'isSymbolObject', 'isArgumentsObject', 'isMapIterator',
      'isSetIterator', 'isProxy', 'isExternal', 'isModuleNamespaceObject', 'isSharedArrayBuffer',
    ]; // biome-ignore format: a table
    const values = [
      ...VALUES, 'RegExp.prototype', 'Date.prototype', 'Object.create(Map.prototype)', 'Promise.resolve()',
      '{ then() {} }', 'new Uint8Array(2)', 'new Float64Array(1)', 'new ArrayBuffer(1)', 'new DataView(new ArrayBuffer(1))',
      'async () => {}', 'async function* () {}', 'function* () {}', '(function* () {})()', 'new TypeError()',
      'Object.create(Error.prototype)', 'Object(1n)', "Object(Symbol())", 'new Boolean(false)',
      '(function () { return arguments; })()', 'new Map().keys()', 'new Set().values()', 'new WeakMap()',
      'new WeakSet()', 'new WeakRef({})', 'new SharedArrayBuffer(1)', "Buffer.from('x')",
    ]; // biome-ignore format: a table
    expectSameAsNode(
      h,
      `(v, require) => {
      const value = (0, eval)('(' + v + ')');
      const t = require('util').types;
      return ${JSON.stringify(typeNames)}.filter((n) => t[n](value));
    }`,
      values,
    );
    expectSameAsNode(h, `(k, require) => Object.keys(require('util/types')).sort()`, [0]);
  });

  it('legacy util.isX checks', () => {
    const names = [
      'isArray',
      'isBoolean',
      'isBuffer',
      'isDate',
      'isError',
      'isFunction',
      'isNull',
      'isNullOrUndefined',
      'isNumber',
      'isObject',
      'isPrimitive',
      'isRegExp',
      'isString',
      'isSymbol',
      'isUndefined',
    ];
    expectSameAsNode(
      h,
      `(v, require) => { const value = (0, eval)('(' + v + ')'); const u = require('util'); return ${JSON.stringify(names)}.filter((n) => u[n](value)); }`,
      [...VALUES, "Buffer.from('x')"],
    );
  });

  it('isDeepStrictEqual over generated pairs and near-misses', () => {
    const gen = new ValueGen(99);
    const next = rng(5);
    const pairs: [string, string][] = [];
    for (let i = 0; i < 300; i++) {
      const a = gen.value();
      // Half the pairs are the same source (equal unless symbols or NaN-ish), half a different value.
      pairs.push([a, next() < 0.5 ? a : gen.value()]);
    }
    const special = [
      ['0', '-0'], ['NaN', 'NaN'], ['[1, 2]', '[1, 2]'], ['[1, , 3]', '[1, undefined, 3]'], ['{ a: 1 }', '{ a: 1, b: undefined }'],
      ['new Set([1, {}])', 'new Set([{}, 1])'], ['new Map([[{}, 1]])', 'new Map([[{}, 1]])'], ['new Map([[1, {a: 1}]])', 'new Map([[1, {a: 2}]])'],
      ['new Date(1)', 'new Date(1)'], ['/a/g', '/a/i'], ['new Error("x")', 'new Error("x")'], ['new Error("x")', 'new TypeError("x")'],
      ['new Uint8Array([1])', 'new Int8Array([1])'], ['new Number(1)', 'new Number(1)'], ['Object.create(null)', '{}'],
      ['(() => { const a = { x: 1 }; a.self = a; return a; })()', '(() => { const b = { x: 1 }; b.self = b; return b; })()'],
      ['[1, 2]', '{ 0: 1, 1: 2, length: 2 }'], ["{ [Symbol.for('s')]: 1 }", "{ [Symbol.for('s')]: 2 }"], ['new String("ab")', '"ab"'],
    ]; // biome-ignore format: a table
    const inputs = [...pairs, ...special];
    expectSameAsNode(
      h,
      `([a, b], require) => require('util').isDeepStrictEqual((0, eval)('(' + a + ')'), (0, eval)('(' + b + ')'))`,
      inputs,
    );
    // The loose comparison, through assert.deepEqual.
    expectSameAsNode(h, `([a, b], require) => { try { require('assert').deepEqual((0, eval)('(' + a + ')'), (0, eval)('(' + b + ')')); return true; } catch (e) { return e.code; } }`, [
      ...inputs,
      ['1', '"1"'], ['new Set([1])', 'new Set(["1"])'], ['new Map([[1, "a"]])', 'new Map([["1", "a"]])'], ['null', 'undefined'], ['[1]', '["1"]'],
    ]); // biome-ignore format: a table
  });

  it('promisify, callbackify and inherits', async () => {
    await expectSameAsNodeAsync(
      h,
      `async (body, require) => (0, eval)('(async (util) => {' + body + '})')(require('util'))`,
      [
        `const f = (a, cb) => cb(null, a * 2); return await util.promisify(f)(21);`,
        `const f = (cb) => cb(new Error('bad')); try { await util.promisify(f)(); } catch (e) { return e.message; }`,
        `function f(cb) { cb(null, this.v); } return await util.promisify(f).call({ v: 7 });`,
        `const f = () => {}; f[util.promisify.custom] = () => Promise.resolve('custom'); return [util.promisify(f) === f[util.promisify.custom], await util.promisify(f)()];`,
        `const f = function named(a, b, cb) {}; f.extra = 1; const p = util.promisify(f); return [p.name, p.length, p.extra, typeof p[util.promisify.custom]];`,
        `try { util.promisify(5); } catch (e) { return [e.code, e.message]; }`,
        `const cb = util.callbackify(async (x) => x + 1); return await new Promise((r) => cb(1, (err, v) => r([err, v])));`,
        `const cb = util.callbackify(async () => { throw new Error('no'); }); return await new Promise((r) => cb((err) => r(err.message)));`,
        `const cb = util.callbackify(() => Promise.reject(null)); return await new Promise((r) => cb((err) => r([err.code, err.message, err.reason])));`,
        `const cb = util.callbackify(async function fetchThing(a, b) {}); return [cb.name, cb.length];`,
        `try { util.callbackify(async () => 1)(1, 2); } catch (e) { return [e.code, e.message]; }`,
        `function A() {} function B() {} B.prototype.hi = () => 'hi'; util.inherits(A, B); return [new A().hi(), A.super_ === B, new A() instanceof B];`,
        `try { util.inherits(function () {}, null); } catch (e) { return [e.code, e.message]; }`,
        `try { util.inherits(function () {}, Object.create(null)); } catch (e) { return [e.code, e.message]; }`,
      ],
    );
  });

  it('parseArgs', () => {
    const cases = [
      {
        args: ['-f', '--bar', 'b'],
        options: { foo: { type: 'boolean', short: 'f' }, bar: { type: 'string' } },
      },
      {
        args: ['--name=x', '-abc', 'pos'],
        options: {
          name: { type: 'string' },
          a: { type: 'boolean' },
          b: { type: 'boolean' },
          c: { type: 'boolean' },
        },
        allowPositionals: true,
      },
      {
        args: ['-ofile.txt', '-vv'],
        options: { out: { type: 'string', short: 'o' }, v: { type: 'boolean', multiple: true } },
      },
      { args: ['--tag', 'a', '--tag', 'b'], options: { tag: { type: 'string', multiple: true } } },
      {
        args: [],
        options: {
          mode: { type: 'string', default: 'dev' },
          list: { type: 'string', multiple: true, default: ['x'] },
        },
      },
      { args: ['--', '--not-an-option'], options: {}, allowPositionals: true },
      { args: ['--unknown'], options: {} },
      { args: ['--unknown'], options: {}, strict: false },
      { args: ['pos'], options: {} },
      { args: ['--str'], options: { str: { type: 'string' } } },
      { args: ['--bool=yes'], options: { bool: { type: 'boolean' } } },
      { args: ['--s', '--t'], options: { s: { type: 'string' }, t: { type: 'boolean' } } },
      { args: ['-s', '-t'], options: { str: { type: 'string', short: 's' }, t: { type: 'boolean' } } },
      { args: ['-x', 'v', '--y'], options: { x: { type: 'string' }, y: { type: 'boolean' } }, tokens: true },
      { args: ['-abc'], options: { a: { type: 'boolean' }, b: { type: 'string' } }, tokens: true },
      { args: ['a'], options: { bad: { type: 'number' } } },
      { args: ['a'], options: { bad: { type: 'string', short: 'xy' } } },
      { args: ['a'], options: { bad: { type: 'string', default: 1 } } },
      { args: 'not an array' },
    ];
    expectSameAsNode(
      h,
      `(c, require) => { const r = require('util').parseArgs(c); return JSON.parse(JSON.stringify({ ...r, values: { ...r.values } })); }`,
      cases,
    );
  });

  it('stripVTControlCharacters, toUSVString, getSystemErrorName, styleText, deprecate and debuglog basics', () => {
    expectSameAsNode(h, `(s, require) => require('util').stripVTControlCharacters(s)`, [
      '\u001b[31mred\u001b[39m',
      '\u001b]8;;http://x\u0007link\u001b]8;;\u0007',
      'plain',
      '\u001b[1;2;3mx',
    ]);
    expectSameAsNode(h, `(s, require) => require('util').toUSVString(s)`, ['ok', 'lone \ud800 x', '\udc00']);
    expectSameAsNode(h, `(n, require) => require('util').getSystemErrorName(n)`, [-2, -13, -17, 1, 'x']);
    // (Node 20 colours an array of formats even off a terminal; Node 22 does not, and neither does this.)
    expectSameAsNode(h, `(args, require) => require('util').styleText(...args)`, [
      ['red', 'x'],
      ['nope', 'x'],
      ['red', 5],
    ]);
    expectSameAsNode(
      h,
      `(k, require) => Object.keys(require('util')).filter((n) => !['MIMEType', 'MIMEParams', '_errnoException', '_exceptionWithHostPort', 'getSystemErrorMessage', 'getCallSite', 'getCallSites'].includes(n)).sort()`,
      [0],
    );
  });
});

describe('util in the guest', () => {
  it('deprecate warns once per code, then calls through', () => {
    h.takeOutput();
    const out =
      h.eval(`{ const util = require('util'); const f = util.deprecate((x) => x * 2, 'f is old', 'DEP_T1');
      const g = util.deprecate(() => 1, 'g is old', 'DEP_T1'); JSON.stringify([f(1), f(2), g()]) }`);
    expect(JSON.parse(out as string)).toEqual([2, 4, 1]);
    expect(h.takeOutput()).toBe(
      '(node:1) [DEP_T1] DeprecationWarning: f is old\n(Use `node --trace-deprecation ...` to show where the warning was created)\n',
    );
  });

  it('debuglog prints only for sections in NODE_DEBUG', () => {
    h.takeOutput();
    h.eval(`{ process.env.NODE_DEBUG = 'foo,ba*'; const util = require('util');
      util.debuglog('foo')('hello %d', 1); util.debuglog('bar')('wild'); util.debuglog('other')('hidden');
      delete process.env.NODE_DEBUG; }`);
    expect(h.takeOutput()).toBe('FOO 1: hello 1\nBAR 1: wild\n');
    expect(h.eval(`require('util').debuglog('quiet').enabled`)).toBe(false);
  });

  it('styleText colours only a terminal unless validateStream is false', () => {
    expect(h.eval(`require('util').styleText('red', 'x', { validateStream: false })`)).toBe(
      '\u001b[31mx\u001b[39m',
    );
    expect(h.eval(`require('util').styleText('red', 'x')`)).toBe('x');
    expect(h.eval(`require('util').styleText(['bold', 'red'], 'x')`)).toBe('x');
    expect(h.eval(`require('util').styleText(['bold', 'red'], 'x', { validateStream: false })`)).toBe(
      '\u001b[1m\u001b[31mx\u001b[39m\u001b[22m',
    );
  });

  it('TextEncoder and TextDecoder are util exports and globals', () => {
    const out = h.eval(
      `{ const u = require('util'); JSON.stringify([u.TextEncoder === TextEncoder, u.TextDecoder === TextDecoder]) }`,
    );
    expect(JSON.parse(out as string)).toEqual([true, true]);
  });
});
