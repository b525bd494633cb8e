'use strict';
// node:events: EventEmitter with Node's listener storage (`_events` holds a function or an array;
// once-wrappers carry `.listener`), the 'error' rule, 'newListener'/'removeListener', the max-listener
// leak warning, errorMonitor and captureRejections. events.once/events.on live in
// internal/events/iterators. EventEmitterAsyncResource is an EventEmitter with no async context.

const { codes, emitWarning, validateFunction, validateNumber } = require('internal/errors');

const kCapture = Symbol('kCapture');
const kShapeMode = Symbol('shapeMode');
const kErrorMonitor = Symbol('events.errorMonitor');
const kRejection = Symbol.for('nodejs.rejection');
const kMaxEventTargetListeners = Symbol('events.maxEventTargetListeners');
const kMaxEventTargetListenersWarned = Symbol('events.maxEventTargetListenersWarned');

let defaultMaxListeners = 10;
let captureRejectionsDefault = false;

let inspectFn;
function inspect(value, options) {
  inspectFn ??= require('internal/util/inspect').inspect;
  return inspectFn(value, options);
}

function checkListener(listener) {
  validateFunction(listener, 'listener');
}

function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;

EventEmitter.init = function init(opts) {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = { __proto__: null };
    this._eventsCount = 0;
    this[kShapeMode] = false;
  } else {
    this[kShapeMode] = true;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (opts?.captureRejections) {
    if (typeof opts.captureRejections !== 'boolean') {
      throw codes.ERR_INVALID_ARG_TYPE('options.captureRejections', 'boolean', opts.captureRejections);
    }
    this[kCapture] = Boolean(opts.captureRejections);
  } else {
    this[kCapture] = EventEmitter.prototype[kCapture];
  }
};

Object.defineProperty(EventEmitter.prototype, kCapture, { value: false, writable: true, enumerable: false });

Object.defineProperties(EventEmitter, {
  defaultMaxListeners: {
    enumerable: true,
    get: () => defaultMaxListeners,
    set(value) {
      validateNumber(value, 'defaultMaxListeners', 0);
      defaultMaxListeners = value;
    },
  },
  captureRejections: {
    enumerable: true,
    get: () => captureRejectionsDefault,
    set(value) {
      if (typeof value !== 'boolean')
        throw codes.ERR_INVALID_ARG_TYPE('EventEmitter.captureRejections', 'boolean', value);
      captureRejectionsDefault = value;
      EventEmitter.prototype[kCapture] = value;
    },
  },
  kMaxEventTargetListeners: { value: kMaxEventTargetListeners, enumerable: false },
  kMaxEventTargetListenersWarned: { value: kMaxEventTargetListenersWarned, enumerable: false },
});

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  validateNumber(n, 'setMaxListeners', 0);
  this._maxListeners = n;
  return this;
};

function getMaxListenersOf(emitter) {
  return emitter._maxListeners === undefined ? defaultMaxListeners : emitter._maxListeners;
}

EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
  return getMaxListenersOf(this);
};

function handleRejection(emitter, err, type, args) {
  if (typeof emitter[kRejection] === 'function') {
    emitter[kRejection](err, type, ...args);
    return;
  }
  const prev = emitter[kCapture];
  try {
    // Avoid an endless loop should the 'error' listener itself reject.
    emitter[kCapture] = false;
    emitter.emit('error', err);
  } finally {
    emitter[kCapture] = prev;
  }
}

function addCatch(emitter, promise, type, args) {
  try {
    const then = promise.then;
    if (typeof then === 'function') {
      then.call(promise, undefined, (err) => {
        const tick = globalThis.process?.nextTick ?? ((fn, ...a) => queueMicrotask(() => fn(...a)));
        tick(handleRejection, emitter, err, type, args);
      });
    }
  } catch (err) {
    emitter.emit('error', err);
  }
}

EventEmitter.prototype.emit = function emit(type, ...args) {
  let doError = type === 'error';
  const events = this._events;
  if (events !== undefined) {
    if (doError && events[kErrorMonitor] !== undefined) this.emit(kErrorMonitor, ...args);
    doError = doError && events.error === undefined;
  } else if (!doError) {
    return false;
  }
  if (doError) {
    const er = args[0];
    if (er instanceof Error) throw er;
    let stringified;
    try {
      stringified = inspect(er);
    } catch {
      stringified = er;
    }
    const err = codes.ERR_UNHANDLED_ERROR(stringified);
    err.context = er;
    throw err;
  }
  const handler = events[type];
  if (handler === undefined) return false;
  const listeners = typeof handler === 'function' ? [handler] : [...handler];
  for (const listener of listeners) {
    const result = Reflect.apply(listener, this, args);
    if (result !== undefined && result !== null && this[kCapture]) addCatch(this, result, type, args);
  }
  return true;
};

function leakWarning(target, type, count, max) {
  const warning = new Error(
    `Possible EventEmitter memory leak detected. ${count} ${String(type)} listeners added to ${inspect(target, { depth: -1 })}. MaxListeners is ${max}. Use emitter.setMaxListeners() to increase limit`,
  );
  warning.name = 'MaxListenersExceededWarning';
  warning.emitter = target;
  warning.type = type;
  warning.count = count;
  emitWarning(warning);
}

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let events = target._events;
  if (events === undefined) {
    events = target._events = { __proto__: null };
    target._eventsCount = 0;
  } else {
    if (events.newListener !== undefined) {
      target.emit('newListener', type, listener.listener ?? listener);
      events = target._events;
    }
  }
  let existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
    return target;
  }
  if (typeof existing === 'function') {
    existing = events[type] = prepend ? [listener, existing] : [existing, listener];
  } else if (prepend) {
    existing.unshift(listener);
  } else {
    existing.push(listener);
  }
  const max = getMaxListenersOf(target);
  if (max > 0 && existing.length > max && !existing.warned) {
    existing.warned = true;
    leakWarning(target, type, existing.length, max);
  }
  return target;
}

EventEmitter.prototype.addListener = function addListenerMethod(type, listener) {
  return addListener(this, type, listener, false);
};
EventEmitter.prototype.on = EventEmitter.prototype.addListener;

EventEmitter.prototype.prependListener = function prependListener(type, listener) {
  return addListener(this, type, listener, true);
};

function onceWrapper(...args) {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return Reflect.apply(this.listener, this.target, args);
  }
  return undefined;
}

function onceWrap(target, type, listener) {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = onceWrapper.bind(state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}

EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    this._eventsCount -= 1;
    if (this[kShapeMode]) events[type] = undefined;
    else if (this._eventsCount === 0) this._events = { __proto__: null };
    else delete events[type];
    if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
  } else if (typeof list !== 'function') {
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) {
        position = i;
        break;
      }
    }
    if (position < 0) return this;
    const removed = list[position];
    list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, removed.listener || listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(...args) {
  const events = this._events;
  if (events === undefined) return this;
  const type = args[0];
  if (events.removeListener === undefined) {
    if (args.length === 0) {
      this._events = { __proto__: null };
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = { __proto__: null };
      else delete events[type];
    }
    this[kShapeMode] = false;
    return this;
  }
  if (args.length === 0) {
    for (const key of Reflect.ownKeys(events)) {
      if (key !== 'removeListener') this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = { __proto__: null };
    this._eventsCount = 0;
    this[kShapeMode] = false;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === 'function') {
    this.removeListener(type, listeners);
  } else if (listeners !== undefined) {
    for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  }
  return this;
};

function listenersOf(target, type, unwrap) {
  const events = target._events;
  if (events === undefined) return [];
  const listener = events[type];
  if (listener === undefined) return [];
  if (typeof listener === 'function') return unwrap ? [listener.listener || listener] : [listener];
  return unwrap ? listener.map((l) => l.listener || l) : [...listener];
}

EventEmitter.prototype.listeners = function listeners(type) {
  return listenersOf(this, type, true);
};

EventEmitter.prototype.rawListeners = function rawListeners(type) {
  return listenersOf(this, type, false);
};

function listenerCount(type, listener) {
  const events = this._events;
  if (events === undefined) return 0;
  const found = events[type];
  if (typeof found === 'function') {
    if (listener != null) return listener === found || listener === found.listener ? 1 : 0;
    return 1;
  }
  if (found === undefined) return 0;
  if (listener != null) return found.filter((l) => l === listener || l.listener === listener).length;
  return found.length;
}
EventEmitter.prototype.listenerCount = listenerCount;

EventEmitter.prototype.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

EventEmitter.listenerCount = (emitter, type) => {
  if (typeof emitter.listenerCount === 'function') return emitter.listenerCount(type);
  return listenerCount.call(emitter, type);
};

function getEventListeners(emitterOrTarget, type) {
  if (typeof emitterOrTarget?.listeners === 'function') return emitterOrTarget.listeners(type);
  const listed = emitterOrTarget?.[Symbol.for('tabcode.eventTargetListeners')]?.(type);
  if (listed !== undefined) return listed;
  throw codes.ERR_INVALID_ARG_TYPE('emitter', ['EventEmitter', 'EventTarget'], emitterOrTarget);
}

function getMaxListeners(emitterOrTarget) {
  if (typeof emitterOrTarget?.getMaxListeners === 'function') return getMaxListenersOf(emitterOrTarget);
  if (emitterOrTarget?.[kMaxEventTargetListeners] !== undefined)
    return emitterOrTarget[kMaxEventTargetListeners];
  if (typeof emitterOrTarget?.addEventListener === 'function') return defaultMaxListeners;
  throw codes.ERR_INVALID_ARG_TYPE('emitter', ['EventEmitter', 'EventTarget'], emitterOrTarget);
}

function setMaxListeners(n = defaultMaxListeners, ...eventTargets) {
  validateNumber(n, 'setMaxListeners', 0);
  if (eventTargets.length === 0) {
    defaultMaxListeners = n;
    return;
  }
  for (const target of eventTargets) {
    if (typeof target?.setMaxListeners === 'function') target.setMaxListeners(n);
    else if (typeof target?.addEventListener === 'function') {
      target[kMaxEventTargetListeners] = n;
      target[kMaxEventTargetListenersWarned] = false;
    } else {
      throw codes.ERR_INVALID_ARG_TYPE('eventTargets', ['EventEmitter', 'EventTarget'], target);
    }
  }
}

function addAbortListener(signal, listener) {
  if (signal === undefined) throw codes.ERR_INVALID_ARG_TYPE('signal', 'AbortSignal', signal);
  validateFunction(listener, 'listener');
  let removed = false;
  const remove = () => {
    if (!removed) {
      removed = true;
      signal.removeEventListener('abort', listener);
    }
  };
  if (signal.aborted) {
    queueMicrotask(() => listener());
  } else {
    signal.addEventListener('abort', listener, { once: true });
  }
  const disposable = { __proto__: null, [Symbol.dispose ?? Symbol.for('nodejs.dispose')]: remove };
  return disposable;
}

class EventEmitterAsyncResource extends EventEmitter {
  constructor(options = undefined) {
    super(options);
  }
  get asyncId() {
    return 0;
  }
  get triggerAsyncId() {
    return 0;
  }
  emitDestroy() {}
}

module.exports = EventEmitter;
Object.assign(EventEmitter, {
  addAbortListener,
  getEventListeners,
  getMaxListeners,
  EventEmitter,
  usingDomains: false,
  captureRejectionSymbol: kRejection,
  errorMonitor: kErrorMonitor,
  setMaxListeners,
  EventEmitterAsyncResource,
});
const iterators = require('internal/events/iterators');
EventEmitter.once = iterators.once;
EventEmitter.on = iterators.on;
