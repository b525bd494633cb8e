import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuestHarness } from './harness.ts';

describe('GuestHarness', () => {
  let h: GuestHarness;
  beforeAll(async () => {
    h = await GuestHarness.create();
  });
  afterAll(() => h.dispose());

  it('loads builtins, with or without the node: prefix, and vendor code in QuickJS', () => {
    expect(h.eval("require('path').join('a', '..', 'b')")).toBe('b');
    expect(h.eval("require('node:path') === require('path')")).toBe(true);
    expect(h.eval("require('tabcode:vendor/buffer').Buffer.from('hi').toString('hex')")).toBe('6869');
  });
  it('rethrows guest errors with their name', () => {
    expect(() => h.eval("require('nope')")).toThrow(/Cannot find module 'nope'/);
    expect(() => h.eval('null.x')).toThrow(/cannot read property/i);
  });
  it('settles promises', () => {
    expect(h.evalAsync('Promise.resolve(1).then((x) => x + 1)')).toBe(2);
  });
  it('lends the promise-state hook, hidden from user code', () => {
    expect(h.eval("require('util').inspect([Promise.resolve(1), new Promise(() => {})])")).toBe(
      '[ Promise { 1 }, Promise { <pending> } ]',
    );
    expect(h.eval('typeof __tabcodeHost + typeof __hostPromiseState')).toBe('undefinedundefined');
  });
  it('console.log formats as util.format does', () => {
    h.takeOutput();
    h.eval("console.log('%s=%d', 'x', 42, { a: [1, 2] })");
    expect(h.takeOutput()).toBe('x=42 { a: [ 1, 2 ] }\n');
  });
});
