import { describe, expect, it } from 'vitest';
import { overflowing } from './tab-overflow.ts';

describe('overflowing (the side panel tab strip)', () => {
  it('keeps every tab when all fit, to the half pixel', () => {
    expect(overflowing([50, 70, 60], 180, 40, 0)).toEqual([false, false, false]);
    expect(overflowing([50, 70, 60.4], 180, 40, 0)).toEqual([false, false, false]);
  });

  it('otherwise makes room for More and keeps the tabs in order up to the first that does not fit', () => {
    // 300 room, 50 More: 250 for tabs. 60 + 70 + 60 = 190; the next 80 does not fit, nor does the 40 after it.
    expect(overflowing([60, 70, 60, 80, 40], 300, 50, 0)).toEqual([false, false, false, true, true]);
  });

  it('keeps the selected tab, even the last, and the others before it while they fit beside it', () => {
    // 250 for tabs, 40 of them the selected last tab: 60 + 70 = 130, then 60 more is 190 + 40 = 230.
    expect(overflowing([60, 70, 60, 80, 40], 300, 50, 4)).toEqual([false, false, false, true, false]);
    // A wide selected tab leaves room only for the first.
    expect(overflowing([60, 70, 60, 80, 150], 300, 50, 4)).toEqual([false, true, true, true, false]);
  });

  it('keeps the selected tab when nothing else fits beside it', () => {
    expect(overflowing([60, 70, 200], 150, 50, 2)).toEqual([true, true, false]);
    expect(overflowing([60, 70], 50, 40, 1)).toEqual([true, false]);
  });
});
