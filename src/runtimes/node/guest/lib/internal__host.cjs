'use strict';
// Capabilities the engine's host side may lend the guest's builtins for things JavaScript cannot do
// from inside (today: reading a promise's state, for util.inspect's `Promise { 1 }`).
//
// Contract with the engine: before the first builtin loads, the host may set
// `globalThis.__tabcodeHost = { promiseState(value) }` where promiseState returns null when `value`
// is not a promise, else ['pending'] | ['fulfilled', value] | ['rejected', reason]. This module takes
// the object and removes the global, so user code never sees it. Without it, promises print as
// `Promise { <pending> }`.

const hooks = globalThis.__tabcodeHost ?? {};
delete globalThis.__tabcodeHost;

module.exports = {
  /** null: not a promise; undefined: unknown (no hook); else [state, value?]. Never throws. */
  promiseState(value) {
    if (typeof hooks.promiseState !== 'function') return undefined;
    try {
      return hooks.promiseState(value);
    } catch {
      return undefined;
    }
  },
};
