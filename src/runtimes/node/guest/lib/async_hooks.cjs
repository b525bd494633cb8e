'use strict';
// async_hooks: AsyncLocalStorage that follows synchronous calls and run() scopes (not every async
// hop: QuickJS has no async context hooks), and createHook that never fires.
class AsyncLocalStorage {
  constructor() {
    this._store = undefined;
  }
  getStore() {
    return this._store;
  }
  run(store, fn, ...args) {
    const prev = this._store;
    this._store = store;
    try {
      return fn(...args);
    } finally {
      this._store = prev;
    }
  }
  enterWith(store) {
    this._store = store;
  }
  exit(fn, ...args) {
    return this.run(undefined, fn, ...args);
  }
  disable() {
    this._store = undefined;
  }
  static bind(fn) {
    return fn;
  }
  static snapshot() {
    return (fn, ...args) => fn(...args);
  }
}
class AsyncResource {
  constructor(type) {
    this.type = type;
  }
  runInAsyncScope(fn, thisArg, ...args) {
    return fn.apply(thisArg, args);
  }
  emitDestroy() {
    return this;
  }
  asyncId() {
    return 1;
  }
  triggerAsyncId() {
    return 0;
  }
  bind(fn) {
    return fn.bind(this);
  }
  static bind(fn) {
    return fn;
  }
}
module.exports = {
  AsyncLocalStorage,
  AsyncResource,
  createHook: () => ({
    enable() {
      return this;
    },
    disable() {
      return this;
    },
  }),
  executionAsyncId: () => 1,
  triggerAsyncId: () => 0,
  executionAsyncResource: () => ({}),
};
