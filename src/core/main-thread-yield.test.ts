import { describe, expect, it } from 'vitest';
import { createYielder, yieldToBrowser } from './main-thread-yield.ts';

describe('createYielder', () => {
  it('asks for no pause until the budget is spent, then one that resets it', async () => {
    let t = 0;
    const pause = createYielder(20, () => t);
    t = 19;
    expect(pause()).toBeUndefined();
    t = 20;
    const p = pause();
    expect(p).toBeInstanceOf(Promise);
    await p;
    // The budget counts again from the end of the pause.
    t = 39;
    expect(pause()).toBeUndefined();
    t = 40;
    await expect(pause()).resolves.toBeUndefined();
  });
});

describe('yieldToBrowser', () => {
  it('resolves in a later task: a timer queued before it has run by then', async () => {
    let ran = false;
    setTimeout(() => {
      ran = true;
    }, 0);
    await yieldToBrowser();
    expect(ran).toBe(true);
  });
});
