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

const WRAP_ASYNC = (fnSource: string) => `(async function (fn, inputs, require) {
  const out = [];
  for (const input of inputs) {
    try {
      const value = await fn(input, require);
      out.push(value === undefined ? { undefined: true } : value);
    } catch (err) {
      out.push({ threw: err && err.name, code: err && err.code, message: err && String(err.message) });
    }
  }
  return JSON.stringify(out);
})((${fnSource}), `;

/** As runBoth for an async function: awaits each input's promise on both sides. */
export async function runBothAsync(
  h: GuestHarness,
  fnSource: string,
  inputs: readonly unknown[],
): Promise<{ node: unknown[]; guest: unknown[] }> {
  const json = JSON.stringify(inputs);
  const nodeText = await (new Function('require', `return ${WRAP_ASYNC(fnSource)}${json}, require);`)(
    nodeRequire,
  ) as Promise<string>);
  const guestText = h.evalAsync(`${WRAP_ASYNC(fnSource)}${json}, require);`) as string;
  return { node: JSON.parse(nodeText), guest: JSON.parse(guestText) };
}

function assertSame(inputs: readonly unknown[], node: unknown[], guest: unknown[]): void {
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

/** expectSameAsNode for async functions. */
export async function expectSameAsNodeAsync(
  h: GuestHarness,
  fnSource: string,
  inputs: readonly unknown[],
): Promise<void> {
  const { node, guest } = await runBothAsync(h, fnSource, inputs);
  assertSame(inputs, node, guest);
}

/**
 * Asserts the guest gives Node's result for every input; a failure lists up to 8 differing inputs
 * with both results, so one run shows the pattern.
 */
export function expectSameAsNode(h: GuestHarness, fnSource: string, inputs: readonly unknown[]): void {
  const { node, guest } = runBoth(h, fnSource, inputs);
  assertSame(inputs, node, guest);
}
