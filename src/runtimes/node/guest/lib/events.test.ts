// node:events in the guest against Node's own: the same scenario scripts, the same traces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameAsNode, expectSameAsNodeAsync } from '../testing/differential.ts';
import { GuestHarness } from '../testing/harness.ts';

let h: GuestHarness;
beforeAll(async () => {
  h = await GuestHarness.create();
});
afterAll(() => h.dispose());

/** Each scenario is a function body with `E` (the events module) and `log` (push to the trace). */
const RUN = `(body, require) => {
  const E = require('events');
  const util = require('util');
  const trace = [];
  const log = (...items) => trace.push(items.map((x) => (typeof x === 'string' ? x : util.inspect(x))).join(' '));
  try {
    (0, eval)('(function (E, log, util) {' + body + '\\n})')(E, log, util);
  } catch (err) {
    trace.push('threw ' + err.name + ' ' + err.code + ' ' + err.message);
  }
  return trace;
}`;

const SCENARIOS = [
  `const e = new E(); e.on('a', (x, y) => log('a1', x, y)); e.on('a', () => log('a2')); log(e.emit('a', 1, 2), e.emit('b'));`,
  `const e = new E(); e.once('a', (x) => log('once', x)); e.emit('a', 1); e.emit('a', 2); log(e.listenerCount('a'));`,
  `const e = new E(); const f = () => log('f'); e.on('a', f); e.on('a', f); e.off('a', f); e.emit('a'); log(e.listenerCount('a')); e.removeListener('a', f); log(e.eventNames());`,
  `const e = new E(); e.on('a', () => log('1')); e.prependListener('a', () => log('0')); e.prependOnceListener('a', () => log('-1')); e.emit('a'); e.emit('a');`,
  `const e = new E(); e.on('newListener', (t, l) => log('new', t, typeof l)); e.on('removeListener', (t) => log('removed', t)); const f = () => {}; e.on('x', f); e.once('y', f); e.off('x', f); e.emit('y'); log(e.eventNames());`,
  `const e = new E(); e.on('a', () => {}); e.on('b', () => {}); e.on(Symbol.for('s'), () => {}); log(e.eventNames()); e.removeAllListeners('a'); log(e.eventNames()); e.removeAllListeners(); log(e.eventNames(), e._eventsCount);`,
  `const e = new E(); e.on('removeListener', (t) => log('rm', t)); e.on('a', () => {}); e.on('a', () => {}); e.on('b', () => {}); e.removeAllListeners(); log(e.eventNames());`,
  `const e = new E(); try { e.emit('error', new TypeError('bad')); } catch (err) { log('caught', err.name, err.message); }`,
  `const e = new E(); try { e.emit('error', 'str'); } catch (err) { log(err.code, err.message, err.context); }`,
  `const e = new E(); try { e.emit('error'); } catch (err) { log(err.code, err.message); }`,
  `const e = new E(); try { e.emit('error', { a: 1 }); } catch (err) { log(err.code, err.message); }`,
  `const e = new E(); e.on('error', (err) => log('handled', err.message)); log(e.emit('error', new Error('x')));`,
  `const e = new E(); e.on(E.errorMonitor, (err) => log('monitor', err.message)); try { e.emit('error', new Error('m')); } catch (err) { log('thrown', err.message); }`,
  `const e = new E(); e.on('a', 1);`,
  `const e = new E(); e.once('a', null);`,
  `const e = new E(); e.setMaxListeners(-1);`,
  `const e = new E(); e.setMaxListeners('3');`,
  `E.defaultMaxListeners = 'a';`,
  `E.defaultMaxListeners = -1;`,
  `const e = new E(); log(e.getMaxListeners(), E.defaultMaxListeners); e.setMaxListeners(3); log(e.getMaxListeners(), E.getMaxListeners(e));`,
  `const e = new E(); const f = () => 1; e.on('a', f); e.once('a', f); log(e.listeners('a').length, e.listeners('a')[1] === f, e.rawListeners('a')[1] === f, typeof e.rawListeners('a')[1].listener, e.listenerCount('a', f));`,
  `const e = new E(); const f = () => {}; e.once('a', f); e.removeListener('a', f); log(e.listenerCount('a'), e.emit('a'));`,
  `const e = new E(); log(e); e.on('x', () => {}); e.once('x', function named() {}); log(e);`,
  `class Foo extends E { constructor() { super(); this.k = 1; } } const f = new Foo(); log(f, f instanceof E);`,
  `function Old() { E.call(this); } util.inherits(Old, E); const o = new Old(); o.on('a', (v) => log('old', v)); o.emit('a', 5); log(o);`,
  `const e = new E(); e.on('a', function () { log(this === e); }); e.emit('a');`,
  `const e = new E(); e.on('a', () => { e.on('a', () => log('added during emit')); log('first'); }); e.emit('a'); log('second round'); e.emit('a');`,
  `const e = new E(); const g = () => log('g'); e.on('a', () => { e.off('a', g); log('f'); }); e.on('a', g); e.emit('a'); e.emit('a');`,
  `log(Object.keys(E).sort(), typeof E.EventEmitter, E.EventEmitter === E, String(E.errorMonitor), String(E.captureRejectionSymbol), E.usingDomains);`,
  `const e = new E(); e.on('a', () => {}); log(E.listenerCount(e, 'a'), E.getEventListeners(e, 'a').length);`,
  `const e = new E(); e.setMaxListeners(2); e.on('a', () => {}); e.on('a', () => {}); log(e.listenerCount('a'), e.getMaxListeners());`,
];

describe('events matches Node', () => {
  it('EventEmitter scenarios', () => {
    expectSameAsNode(h, RUN, SCENARIOS);
  });

  it('events.once and events.on', async () => {
    const ASYNC = `async (body, require) => {
      const E = require('events');
      const trace = [];
      const log = (...items) => trace.push(items.map((x) => JSON.stringify(x)).join(' '));
      try {
        await (0, eval)('(async function (E, log) {' + body + '\\n})')(E, log);
      } catch (err) {
        trace.push('threw ' + err.name + ' ' + err.code + ' ' + err.message);
      }
      return trace;
    }`;
    await expectSameAsNodeAsync(h, ASYNC, [
      `const e = new E(); const p = E.once(e, 'go'); e.emit('go', 1, 'two'); log(await p); log(e.listenerCount('error'));`,
      `const e = new E(); const p = E.once(e, 'go'); e.emit('error', new Error('boom')); await p;`,
      `const e = new E(); const ac = new AbortController(); const p = E.once(e, 'go', { signal: ac.signal }); ac.abort(); try { await p; } catch (err) { log(err.name, err.code, err.message); } log(e.listenerCount('go'));`,
      `const e = new E(); const ac = new AbortController(); ac.abort(); try { await E.once(e, 'go', { signal: ac.signal }); } catch (err) { log(err.name, err.code); }`,
      `const e = new E(); const it = E.on(e, 'data'); e.emit('data', 1); e.emit('data', 2); const seen = []; for await (const [v] of it) { seen.push(v); if (seen.length === 2) break; } log(seen, e.listenerCount('data'));`,
      `const e = new E(); const it = E.on(e, 'data'); e.emit('data', 'a'); e.emit('error', new Error('late')); log(await it.next()); try { await it.next(); } catch (err) { log('err', err.message); } log(await it.next());`,
      `const e = new E(); const it = E.on(e, 'data', { close: ['end'] }); const out = []; const done = (async () => { for await (const [v] of it) out.push(v); })(); e.emit('data', 1); e.emit('data', 2); e.emit('end'); await done; log(out);`,
      `const t = new EventTarget(); const p = E.once(t, 'ping'); t.dispatchEvent(new Event('ping')); const [ev] = await p; log(ev.type);`,
    ]);
  });
});

describe('events in the guest', () => {
  it('warns once about a possible leak, through process.emitWarning when there is one', () => {
    const out = h.eval(`{ const E = require('events'); const seen = [];
      process.emitWarning = (w) => seen.push([w.name, w.message, w.count, w.type]);
      const e = new E(); for (let i = 0; i < 12; i++) e.on('y', () => {});
      delete process.emitWarning;
      JSON.stringify(seen) }`);
    expect(JSON.parse(out as string)).toEqual([
      [
        'MaxListenersExceededWarning',
        'Possible EventEmitter memory leak detected. 11 y listeners added to [EventEmitter]. MaxListeners is 10. Use emitter.setMaxListeners() to increase limit',
        11,
        'y',
      ],
    ]);
  });

  it('prints the leak warning as Node does when process has no emitWarning', () => {
    h.takeOutput();
    h.eval(
      `{ const E = require('events'); const e = new E(); e.setMaxListeners(1); e.on('z', () => {}); e.on('z', () => {}); }`,
    );
    expect(h.takeOutput()).toBe(
      '(node:1) MaxListenersExceededWarning: Possible EventEmitter memory leak detected. 2 z listeners added to [EventEmitter]. MaxListeners is 1. Use emitter.setMaxListeners() to increase limit\n(Use `node --trace-warnings ...` to show where the warning was created)\n',
    );
  });

  it('captureRejections routes a rejected listener promise to the error event', () => {
    const out = h.evalAsync(`(async () => { const E = require('events');
      const e = new E({ captureRejections: true }); const got = [];
      e.on('error', (err) => got.push(err.message));
      e.on('job', async () => { throw new Error('async boom'); });
      e.emit('job');
      await new Promise((r) => setTimeout(r, 0));
      return got; })()`);
    expect(out).toEqual(['async boom']);
  });
});
