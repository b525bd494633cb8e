// internal/globals: the web and Node globals QuickJS lacks, checked against Node's own where Node has
// them, and for presence and shape otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode, expectSameAsNodeAsync } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';
import { rng } from '../testing/value-gen.ts';

let h: GuestHarness;
beforeAll(async () => {
  h = await GuestHarness.create();
});
afterAll(() => h.dispose());

const GLOBALS = [
  'TextEncoder',
  'TextDecoder',
  'URL',
  'URLSearchParams',
  'atob',
  'btoa',
  'Buffer',
  'AbortController',
  'AbortSignal',
  'Event',
  'EventTarget',
  'CustomEvent',
  'structuredClone',
  'global',
  'DOMException',
];

describe('globals', () => {
  it('are installed like Node installs them: present, (non-)enumerable as in Node, configurable', () => {
    // Whether Node holds one as a lazy accessor or a plain value depends on whether it was used yet,
    // so only type, enumerability and configurability are compared.
    expectSameAsNode(
      h,
      `(names) => names.map((n) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return [n, typeof globalThis[n], d.enumerable, d.configurable]; })`,
      [GLOBALS],
    );
    expect(h.eval(`global === globalThis && typeof self`)).toBe('undefined');
    expect(
      h.eval(
        `[navigator.userAgent, navigator.platform, navigator.language, navigator.hardwareConcurrency].join()`,
      ),
    ).toBe('Node.js/22,linux,en-US,1');
    expect(
      h.eval(
        `{ const saved = Buffer; Buffer = 1; const r = [Buffer, Object.getOwnPropertyDescriptor(globalThis, 'Buffer').writable]; Buffer = saved; JSON.stringify(r) }`,
      ),
    ).toBe('[1,true]');
  });
});

describe('TextEncoder and TextDecoder match Node', () => {
  it('encode, encodeInto and decode of text', () => {
    const texts = [
      '',
      'ascii',
      'héllo',
      '€ and 😀',
      '中文',
      'lone \ud800 high',
      'lone \udc00 low',
      '\u0000\uffff',
    ];
    expectSameAsNode(
      h,
      `(t) => { const e = new TextEncoder(); const bytes = e.encode(t); const into = new Uint8Array(5);
      return [[...bytes], e.encodeInto(t, into), [...into], new TextDecoder().decode(bytes), e.encoding]; }`,
      texts,
    );
  });

  it('decodes random bytes in utf-8, utf-16le and latin1, streaming or not, fatal or not', () => {
    const next = rng(31);
    const pool = [
      0x41, 0x00, 0x80, 0xbf, 0xc2, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xfe, 0xef,
      0xbb, 0x3d, 0xd8,
    ];
    const inputs: [string, number[], number, boolean][] = [];
    for (let i = 0; i < 300; i++) {
      const bytes = Array.from(
        { length: Math.floor(next() * 10) },
        () => pool[Math.floor(next() * pool.length)] as number,
      );
      inputs.push([
        ['utf-8', 'utf-16le', 'latin1'][i % 3] as string,
        bytes,
        Math.floor(next() * 10),
        next() < 0.2,
      ]);
    }
    // For latin1 the streaming result is compared: Node 20's one-shot fast path leaves 0x80-0x9F as
    // C1 controls instead of the standard's windows-1252 characters (see internal/encoding).
    expectSameAsNode(
      h,
      `([label, bytes, cut, fatal]) => {
      const oneShot = new TextDecoder(label, { fatal }).decode(new Uint8Array(bytes), { stream: label === 'latin1' });
      const whole = label === 'latin1' ? oneShot + new TextDecoder(label).decode() : oneShot;
      const d = new TextDecoder(label, { fatal });
      const parts = [d.decode(new Uint8Array(bytes.slice(0, cut)), { stream: true }), d.decode(new Uint8Array(bytes.slice(cut)))];
      return [whole, parts.join('')];
    }`,
      inputs,
    );
  });

  it('labels, BOM handling, inputs and errors', () => {
    expectSameAsNode(h, `(src, require) => (0, eval)('(require) => ' + src)(require)`, [
      "['utf8', 'UTF-8', ' utf-8 ', 'unicode-1-1-utf-8', 'utf-16', 'utf-16le', 'latin1', 'ascii', 'iso-8859-1', 'windows-1252'].map((l) => new TextDecoder(l).encoding)",
      'new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))',
      "new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))",
      "new TextDecoder('utf-16le').decode(new Uint8Array([0xff, 0xfe, 0x61, 0x00]))",
      'new TextDecoder().decode(new Uint16Array([0x6968]))',
      'new TextDecoder().decode(new Uint8Array([0x68, 0x69]).buffer)',
      'new TextDecoder().decode(new DataView(new Uint8Array([0x6f, 0x6b]).buffer))',
      'new TextDecoder().decode()',
      "new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff]))",
      "new TextDecoder('nope')",
      "new TextDecoder().decode('str')",
      '[new TextDecoder().fatal, new TextDecoder().ignoreBOM, new TextDecoder("utf-8", { fatal: 1 }).fatal]',
      "require('util').inspect([new TextEncoder(), new TextDecoder('latin1', { fatal: true })])",
    ]);
  });
});

describe('AbortController, AbortSignal, Event and EventTarget match Node', () => {
  const SCENARIO = `(body) => { const log = []; try { (0, eval)('(log) => {' + body + '}')(log); } catch (e) { log.push('threw ' + e.name + ' ' + e.code + ' ' + e.message); } return log; }`;

  it('abort signals', () => {
    expectSameAsNode(h, SCENARIO, [
      `const c = new AbortController(); c.signal.addEventListener('abort', (e) => log.push(e.type, e.target === c.signal)); c.signal.onabort = () => log.push('onabort'); c.abort(); c.abort(); log.push(c.signal.aborted, c.signal.reason.name, c.signal.reason.message);`,
      `const c = new AbortController(); c.abort('why'); log.push(c.signal.reason); try { c.signal.throwIfAborted(); } catch (e) { log.push('thrown ' + e); }`,
      `const s = AbortSignal.abort(); log.push(s.aborted, s.reason instanceof DOMException, s.reason.name, s.reason.code);`,
      `const a = new AbortController(); const b = new AbortController(); const any = AbortSignal.any([a.signal, b.signal]); any.onabort = () => log.push('any', any.reason); b.abort('B'); a.abort('A'); log.push(any.aborted);`,
      `log.push(AbortSignal.any([AbortSignal.abort('pre')]).reason);`,
      `new AbortSignal();`,
      `AbortSignal.any([1]);`,
      `AbortSignal.timeout(-1);`,
      `log.push(Object.prototype.toString.call(new AbortController()), Object.prototype.toString.call(AbortSignal.abort()));`,
    ]);
  });

  it('events and targets', () => {
    expectSameAsNode(h, SCENARIO, [
      `const t = new EventTarget(); const f = (e) => log.push('f', e.type, e.eventPhase, e.currentTarget === t); t.addEventListener('x', f); t.addEventListener('x', f); t.dispatchEvent(new Event('x')); t.removeEventListener('x', f); log.push(t.dispatchEvent(new Event('x')));`,
      `const t = new EventTarget(); t.addEventListener('x', () => log.push('once'), { once: true }); t.dispatchEvent(new Event('x')); t.dispatchEvent(new Event('x'));`,
      `const t = new EventTarget(); t.addEventListener('x', (e) => { e.preventDefault(); log.push(e.defaultPrevented); }); log.push(t.dispatchEvent(new Event('x', { cancelable: true })), t.dispatchEvent(new Event('x')));`,
      `const t = new EventTarget(); t.addEventListener('x', (e) => { e.preventDefault(); log.push(e.defaultPrevented); }, { passive: true }); log.push(t.dispatchEvent(new Event('x', { cancelable: true })));`,
      `const t = new EventTarget(); t.addEventListener('x', (e) => { log.push(1); e.stopImmediatePropagation(); }); t.addEventListener('x', () => log.push(2)); t.dispatchEvent(new Event('x'));`,
      `const t = new EventTarget(); t.addEventListener('x', { handleEvent(e) { log.push('obj', e.type); } }); t.dispatchEvent(new Event('x'));`,
      `const t = new EventTarget(); const c = new AbortController(); t.addEventListener('x', () => log.push('heard'), { signal: c.signal }); t.dispatchEvent(new Event('x')); c.abort(); t.dispatchEvent(new Event('x')); log.push('end');`,
      `const t = new EventTarget(); t.addEventListener('x', null); t.addEventListener('x', () => {}, true); t.removeEventListener('x', () => {}); log.push('ok');`,
      `new EventTarget().addEventListener('x', 5);`,
      `new EventTarget().dispatchEvent({ type: 'x' });`,
      `new Event();`,
      `const e = new CustomEvent('c', { detail: { n: 1 } }); log.push(e.type, e.detail.n, e instanceof Event, new CustomEvent('d').detail);`,
      `const e = new Event('y', { bubbles: true, composed: true }); log.push(e.bubbles, e.composed, e.cancelable, e.isTrusted, e.eventPhase, e.target, e.returnValue, typeof e.timeStamp, Event.AT_TARGET, e.composedPath().length);`,
    ]);
  });

  it('events.once works on an EventTarget, and the abort reason is the one given', async () => {
    await expectSameAsNodeAsync(
      h,
      `async (body, require) => (0, eval)('(async (require) => {' + body + '})')(require)`,
      [
        `const t = new EventTarget(); const p = require('events').once(t, 'go'); t.dispatchEvent(new Event('go')); const [e] = await p; return e.type;`,
        `const c = new AbortController(); const p = require('events').once(new EventTarget(), 'never', { signal: c.signal }); c.abort('stop'); try { await p; } catch (e) { return [e.name, e.code, e.cause]; }`,
      ],
    );
  });
});

describe('AbortSignal.timeout in the guest', () => {
  it('aborts with a TimeoutError through the event loop timers', () => {
    // The timeout's timer is unref'd (as in Node), so another timer keeps the loop running.
    const out = h.evalAsync(
      `new Promise((resolve) => { setTimeout(() => {}, 50); const s = AbortSignal.timeout(5); s.onabort = () => resolve([s.aborted, s.reason.name, s.reason.message]); })`,
    );
    expect(out).toEqual([true, 'TimeoutError', 'The operation was aborted due to timeout']);
  });
});

describe('structuredClone and base64 match Node', () => {
  it('structuredClone of data, shared and circular references, and what cannot be cloned', () => {
    expectSameAsNode(
      h,
      `(src) => { try { const v = (0, eval)('(' + src + ')'); const c = structuredClone(v); return [c === v, Object.prototype.toString.call(c)]; } catch (e) { return [e.name, e.message, e.code]; } }`,
      [
        '1',
        "'s'",
        'null',
        'undefined',
        '10n',
        '{ a: 1 }',
        '[1, [2]]',
        'new Date(0)',
        '/x/gi',
        'new Map([[1, 2]])',
        'new Set([1])',
        'new Uint8Array([1, 2])',
        'new ArrayBuffer(2)',
        "new Error('e')",
        'new RangeError()',
        '() => 1',
        "Symbol('s')",
        'new WeakMap()',
        'Promise.resolve()',
        '{ f() {} }',
        'new (class K { constructor() { this.x = 1; } })()',
        'Object(1)',
        "Object('s')",
        'new DataView(new ArrayBuffer(1))',
      ],
    );
    expectSameAsNode(
      h,
      `(src, require) => require('util').inspect(structuredClone((0, eval)('(' + src + ')')))`,
      [
        '{ a: [1, { b: new Date(0) }], m: new Map([["k", new Set([1, 2])]]) }',
        '(() => { const o = { name: "loop" }; o.self = o; o.list = [o]; return o; })()',
        '(() => { const shared = { s: 1 }; return [shared, shared]; })()',
        'new (class K { constructor() { this.x = 1; } })()',
        '(() => { const e = new TypeError("bad", { cause: "c" }); e.extra = 1; e.stack = "TypeError: bad"; return e; })()',
        '(() => { const b = new ArrayBuffer(4); return [new Uint8Array(b), new Uint16Array(b, 2)]; })()',
        "Object.assign([1, 2], { extra: 'kept' })",
      ],
    );
    expectSameAsNode(
      h,
      `(src) => { try { structuredClone(...(0, eval)(src)); } catch (e) { return [e.name, e.code, e.message]; } }`,
      ['[]', '[1, 5]', '[1, { transfer: 5 }]'],
    );
    expectSameAsNode(
      h,
      `() => { const b = new ArrayBuffer(4); const c = structuredClone(b, { transfer: [b] }); return [b.byteLength, c.byteLength]; }`,
      [0],
    );
  });

  it('atob and btoa', () => {
    const next = rng(41);
    const strings = Array.from({ length: 100 }, () =>
      String.fromCharCode(...Array.from({ length: Math.floor(next() * 8) }, () => Math.floor(next() * 256))),
    );
    expectSameAsNode(h, `(s) => [btoa(s), atob(btoa(s)) === s]`, strings);
    expectSameAsNode(h, `(s) => { try { return atob(s); } catch (e) { return [e.name, e.message]; } }`, [
      'aGk=',
      'aGk',
      ' a G k = ',
      'aG=k',
      'a',
      'ab==',
      'a===',
      '!!!!',
      '',
      '\tYQ==\n',
      'YQ==YQ==',
      'Y Q = =',
    ]);
    expectSameAsNode(
      h,
      `(src) => { try { return (0, eval)(src); } catch (e) { return [e.name, e.code, e.message]; } }`,
      ["btoa('é')", "btoa('€')", 'btoa()', 'atob()', 'btoa(null)', 'atob(undefined)'],
    );
  });
});
