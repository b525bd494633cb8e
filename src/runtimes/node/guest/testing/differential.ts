/**
 * Differential testing: one function (as source text) applied to the same inputs by Node's real
 * builtins and by the guest's, in QuickJS. The function receives `(input, require)` and returns
 * something JSON can carry; a throw is caught and compared as `{ threw: name, code, message }`.
 */
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { GuestHarness } from './harness.ts';

const nodeRequire = createRequire(import.meta.url);

const WRAP = (fnSource: string) => `(function (fn, inputs, require) {
  return JSON.stringify(inputs.map((input) => {
    try {
      const value = fn(input, require);
      return value === undefined ? { undefined: true } : value;
    } catch (err) {
      return { threw: err && err.name, code: err && err.code, message: err && String(err.message) };
    }
  }));
})((${fnSource}), `;

/** Runs `fnSource` over `inputs` in Node and in the guest; returns both result lists. */
export function runBoth(
  h: GuestHarness,
  fnSource: string,
  inputs: readonly unknown[],
): { node: unknown[]; guest: unknown[] } {
  const json = JSON.stringify(inputs);
  const nodeText = new Function('require', `return ${WRAP(fnSource)}${json}, require);`)(
    nodeRequire,
  ) as string;
  const guestText = h.eval(`${WRAP(fnSource)}${json}, require);`) as string;
  return { node: JSON.parse(nodeText), guest: JSON.parse(guestText) };
}

/**
 * Asserts the guest gives Node's result for every input; a failure lists up to 8 differing inputs
 * with both results, so one run shows the pattern.
 */
export function expectSameAsNode(h: GuestHarness, fnSource: string, inputs: readonly unknown[]): void {
  const { node, guest } = runBoth(h, fnSource, inputs);
  const diffs: string[] = [];
  for (let i = 0; i < inputs.length; i++) {
    if (JSON.stringify(node[i]) !== JSON.stringify(guest[i])) {
      diffs.push(
        `input ${JSON.stringify(inputs[i])}\n  node:  ${JSON.stringify(node[i])}\n  guest: ${JSON.stringify(guest[i])}`,
      );
    }
  }
  expect(diffs.slice(0, 8).join('\n\n'), `${diffs.length} of ${inputs.length} inputs differ`).toBe('');
}
