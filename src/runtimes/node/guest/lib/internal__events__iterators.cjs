'use strict';
// events.once (a promise of the next event's arguments) and events.on (an async iterator of events),
// for EventEmitters and EventTargets, with AbortSignal support as in Node.

const { AbortError, validateAbortSignal, validateObject, codes } = require('internal/errors');

function addAgnostic(emitter, name, listener, flags) {
  if (typeof emitter.on === 'function') {
    if (flags?.once) emitter.once(name, listener);
    else emitter.on(name, listener);
  } else if (typeof emitter.addEventListener === 'function') {
    emitter.addEventListener(name, listener, flags);
  } else {
    throw codes.ERR_INVALID_ARG_TYPE('emitter', 'EventEmitter', emitter);
  }
}

function removeAgnostic(emitter, name, listener, flags) {
  if (typeof emitter.removeListener === 'function') emitter.removeListener(name, listener);
  else if (typeof emitter.removeEventListener === 'function')
    emitter.removeEventListener(name, listener, flags);
  else throw codes.ERR_INVALID_ARG_TYPE('emitter', 'EventEmitter', emitter);
}

/** events.once(emitter, name, { signal }): resolves with the event's arguments as an array. */
async function once(emitter, name, options = {}) {
  validateObject(options, 'options', { nullable: true });
  const signal = options?.signal;
  validateAbortSignal(signal, 'options.signal');
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal?.reason });
  return new Promise((resolve, reject) => {
    const errorListener = (err) => {
      emitter.removeListener(name, resolver);
      if (signal != null) removeAgnostic(signal, 'abort', abortListener);
      reject(err);
    };
    const resolver = (...args) => {
      if (typeof emitter.removeListener === 'function') emitter.removeListener('error', errorListener);
      if (signal != null) removeAgnostic(signal, 'abort', abortListener);
      resolve(args);
    };
    addAgnostic(emitter, name, resolver, { once: true });
    if (name !== 'error' && typeof emitter.once === 'function') emitter.once('error', errorListener);
    function abortListener() {
      removeAgnostic(emitter, name, resolver);
      if (typeof emitter.removeListener === 'function') emitter.removeListener('error', errorListener);
      reject(new AbortError(undefined, { cause: signal?.reason }));
    }
    if (signal != null) addAgnostic(signal, 'abort', abortListener, { once: true });
  });
}

/**
 * events.on(emitter, event, { signal, close }): an async iterator yielding each event's arguments
 * array. An 'error' event makes the next read throw (after queued events); `close` names events that
 * end the iteration; return() removes the listeners.
 */
function on(emitter, event, options = {}) {
  validateObject(options, 'options');
  const signal = options.signal;
  validateAbortSignal(signal, 'options.signal');
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal?.reason });
  const closeEvents = options.close ?? [];
  const queue = [];
  const waiting = [];
  let error = null;
  let finished = false;

  const eventHandler = (...args) => {
    if (waiting.length > 0) waiting.shift().resolve({ value: args, done: false });
    else queue.push(args);
  };
  const errorHandler = (err) => {
    if (waiting.length > 0) waiting.shift().reject(err);
    else error = err;
    closeHandler();
  };
  const abortListener = () => errorHandler(new AbortError(undefined, { cause: signal?.reason }));
  function removeAll() {
    removeAgnostic(emitter, event, eventHandler);
    if (event !== 'error' && typeof emitter.on === 'function') removeAgnostic(emitter, 'error', errorHandler);
    for (const name of closeEvents) removeAgnostic(emitter, name, closeHandler);
    if (signal) removeAgnostic(signal, 'abort', abortListener);
  }
  function closeHandler() {
    if (finished) return;
    finished = true;
    removeAll();
    while (waiting.length > 0) waiting.shift().resolve({ value: undefined, done: true });
  }

  addAgnostic(emitter, event, eventHandler);
  if (event !== 'error' && typeof emitter.on === 'function') addAgnostic(emitter, 'error', errorHandler);
  for (const name of closeEvents) addAgnostic(emitter, name, closeHandler);
  if (signal) addAgnostic(signal, 'abort', abortListener, { once: true });

  const iterator = Object.setPrototypeOf(
    {
      next() {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
        if (error) {
          const p = Promise.reject(error);
          error = null;
          return p;
        }
        if (finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() {
        closeHandler();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw(err) {
        if (!err || !(err instanceof Error))
          throw codes.ERR_INVALID_ARG_TYPE('EventEmitter.AsyncIterator', 'Error', err);
        errorHandler(err);
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    },
    Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype),
  );
  return iterator;
}

module.exports = { once, on };
