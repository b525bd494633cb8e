'use strict';
// stream.Duplex: a Readable that is also a Writable (separate states, one object). allowHalfOpen
// false ends the writable side when the readable side ends.
const Readable = require('internal/streams/readable');
const Writable = require('internal/streams/writable');
const { Stream } = require('internal/streams/legacy');

function Duplex(options) {
  if (!(this instanceof Duplex)) return new Duplex(options);
  Readable.call(this, options);
  Writable.call(this, options);
  if (options) {
    this.allowHalfOpen = options.allowHalfOpen !== false;
    if (options.readable === false) {
      this._readableState.readable = false;
      this._readableState.ended = true;
      this._readableState.endEmitted = true;
    }
    if (options.writable === false) {
      this._writableState.writable = false;
      this._writableState.ending = true;
      this._writableState.ended = true;
      this._writableState.finished = true;
    }
    if (options.signal)
      require('internal/streams/add-abort-signal').addAbortSignalNoValidate(options.signal, this);
  } else {
    this.allowHalfOpen = true;
  }
}
Object.setPrototypeOf(Duplex.prototype, Readable.prototype);
Object.setPrototypeOf(Duplex, Readable);

for (const method of Object.keys(Writable.prototype)) {
  if (!Duplex.prototype[method]) Duplex.prototype[method] = Writable.prototype[method];
}

function fromWritable(name) {
  return { ...Object.getOwnPropertyDescriptor(Writable.prototype, name) };
}

Object.defineProperties(Duplex.prototype, {
  writable: fromWritable('writable'),
  writableHighWaterMark: fromWritable('writableHighWaterMark'),
  writableObjectMode: fromWritable('writableObjectMode'),
  writableBuffer: fromWritable('writableBuffer'),
  writableLength: fromWritable('writableLength'),
  writableFinished: fromWritable('writableFinished'),
  writableCorked: fromWritable('writableCorked'),
  writableEnded: fromWritable('writableEnded'),
  writableNeedDrain: fromWritable('writableNeedDrain'),
  destroyed: {
    get() {
      if (this._readableState === undefined || this._writableState === undefined) return false;
      return this._readableState.destroyed && this._writableState.destroyed;
    },
    set(value) {
      if (this._readableState && this._writableState) {
        this._readableState.destroyed = value;
        this._writableState.destroyed = value;
      }
    },
    configurable: true,
  },
});

/** Duplex.from(): streams pass through; other sources are not supported in this runtime. */
Duplex.from = (body) => {
  if (body instanceof Stream) return body;
  if (body && typeof body === 'object' && (Symbol.asyncIterator in body || Symbol.iterator in body)) {
    return Readable.from(body);
  }
  throw require('internal/errors').codes.ERR_INVALID_ARG_TYPE(
    'body',
    ['Stream', 'Iterable', 'AsyncIterable'],
    body,
  );
};

module.exports = Duplex;
