'use strict';
// Readable.from(iterable[, options]): a Readable (object mode by default) that pulls from a sync or
// async iterable, awaiting promise values; a string or Buffer is pushed whole.
const { errors } = require('internal/streams/utils');

function from(Readable, iterable, opts) {
  const { Buffer } = require('buffer');
  if (typeof iterable === 'string' || iterable instanceof Buffer) {
    return new Readable({
      objectMode: true,
      ...opts,
      read() {
        this.push(iterable);
        this.push(null);
      },
    });
  }
  let isAsync;
  let iterator;
  if (iterable && typeof iterable[Symbol.asyncIterator] === 'function') {
    isAsync = true;
    iterator = iterable[Symbol.asyncIterator]();
  } else if (iterable && typeof iterable[Symbol.iterator] === 'function') {
    isAsync = false;
    iterator = iterable[Symbol.iterator]();
  } else {
    throw errors.ERR_INVALID_ARG_TYPE('iterable', ['Iterable'], iterable);
  }

  const readable = new Readable({ objectMode: true, highWaterMark: 1, ...opts });
  let reading = false;
  let awaitValues = false;

  readable._read = () => {
    if (!reading) {
      reading = true;
      if (isAsync || awaitValues) nextAsync();
      else nextSync();
    }
  };

  readable._destroy = (error, cb) => {
    close(error).then(
      () => process.nextTick(cb, error),
      (e) => process.nextTick(cb, e || error),
    );
  };

  async function close(error) {
    const hadError = error !== undefined && error !== null;
    if (hadError && typeof iterator.throw === 'function') {
      const { value, done } = await iterator.throw(error);
      await value;
      if (done) return;
    }
    if (typeof iterator.return === 'function') {
      const { value } = await iterator.return();
      await value;
    }
  }

  function nextSync() {
    for (;;) {
      try {
        const { value, done } = iterator.next();
        if (done) {
          readable.push(null);
          return;
        }
        if (value && typeof value.then === 'function') {
          // A sync iterable of promises: from here on, values are awaited.
          awaitValues = true;
          settle(value);
          return;
        }
        if (value === null) {
          reading = false;
          throw errors.ERR_STREAM_NULL_VALUES();
        }
        if (readable.push(value)) continue;
        reading = false;
      } catch (err) {
        readable.destroy(err);
      }
      break;
    }
  }

  async function settle(promise) {
    try {
      const value = await promise;
      if (value === null) {
        reading = false;
        throw errors.ERR_STREAM_NULL_VALUES();
      }
      if (readable.push(value)) nextAsync();
      else reading = false;
    } catch (err) {
      readable.destroy(err);
    }
  }

  async function nextAsync() {
    for (;;) {
      try {
        const result = isAsync ? await iterator.next() : iterator.next();
        if (result.done) {
          readable.push(null);
          return;
        }
        const value = isAsync ? result.value : await result.value;
        if (value === null) {
          reading = false;
          throw errors.ERR_STREAM_NULL_VALUES();
        }
        if (readable.push(value)) continue;
        reading = false;
      } catch (err) {
        readable.destroy(err);
      }
      break;
    }
  }

  return readable;
}

module.exports = from;
