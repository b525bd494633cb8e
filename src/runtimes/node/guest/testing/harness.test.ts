import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuestHarness } from './harness.ts';

describe('GuestHarness', () => {
  let h: GuestHarness;
  beforeAll(async () => {
    h = await GuestHarness.create();
  });
  afterAll(() => h.dispose());

  it('loads builtins and vendor code in QuickJS', () => {
    expect(h.eval("require('tabcode/probe').answer")).toBe(42);
    expect(h.eval("require('tabcode/probe').buf")).toBe('6869');
  });
  it('rethrows guest errors with their name', () => {
    expect(() => h.eval("require('nope')")).toThrow(/Cannot find module 'nope'/);
    expect(() => h.eval('null.x')).toThrow(/cannot read property/i);
  });
  it('settles promises', () => {
    expect(h.evalAsync('Promise.resolve(1).then((x) => x + 1)')).toBe(2);
  });
});
