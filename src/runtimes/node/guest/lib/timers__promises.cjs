'use strict';
// timers/promises: setTimeout / setImmediate as promises (with AbortSignal), setInterval as an async
// iterator, and scheduler.wait / scheduler.yield.

const timers = require('node:timers');

function abortError(signal) {
  const err = new Error('The operation was aborted', { cause: signal?.reason });
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  return err;
}

function setTimeout(ms, value, options = {}) {
  const { signal, ref = true } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const t = timers.setTimeout(() => {
      signal?.removeEventListener?.('abort', onAbort);
      resolve(value);
    }, ms);
    if (!ref) t.unref();
    function onAbort() {
      timers.clearTimeout(t);
      reject(abortError(signal));
    }
    signal?.addEventListener?.('abort', onAbort, { once: true });
  });
}

function setImmediate(value, options = {}) {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const t = timers.setImmediate(() => resolve(value));
    signal?.addEventListener?.(
      'abort',
      () => {
        timers.clearImmediate(t);
        reject(abortError(signal));
      },
      { once: true },
    );
  });
}

async function* setInterval(ms, value, options = {}) {
  const { signal } = options;
  let pending = 0;
  let wake;
  const t = timers.setInterval(() => {
    pending++;
    wake?.();
  }, ms);
  try {
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      if (pending === 0) await new Promise((r) => (wake = r));
      wake = undefined;
      pending--;
      yield value;
    }
  } finally {
    timers.clearInterval(t);
  }
}

const scheduler = {
  wait: (ms, options) => setTimeout(ms, undefined, options),
  yield: () => setImmediate(),
};

module.exports = { setTimeout, setImmediate, setInterval, scheduler };
