'use strict';
// AbortController and AbortSignal (abort, reason, throwIfAborted, onabort, AbortSignal.abort/any/
// timeout). AbortSignal.timeout needs timers: it uses globalThis.setTimeout when it is called.

const { codes, validateNumber } = require('internal/errors');
const { EventTarget, Event, defineEventHandler } = require('internal/web/event-target');

const customInspect = Symbol.for('nodejs.util.inspect.custom');
const kConstruct = Symbol('kConstruct');
const kAbort = Symbol('kAbort');

class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;

  constructor(key = undefined) {
    if (key !== kConstruct) throw codes.ERR_ILLEGAL_CONSTRUCTOR();
    super();
  }

  get aborted() {
    return this.#aborted;
  }

  get reason() {
    return this.#reason;
  }

  throwIfAborted() {
    if (this.#aborted) throw this.#reason;
  }

  [kAbort](reason) {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.dispatchEvent(new Event('abort'));
  }

  static abort(reason = undefined) {
    const signal = new AbortSignal(kConstruct);
    signal[kAbort](reason);
    return signal;
  }

  static timeout(delay) {
    validateNumber(delay, 'delay', 0, 2 ** 32 - 1);
    if (typeof globalThis.setTimeout !== 'function') {
      throw codes.ERR_NOT_SUPPORTED_IN_TABCODE('AbortSignal.timeout() without timers');
    }
    const signal = new AbortSignal(kConstruct);
    const timer = globalThis.setTimeout(() => {
      signal[kAbort](new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, delay);
    // Like Node, a pending timeout signal does not keep the program alive.
    timer?.unref?.();
    return signal;
  }

  static any(signals) {
    if (signals === null || typeof signals?.[Symbol.iterator] !== 'function') {
      throw codes.ERR_INVALID_ARG_TYPE('signals', 'Array', signals);
    }
    const list = [...signals];
    for (const [i, s] of list.entries()) {
      if (!(s instanceof AbortSignal)) throw codes.ERR_INVALID_ARG_TYPE(`signals[${i}]`, 'AbortSignal', s);
    }
    const result = new AbortSignal(kConstruct);
    const already = list.find((s) => s.aborted);
    if (already) {
      result[kAbort](already.reason);
      return result;
    }
    for (const s of list) {
      s.addEventListener('abort', () => result[kAbort](s.reason), { once: true });
    }
    return result;
  }

  [customInspect](depth, options, inspect) {
    if (depth < 0) return 'AbortSignal';
    return `AbortSignal ${inspect({ aborted: this.#aborted }, options)}`;
  }
}
defineEventHandler(AbortSignal.prototype, 'abort');
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, {
  value: 'AbortSignal',
  configurable: true,
});

class AbortController {
  #signal = new AbortSignal(kConstruct);

  get signal() {
    return this.#signal;
  }

  abort(reason = undefined) {
    this.#signal[kAbort](reason);
  }

  [customInspect](depth, options, inspect) {
    if (depth < 0) return 'AbortController';
    return `AbortController ${inspect({ signal: this.#signal }, options)}`;
  }
}
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, {
  value: 'AbortController',
  configurable: true,
});

module.exports = { AbortController, AbortSignal };
