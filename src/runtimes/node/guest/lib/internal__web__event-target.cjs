'use strict';
// Event, CustomEvent and EventTarget as Node provides them (DOM semantics without a tree: every
// dispatch is at the target). Listener options: once, capture (kept apart as the DOM says), signal;
// passive is a hint only, as in Node (preventDefault still works in a passive listener). A listener that throws does not stop the others; its error is rethrown on a later tick,
// which makes it an uncaught exception as in Node.

const { codes } = require('internal/errors');

const customInspect = Symbol.for('nodejs.util.inspect.custom');
const kListeners = Symbol('kListeners');
const kState = Symbol('kState');

function reportLater(err) {
  const tick = globalThis.process?.nextTick;
  if (typeof tick === 'function') {
    tick(() => {
      throw err;
    });
  } else {
    queueMicrotask(() => {
      throw err;
    });
  }
}

function now() {
  return typeof performance?.now === 'function' ? performance.now() : Date.now();
}

class Event {
  constructor(...args) {
    if (args.length === 0) throw codes.ERR_MISSING_ARGS('type');
    const [type, options] = args;
    if (options != null && typeof options !== 'object')
      throw codes.ERR_INVALID_ARG_TYPE('options', 'object', options);
    const state = {
      type: `${type}`,
      bubbles: Boolean(options?.bubbles),
      cancelable: Boolean(options?.cancelable),
      composed: Boolean(options?.composed),
      defaultPrevented: false,
      timeStamp: now(),
      target: null,
      currentTarget: null,
      phase: 0,
      stop: false,
      stopImmediate: false,
      dispatching: false,
    };
    Object.defineProperty(this, kState, { value: state, enumerable: false });
  }

  get type() {
    return this[kState].type;
  }
  get bubbles() {
    return this[kState].bubbles;
  }
  get cancelable() {
    return this[kState].cancelable;
  }
  get composed() {
    return this[kState].composed;
  }
  get defaultPrevented() {
    return this[kState].cancelable && this[kState].defaultPrevented;
  }
  get timeStamp() {
    return this[kState].timeStamp;
  }
  get target() {
    return this[kState].target;
  }
  get currentTarget() {
    return this[kState].currentTarget;
  }
  get srcElement() {
    return this[kState].target;
  }
  get eventPhase() {
    return this[kState].phase;
  }
  get isTrusted() {
    return false;
  }
  get returnValue() {
    return !this.defaultPrevented;
  }
  get cancelBubble() {
    return this[kState].stop;
  }
  set cancelBubble(value) {
    if (value) this[kState].stop = true;
  }

  composedPath() {
    return this[kState].dispatching ? [this[kState].currentTarget] : [];
  }
  preventDefault() {
    this[kState].defaultPrevented = true;
  }
  stopPropagation() {
    this[kState].stop = true;
  }
  stopImmediatePropagation() {
    this[kState].stop = true;
    this[kState].stopImmediate = true;
  }

  [customInspect](depth, options, inspect) {
    const name = this.constructor.name;
    if (depth < 0) return name;
    const shown = {
      type: this.type,
      defaultPrevented: this.defaultPrevented,
      cancelable: this.cancelable,
      timeStamp: this.timeStamp,
    };
    return `${name} ${inspect(shown, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
for (const [name, value] of [
  ['NONE', 0],
  ['CAPTURING_PHASE', 1],
  ['AT_TARGET', 2],
  ['BUBBLING_PHASE', 3],
]) {
  Object.defineProperty(Event, name, { value, enumerable: true });
  Object.defineProperty(Event.prototype, name, { value, enumerable: true });
}
Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

class CustomEvent extends Event {
  #detail;
  constructor(...args) {
    if (args.length === 0) throw codes.ERR_MISSING_ARGS('type');
    const [type, options] = args;
    super(type, options);
    this.#detail = options?.detail ?? null;
  }
  get detail() {
    return this.#detail;
  }
}
Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, {
  value: 'CustomEvent',
  configurable: true,
});

function normalizeOptions(options) {
  if (typeof options === 'boolean')
    return { capture: options, once: false, passive: false, signal: undefined };
  return {
    capture: Boolean(options?.capture),
    once: Boolean(options?.once),
    passive: Boolean(options?.passive),
    signal: options?.signal,
  };
}

function checkListener(listener) {
  if (typeof listener === 'function' || typeof listener?.handleEvent === 'function') return true;
  if (listener == null) return false;
  if (typeof listener === 'object') return true;
  throw codes.ERR_INVALID_ARG_TYPE('listener', 'EventListener', listener);
}

class EventTarget {
  constructor() {
    Object.defineProperty(this, kListeners, { value: new Map(), enumerable: false });
  }

  addEventListener(...args) {
    if (args.length < 2) throw codes.ERR_MISSING_ARGS('type', 'listener');
    const [type, listener, options] = args;
    if (!checkListener(listener)) return;
    const { capture, once, passive, signal } = normalizeOptions(options);
    if (signal?.aborted) return;
    const name = `${type}`;
    let list = this[kListeners].get(name);
    if (list === undefined) {
      list = [];
      this[kListeners].set(name, list);
    }
    if (list.some((entry) => entry.listener === listener && entry.capture === capture)) return;
    const entry = { listener, capture, once, passive, removed: false };
    list.push(entry);
    if (signal) {
      signal.addEventListener('abort', () => this.removeEventListener(name, listener, { capture }), {
        once: true,
      });
    }
  }

  removeEventListener(...args) {
    if (args.length < 2) throw codes.ERR_MISSING_ARGS('type', 'listener');
    const [type, listener, options] = args;
    const capture = typeof options === 'boolean' ? options : Boolean(options?.capture);
    const list = this[kListeners].get(`${type}`);
    if (list === undefined) return;
    const index = list.findIndex((entry) => entry.listener === listener && entry.capture === capture);
    if (index === -1) return;
    list[index].removed = true;
    list.splice(index, 1);
  }

  dispatchEvent(event) {
    if (!(event instanceof Event)) throw codes.ERR_INVALID_ARG_TYPE('event', 'Event', event);
    const state = event[kState];
    if (state.dispatching) {
      throw require('internal/errors').makeNodeError(
        Error,
        'ERR_EVENT_RECURSION',
        `The event "${state.type}" is already being dispatched`,
      );
    }
    state.dispatching = true;
    state.target = this;
    state.currentTarget = this;
    state.phase = 2;
    const list = this[kListeners].get(state.type);
    if (list !== undefined) {
      for (const entry of [...list]) {
        if (entry.removed) continue;
        if (entry.once) this.removeEventListener(state.type, entry.listener, { capture: entry.capture });
        try {
          const { listener } = entry;
          if (typeof listener === 'function') listener.call(this, event);
          else if (typeof listener?.handleEvent === 'function') listener.handleEvent(event);
        } catch (err) {
          reportLater(err);
        }
        if (state.stopImmediate) break;
      }
    }
    state.currentTarget = null;
    state.phase = 0;
    state.dispatching = false;
    return !event.defaultPrevented;
  }

  /** For events.getEventListeners(target, type). */
  [Symbol.for('tabcode.eventTargetListeners')](type) {
    return (this[kListeners].get(`${type}`) ?? []).map((entry) => entry.listener);
  }

  [customInspect](depth, options, inspect) {
    const name = this.constructor.name;
    if (depth < 0) return name;
    return `${name} ${inspect({}, options)}`;
  }
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, {
  value: 'EventTarget',
  configurable: true,
});

/** Defines `on<type>` handler properties (e.g. AbortSignal's onabort) on a class prototype. */
function defineEventHandler(prototype, type) {
  const key = Symbol(`on${type}`);
  Object.defineProperty(prototype, `on${type}`, {
    get() {
      return this[key]?.handler ?? null;
    },
    set(handler) {
      if (this[key]) this.removeEventListener(type, this[key].wrapper);
      if (typeof handler === 'function') {
        const wrapper = (event) => handler.call(this, event);
        this[key] = { handler, wrapper };
        this.addEventListener(type, wrapper);
      } else {
        this[key] = undefined;
      }
    },
    enumerable: true,
    configurable: true,
  });
}

module.exports = { Event, CustomEvent, EventTarget, defineEventHandler, kEventState: kState };
