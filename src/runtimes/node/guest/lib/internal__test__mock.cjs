'use strict';
// node:test's mocking: `mock.fn()`, `mock.method()`, `mock.getter()`/`mock.setter()`, each call
// recorded on `fn.mock` (calls, callCount(), mockImplementation…, restore()). `t.mock` is a tracker
// reset (all mocks restored) when its test ends; the module's `mock` is reset only when asked.
const { codes, validateFunction, validateInteger } = require('internal/errors');

function validateTimes(times) {
  if (times !== undefined) validateInteger(times, 'options.times', 1);
}

class MockFunctionContext {
  #calls = [];
  #onceImplementations = new Map();
  #implementation;
  #restore;
  #times;

  constructor(implementation, restore, times) {
    this.#implementation = implementation;
    this.#restore = restore;
    this.#times = times;
  }

  /** Every call so far: { arguments, error, result, stack, target, this }. A copy. */
  get calls() {
    return this.#calls.slice();
  }

  callCount() {
    return this.#calls.length;
  }

  mockImplementation(implementation) {
    validateFunction(implementation, 'implementation');
    this.#implementation = implementation;
  }

  /** Uses `implementation` for one call only: the next one, or call number `onCall` (0-based). */
  mockImplementationOnce(implementation, onCall) {
    validateFunction(implementation, 'implementation');
    const call = onCall ?? this.#calls.length;
    if (!Number.isInteger(call) || call < 0) throw codes.ERR_INVALID_ARG_TYPE('onCall', 'number', onCall);
    this.#onceImplementations.set(call, implementation);
  }

  resetCalls() {
    this.#calls = [];
  }

  /** Puts back what was mocked: the method's original descriptor, or the original function. */
  restore() {
    const r = this.#restore;
    if (r.object !== undefined) Object.defineProperty(r.object, r.methodName, r.descriptor);
    else this.#implementation = r.original;
  }

  /** @internal The implementation for the call about to happen. */
  nextImplementation() {
    const n = this.#calls.length;
    const once = this.#onceImplementations.get(n);
    if (once) {
      this.#onceImplementations.delete(n);
      return once;
    }
    if (this.#times !== undefined && n >= this.#times) return this.#restore.original;
    return this.#implementation;
  }

  /** @internal */
  trackCall(call) {
    this.#calls.push(call);
  }
}

class MockTracker {
  #mocks = [];

  /** A function that records its calls and runs `implementation` (by default `original`). */
  fn(original = () => {}, implementation = original, options = {}) {
    if (original !== null && typeof original === 'object') {
      options = original;
      original = () => {};
      implementation = original;
    } else if (implementation !== null && typeof implementation === 'object') {
      options = implementation;
      implementation = original;
    }
    validateFunction(original, 'original');
    validateFunction(implementation, 'implementation');
    validateTimes(options?.times);
    const ctx = new MockFunctionContext(implementation, { original }, options?.times);
    return this.#setup(ctx, original);
  }

  /** Replaces `object[methodName]` with a mock; `restore()` (or the test's end for t.mock) undoes it. */
  method(object, methodName, implementation, options = {}) {
    if (typeof methodName !== 'string' && typeof methodName !== 'symbol') {
      throw codes.ERR_INVALID_ARG_TYPE('methodName', ['string', 'symbol'], methodName);
    }
    if (object === null || (typeof object !== 'object' && typeof object !== 'function')) {
      throw codes.ERR_INVALID_ARG_TYPE('object', 'Object', object);
    }
    if (implementation !== null && typeof implementation === 'object') {
      options = implementation;
      implementation = undefined;
    }
    const getter = !!options?.getter;
    const setter = !!options?.setter;
    if (getter && setter)
      throw codes.ERR_INVALID_ARG_VALUE('options.setter', setter, "cannot be used with 'options.getter'");
    validateTimes(options?.times);
    let descriptor;
    for (let o = object; o !== null && o !== undefined; o = Object.getPrototypeOf(o)) {
      descriptor = Object.getOwnPropertyDescriptor(o, methodName);
      if (descriptor) break;
    }
    const original = descriptor && (getter ? descriptor.get : setter ? descriptor.set : descriptor.value);
    if (typeof original !== 'function')
      throw codes.ERR_INVALID_ARG_VALUE('methodName', original, 'must be a method');
    if (implementation !== undefined) validateFunction(implementation, 'implementation');
    const restore = { descriptor, object, methodName, original };
    const ctx = new MockFunctionContext(implementation ?? original, restore, options?.times);
    const mock = this.#setup(ctx, original);
    const mocked = { configurable: descriptor.configurable, enumerable: descriptor.enumerable };
    if (getter) {
      mocked.get = mock;
      mocked.set = descriptor.set;
    } else if (setter) {
      mocked.get = descriptor.get;
      mocked.set = mock;
    } else {
      mocked.writable = descriptor.writable;
      mocked.value = mock;
    }
    Object.defineProperty(object, methodName, mocked);
    return mock;
  }

  getter(object, methodName, implementation, options = {}) {
    if (implementation !== null && typeof implementation === 'object') {
      options = implementation;
      implementation = undefined;
    }
    if (options && options.getter === false)
      throw codes.ERR_INVALID_ARG_VALUE('options.getter', false, 'cannot be false');
    return this.method(object, methodName, implementation, { ...options, getter: true });
  }

  setter(object, methodName, implementation, options = {}) {
    if (implementation !== null && typeof implementation === 'object') {
      options = implementation;
      implementation = undefined;
    }
    if (options && options.setter === false)
      throw codes.ERR_INVALID_ARG_VALUE('options.setter', false, 'cannot be false');
    return this.method(object, methodName, implementation, { ...options, setter: true });
  }

  get timers() {
    throw codes.ERR_NOT_SUPPORTED_IN_TABCODE('node:test mock.timers');
  }

  /** Restores every mock this tracker made and forgets them. */
  reset() {
    this.restoreAll();
    this.#mocks = [];
  }

  restoreAll() {
    for (const ctx of this.#mocks) ctx.restore();
  }

  #setup(ctx, target) {
    const mock = new Proxy(target, {
      apply(_target, thisArg, args) {
        const impl = ctx.nextImplementation();
        let result;
        let error;
        try {
          result = Reflect.apply(impl, thisArg, args);
        } catch (err) {
          error = err;
          throw err;
        } finally {
          ctx.trackCall({
            arguments: args,
            error,
            result,
            stack: new Error(),
            target: undefined,
            this: thisArg,
          });
        }
        return result;
      },
      construct(_target, args, newTarget) {
        const impl = ctx.nextImplementation();
        // `new mock()` builds the implementation's class (Node records that class as the target).
        const target = newTarget === mock ? impl : newTarget;
        let result;
        let error;
        try {
          result = Reflect.construct(impl, args, target);
        } catch (err) {
          error = err;
          throw err;
        } finally {
          ctx.trackCall({ arguments: args, error, result, stack: new Error(), target, this: result });
        }
        return result;
      },
      get(target, property, receiver) {
        if (property === 'mock') return ctx;
        return Reflect.get(target, property, receiver);
      },
    });
    this.#mocks.push(ctx);
    return mock;
  }
}

module.exports = { MockTracker, MockFunctionContext };
