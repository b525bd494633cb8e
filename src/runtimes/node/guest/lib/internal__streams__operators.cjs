'use strict';
// Readable's iterator helpers (map, filter, forEach, toArray, some, every, find, reduce, take, drop,
// flatMap). They run one chunk at a time: `concurrency` above 1 is accepted but not parallel here.
const { AbortError, codes, validateFunction } = require('internal/errors');

function checkSignal(options) {
  if (options != null && typeof options !== 'object')
    throw codes.ERR_INVALID_ARG_TYPE('options', 'Object', options);
  const signal = options?.signal;
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
  return signal;
}

function throwIfAborted(signal) {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}

function install(Readable) {
  const from = (gen) => Readable.from(gen, { objectMode: true });

  Readable.prototype.map = function map(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    const stream = this;
    return from(
      (async function* () {
        for await (const chunk of stream) {
          throwIfAborted(signal);
          yield await fn(chunk, { signal });
        }
      })(),
    );
  };

  Readable.prototype.filter = function filter(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    const stream = this;
    return from(
      (async function* () {
        for await (const chunk of stream) {
          throwIfAborted(signal);
          if (await fn(chunk, { signal })) yield chunk;
        }
      })(),
    );
  };

  Readable.prototype.flatMap = function flatMap(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    const stream = this;
    return from(
      (async function* () {
        for await (const chunk of stream) {
          throwIfAborted(signal);
          yield* await fn(chunk, { signal });
        }
      })(),
    );
  };

  Readable.prototype.take = function take(number, options) {
    const signal = checkSignal(options);
    const limit = Number(number);
    const stream = this;
    return from(
      (async function* () {
        if (limit <= 0) return;
        let n = 0;
        for await (const chunk of stream) {
          throwIfAborted(signal);
          yield chunk;
          if (++n >= limit) return;
        }
      })(),
    );
  };

  Readable.prototype.drop = function drop(number, options) {
    const signal = checkSignal(options);
    const limit = Number(number);
    const stream = this;
    return from(
      (async function* () {
        let n = 0;
        for await (const chunk of stream) {
          throwIfAborted(signal);
          if (n++ >= limit) yield chunk;
        }
      })(),
    );
  };

  Readable.prototype.forEach = async function forEach(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    for await (const chunk of this) {
      throwIfAborted(signal);
      await fn(chunk, { signal });
    }
  };

  Readable.prototype.toArray = async function toArray(options) {
    const signal = checkSignal(options);
    const result = [];
    for await (const chunk of this) {
      throwIfAborted(signal);
      result.push(chunk);
    }
    return result;
  };

  Readable.prototype.some = async function some(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    for await (const chunk of this) {
      if (await fn(chunk, { signal })) return true;
    }
    return false;
  };

  Readable.prototype.every = async function every(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    for await (const chunk of this) {
      if (!(await fn(chunk, { signal }))) return false;
    }
    return true;
  };

  Readable.prototype.find = async function find(fn, options) {
    validateFunction(fn, 'fn');
    const signal = checkSignal(options);
    for await (const chunk of this) {
      if (await fn(chunk, { signal })) return chunk;
    }
    return undefined;
  };

  Readable.prototype.reduce = async function reduce(reducer, ...rest) {
    validateFunction(reducer, 'reducer');
    const [initialValue, options] = rest;
    const signal = checkSignal(options);
    let hasInitial = rest.length > 0;
    let acc = initialValue;
    for await (const chunk of this) {
      throwIfAborted(signal);
      if (!hasInitial) {
        acc = chunk;
        hasInitial = true;
      } else {
        acc = await reducer(acc, chunk, { signal });
      }
    }
    if (!hasInitial) {
      const err = new TypeError('Reduce of an empty stream requires an initial value');
      err.code = 'ERR_INVALID_ARGS';
      throw err;
    }
    return acc;
  };
}

module.exports = { install };
