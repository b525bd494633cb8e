'use strict';
// Timers on the engine's loop: the host keeps one real timer per Timeout (binding.timer) and the loop
// calls back `_fire(id)`; setImmediate uses the host's immediate queue. Timeout objects have Node's
// ref/unref/hasRef/refresh/close and convert to their numeric id.

const binding = require('internal/binding');

let nextId = 1;
const active = new Map();

function validateCallback(fn) {
  if (typeof fn !== 'function') {
    const err = new TypeError(
      `The "callback" argument must be of type function. Received ${fn === null ? 'null' : typeof fn}`,
    );
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

function delayOf(ms) {
  const n = Number(ms);
  return !Number.isFinite(n) || n < 1 || n > 2147483647 ? 1 : Math.floor(n);
}

class Timeout {
  constructor(fn, ms, args, repeat) {
    this._id = nextId++;
    this._onTimeout = fn;
    this._idleTimeout = delayOf(ms);
    this._args = args;
    this._repeat = repeat ? this._idleTimeout : null;
    this._ref = true;
    this._destroyed = false;
    active.set(this._id, this);
    binding.timer('set', this._id, this._idleTimeout);
  }
  ref() {
    this._ref = true;
    if (!this._destroyed) binding.timer('ref', this._id, 0);
    return this;
  }
  unref() {
    this._ref = false;
    if (!this._destroyed) binding.timer('unref', this._id, 0);
    return this;
  }
  hasRef() {
    return this._ref;
  }
  refresh() {
    if (!this._destroyed) {
      binding.timer('clear', this._id, 0);
      binding.timer('set', this._id, this._idleTimeout);
      if (!this._ref) binding.timer('unref', this._id, 0);
    }
    return this;
  }
  close() {
    clear(this);
    return this;
  }
  [Symbol.toPrimitive]() {
    return this._id;
  }
}

class Immediate {
  constructor(fn, args) {
    this._id = nextId++;
    this._onImmediate = fn;
    this._args = args;
    this._ref = true;
    active.set(this._id, this);
    binding.timer('set', this._id, -1);
  }
  ref() {
    this._ref = true;
    return this;
  }
  unref() {
    this._ref = false;
    return this;
  }
  hasRef() {
    return this._ref;
  }
}

function clear(timer) {
  if (timer === null || timer === undefined) return;
  const id = typeof timer === 'object' ? timer._id : Number(timer);
  const t = active.get(id);
  if (!t) return;
  t._destroyed = true;
  active.delete(id);
  binding.timer('clear', id, 0);
}

function setTimeout(fn, ms, ...args) {
  validateCallback(fn);
  return new Timeout(fn, ms, args, false);
}

function setInterval(fn, ms, ...args) {
  validateCallback(fn);
  return new Timeout(fn, ms, args, true);
}

function setImmediate(fn, ...args) {
  validateCallback(fn);
  return new Immediate(fn, args);
}

/** The engine: timer `id` is due. */
function _fire(id) {
  const t = active.get(id);
  if (!t) return;
  if (t._repeat !== null) {
    binding.timer('set', id, t._repeat);
    if (!t._ref) binding.timer('unref', id, 0);
  } else {
    t._destroyed = true;
    active.delete(id);
  }
  t._onTimeout.apply(t, t._args);
}

/** The engine: immediate `id` runs. */
function _fireImmediate(id) {
  const t = active.get(id);
  if (!t) return;
  active.delete(id);
  t._onImmediate.apply(t, t._args);
}

module.exports = {
  setTimeout,
  clearTimeout: clear,
  setInterval,
  clearInterval: clear,
  setImmediate,
  clearImmediate: clear,
  Timeout,
  Immediate,
  _fire,
  _fireImmediate,
  promises: undefined,
};
Object.defineProperty(module.exports, 'promises', {
  get: () => require('node:timers/promises'),
  enumerable: true,
});
