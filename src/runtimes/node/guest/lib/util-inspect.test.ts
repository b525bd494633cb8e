// util.inspect in the guest against Node's own, over hand-picked values and generated ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';
import { INSPECT_OPTIONS, ValueGen } from '../testing/value-gen.ts';

let h: GuestHarness;
beforeAll(async () => {
  h = await GuestHarness.create();
});
afterAll(() => h.dispose());

/** Each input is [value source, options source]; the value is built and inspected on each side. */
const INSPECT = `([src, opts]) => require('util').inspect((0, eval)('(' + src + ')'), (0, eval)('(' + opts + ')'))`;

const HAND_PICKED = [
  '1',
  '-0',
  '[-0, 0, 1.5, -2e-7, 1e21, NaN, Infinity]',
  "'str'",
  '"it\'s"',
  "'a\\'b\"c'",
  "'a\\'b\"c`d'",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a string that looks like a template
  "'${x}\\'\"'",
  "'\\x00\\x1b\\x7f\\x80\\x9f\\xa0'",
  "'\\ud83d\\ude00 \\ud800 \\udc00'",
  '[1, 2, 3]',
  '[[[[[1]]]]]',
  '{ a: { b: { c: { d: { e: 1 } } } } }',
  '{ a: { b: { c: {} } } }',
  '{ a: [{ b: [{ c: [] }] }] }',
  "{ 'a-b': 1, '1': 2, a1: 3, _x: 4, $y: 5, 'é': 6, '': 7, __proto__x: 8 }",
  "({ ['__proto__']: 1 })",
  "{ [Symbol('s')]: 1, [Symbol()]: 2, [Symbol.iterator]: 3 }",
  'Object.create(null)',
  'Object.assign(Object.create(null), { a: 1 })',
  'Object.create(Object.create(null))',
  'new (class Foo { constructor() { this.a = 1; } })()',
  'new (class Foo {})()',
  'new (class extends Map {})()',
  'new (class Bar extends Array {})(3)',
  'Object.assign(new (class Baz extends Set {})([1]), { x: 1 })',
  '(() => { class T { get [Symbol.toStringTag]() { return "Tag"; } } return new T(); })()',
  "({ [Symbol.toStringTag]: 'Own' })",
  'function foo() {}',
  'function () {}',
  '() => {}',
  'async function af() {}',
  'async function* ag() {}',
  'function* g() {}',
  'class A {}',
  'class extends Error {}',
  '(() => { class A {} class B extends A {} return B; })()',
  'Object.assign(function f() {}, { a: 1 })',
  'Object.assign(class C {}, { b: 2 })',
  'Math.max',
  '(function g() {}).bind(null)',
  '(() => { function f() {} Object.setPrototypeOf(f, null); return f; })()',
  'new Date(0)',
  'new Date(NaN)',
  'Object.assign(new Date(0), { x: 1 })',
  '/a+b/gimsuy',
  "new RegExp('/', 'g')",
  'Object.assign(/x/, { y: 1 })',
  'new Map([[1, 2], ["a", { b: 1 }], [{ k: 1 }, [1, 2]]])',
  'new Set([1, "a", [2], { c: 3 }])',
  'new Map()',
  'new Set()',
  'new Map([[new Map([[1, new Map([[2, new Map()]])]]), 1]])',
  'new WeakMap()',
  'new WeakSet()',
  'new Uint8Array([1, 2, 3])',
  'new Float64Array([1.5, -0, NaN])',
  'new BigInt64Array([1n, -2n])',
  'new Uint8Array(0)',
  'new Uint8Array(120)',
  'Object.assign(new Uint8Array(2), { x: 1 })',
  'new ArrayBuffer(3)',
  'new ArrayBuffer(0)',
  'new DataView(new ArrayBuffer(4), 1, 2)',
  'new SharedArrayBuffer(2)',
  'Promise.resolve(42)',
  'Promise.resolve({ a: [1, 2] })',
  'new Promise(() => {})',
  '(() => { const p = Promise.reject({ code: 1 }); p.catch(() => {}); return p; })()',
  'new Number(3)',
  'new Number(-0)',
  "new String('abc')",
  "Object.assign(new String('ab'), { x: 1 })",
  'new Boolean(true)',
  'Object(1n)',
  "Object(Symbol('s'))",
  '[1, , 3]',
  '[, , ,]',
  '(() => { const a = [1]; a[10] = 2; a.x = 3; return a; })()',
  'Object.assign([1, 2], { key: "v", [Symbol("s")]: 1 })',
  '(() => { const a = []; a[2 ** 31] = 1; return a; })()',
  '(function () { return arguments; })(1, "two")',
  '(function () { return arguments; })()',
  '(() => { const o = { a: 1 }; o.self = o; return o; })()',
  '(() => { const o = { a: { b: {} } }; o.a.b.up = o.a; o.a.b.top = o; return o; })()',
  '(() => { const a = [1]; a.push(a); return a; })()',
  '(() => { const m = new Map(); m.set("me", m); return m; })()',
  '(() => { const o = {}; const p = { o }; o.p = p; return [o, p]; })()',
  '{ get a() { return 1; }, set b(v) {}, get c() { return 2; }, set c(v) {} }',
  "Object.defineProperty({}, 'hidden', { value: 1, enumerable: false })",
  "Object.defineProperty({ v: 1 }, 'u', { value: undefined, enumerable: true })",
  "{ toString() { return 'x'; } }",
  "{ [Symbol.for('nodejs.util.inspect.custom')]() { return 'CUSTOM'; } }",
  "{ [Symbol.for('nodejs.util.inspect.custom')]() { return { replaced: true }; } }",
  "{ inner: { [Symbol.for('nodejs.util.inspect.custom')](depth, opts) { return 'multi\\nline'; } } }",
  "{ [Symbol.for('nodejs.util.inspect.custom')](depth, opts, insp) { return insp({ depth, d: opts.depth, bl: opts.breakLength }); } }",
  "Object.assign(new Error('boom'), { stack: 'Error: boom\\n    at f (/a.js:1:2)\\n    at g (/b.js:3:4)' })",
  "Object.assign(new Error('boom'), { stack: 'Error: boom' })",
  "Object.assign(new Error('boom'), { stack: 'Error: boom', code: 'E_X', extra: [1] })",
  "Object.assign(new TypeError('bad'), { stack: 'TypeError: bad\\n    at x (/a.js:1:1)' })",
  "(() => { class MyError extends Error {} return Object.assign(new MyError('m'), { stack: 'Error: m\\n    at y (/y.js:1:1)' }); })()",
  "(() => { class MyError extends Error { constructor(m) { super(m); this.name = 'MyError'; } } return Object.assign(new MyError('m'), { stack: 'MyError: m' }); })()",
  "(() => { const e = new Error('outer', { cause: Object.assign(new Error('inner'), { stack: 'Error: inner' }) }); e.stack = 'Error: outer'; return e; })()",
  "(() => { const e = new Error('x'); e.stack = ''; return e; })()",
  "(() => { const e = new Error('msg'); e.name = 'Custom'; e.stack = 'Custom: msg'; return e; })()",
  "(() => { const e = new AggregateError([Object.assign(new Error('a'), { stack: 'Error: a' })], 'agg'); e.stack = 'AggregateError: agg'; return e; })()",
  "{ err: Object.assign(new Error('nested'), { stack: 'Error: nested\\n    at q (/q.js:1:1)' }) }",
  "'x'.repeat(200)",
  "{ long: 'x'.repeat(200) }",
  "{ text: 'line one\\nline two\\nline three is here\\n' }",
  "['line one\\nline two\\nline three is here and long enough\\n']",
  'Array.from({ length: 7 }, (_, i) => i)',
  'Array.from({ length: 26 }, (_, i) => i * 1000)',
  'Array.from({ length: 101 }, (_, i) => i)',
  'Array.from({ length: 30 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(i % 5 + 1))',
  'Array.from({ length: 12 }, (_, i) => ({ i }))',
  'Array.from({ length: 8 }, (_, i) => [i, i * 2])',
  'Array.from({ length: 20 }, (_, i) => (i % 3 ? i : -i * 100))',
  'Array.from({ length: 10 }, (_, i) => BigInt(i) * 1000n)',
  "Array.from({ length: 16 }, (_, i) => (i % 2 ? 'str' + i : i))",
  "['a', 'b', 'c', 'd', 'e', 'f', 'g', 'hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh']",
  "{ a: 'xxxxxxxxxxxxxxxxxxxx', b: 'yyyyyyyyyyyyyyyyyyyy', c: 'zzzzzzzzzzzzzzzzzzzz' }",
  "{ a: 'xxxxxxxxxxxxxxxxxx', b: 'yyyyyyyyyyyyyyyyyy', c: 'zzzzzzzzzzzzzzzzzz' }",
  '{ a: 1, b: { c: 2, d: { e: 3, f: { g: 4 } } }, h: [1, 2, { i: 5 }] }',
  "{ name: 'weather-notes', version: '1.0.0', scripts: { test: 'node --test', start: 'node src/index.js' }, dependencies: {} }",
  "[{ city: 'Paris', temp: 21.5, tags: ['sun', 'wind'] }, { city: 'Oslo', temp: -3, tags: [] }]",
  'new Map(Array.from({ length: 5 }, (_, i) => [i, { v: i }]))',
  'new Set(Array.from({ length: 120 }, (_, i) => i))',
  'new Map(Array.from({ length: 120 }, (_, i) => [i, i]))',
  'globalThis.Math',
  'JSON',
  'Symbol.prototype',
  'Array.prototype',
  'Object.prototype',
  'Error.prototype',
];

describe('util.inspect matches Node', () => {
  it('hand-picked values, default options', () => {
    expectSameAsNode(
      h,
      INSPECT,
      HAND_PICKED.map((src) => [src, '{}']),
    );
  });

  it('hand-picked values under every option set', () => {
    const inputs = HAND_PICKED.flatMap((src) => INSPECT_OPTIONS.map((opts) => [src, opts]));
    expectSameAsNode(h, INSPECT, inputs);
  });

  it('showHidden on plain data', () => {
    const values = [
      '[1, 2]',
      '{ a: 1 }',
      'new Map([[1, 2]])',
      'new Uint8Array([1])',
      'new Error("e")',
      '/x/',
    ];
    expectSameAsNode(
      h,
      INSPECT,
      values.slice(0, 3).map((src) => [src, '{ showHidden: true }']),
    );
  });

  it('getters option', () => {
    const values = [
      '{ get a() { return 1; }, get b() { return { c: 2 }; }, get n() { return null; }, set s(v) {} }',
      '{ get a() { return 1; }, set a(v) {} }',
      "{ get boom() { throw new Error('nope'); } }",
    ];
    const opts = ['{ getters: true }', "{ getters: 'get' }", "{ getters: 'set' }"];
    expectSameAsNode(
      h,
      INSPECT,
      values.flatMap((v) => opts.map((o) => [v, o])),
    );
  });

  it('1000 generated values under varied options', () => {
    const gen = new ValueGen(20240901);
    const inputs = Array.from({ length: 1000 }, (_, i) => [
      gen.value(),
      INSPECT_OPTIONS[i % INSPECT_OPTIONS.length],
    ]);
    expectSameAsNode(h, INSPECT, inputs);
  });

  it('legacy (value, showHidden, depth, colors) arguments', () => {
    expectSameAsNode(
      h,
      `(src) => require('util').inspect({ a: { b: { c: { d: 1 } } } }, false, (0, eval)(src), false)`,
      ['0', '1', '3', 'null', 'undefined'],
    );
  });
});

describe('util.inspect details', () => {
  it('exposes custom, defaultOptions, colors and styles as Node does', () => {
    const guest = h.eval(`{ const u = require('util');
      JSON.stringify([u.inspect.custom === Symbol.for('nodejs.util.inspect.custom'), u.inspect.defaultOptions,
        Object.keys(u.inspect.colors).length, u.inspect.styles.number, u.inspect.colors.grey]) }`);
    expect(JSON.parse(guest as string)).toEqual([
      true,
      expect.objectContaining({ depth: 2, breakLength: 80 }),
      44,
      'yellow',
      [90, 39],
    ]);
  });

  it('defaultOptions changes apply and are validated', () => {
    const out = h.eval(`{ const u = require('util');
      u.inspect.defaultOptions.depth = 0;
      const a = u.inspect({ a: { b: 1 } });
      u.inspect.defaultOptions = { depth: 2 };
      let code; try { u.inspect.defaultOptions = null; } catch (e) { code = e.code; }
      JSON.stringify([a, u.inspect({ a: { b: 1 } }), code]) }`);
    expect(JSON.parse(out as string)).toEqual(['{ a: [Object] }', '{ a: { b: 1 } }', 'ERR_INVALID_ARG_TYPE']);
  });

  it('prints an error with a QuickJS stack as Node prints one: header line, then frames', () => {
    const out = h.eval(`function thrower() { return new Error('boom'); }
      require('util').inspect(thrower())`) as string;
    expect(out).toMatch(/^Error: boom\n {4}at thrower \(\/home\/user\/project\/test\.js:1:\d+\)/);
  });

  it('prints a thrown Node-style error with its code', () => {
    const out = h.eval(
      `{ let e; try { require('path').join(1); } catch (err) { e = err; } require('util').inspect(e) }`,
    ) as string;
    expect(out.split('\n')[0]).toBe(
      'TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string. Received type number (1)',
    );
    expect(out).toMatch(/\{\n {2}code: 'ERR_INVALID_ARG_TYPE'\n\}$/);
  });
});
