'use strict';
// stream.Readable: the buffer, flowing and paused modes, 'data'/'readable'/'end'/'close' in Node's
// order, pipe(), async iteration. Function-style constructor so `Readable.call(this, opts)` works for
// classes written the pre-ES2015 way.
const EE = require('node:events');
const destroyImpl = require('internal/streams/destroy');
const eos = require('internal/streams/end-of-stream');
const { kPaused, errors, getHighWaterMark, getDefaultHighWaterMark } = require('internal/streams/utils');
const { Stream } = require('internal/streams/legacy');
const { computeNewHighWaterMark, howMuchToRead, fromList } = require('internal/streams/readable-buffer');

let BufferClass;
function getBuffer() {
  BufferClass ??= require('buffer').Buffer;
  return BufferClass;
}
let StringDecoderClass;
function getStringDecoder() {
  StringDecoderClass ??= require('node:string_decoder').StringDecoder;
  return StringDecoderClass;
}

function ReadableState(options, stream, isDuplex) {
  options = options || {};
  if (typeof isDuplex !== 'boolean') isDuplex = stream instanceof require('internal/streams/duplex');
  this.objectMode = !!(options.objectMode || (isDuplex && options.readableObjectMode));
  this.highWaterMark = getHighWaterMark(this, options, 'readableHighWaterMark', isDuplex);
  this.buffer = [];
  this.length = 0;
  this.pipes = [];
  this.flowing = null;
  this.ended = false;
  this.endEmitted = false;
  this.reading = false;
  this.constructed = true;
  this.sync = true; // true while _read() runs: a push() then must not emit synchronously
  this.needReadable = false;
  this.emittedReadable = false;
  this.readableListening = false;
  this.resumeScheduled = false;
  this[kPaused] = null;
  this.errorEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.destroyed = false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.awaitDrainWriters = null;
  this.multiAwaitDrain = false;
  this.readingMore = false;
  this.dataEmitted = false;
  this.decoder = null;
  this.encoding = null;
  if (options.encoding) {
    this.decoder = new (getStringDecoder())(options.encoding);
    this.encoding = options.encoding;
  }
}

Object.defineProperty(ReadableState.prototype, 'paused', {
  get() {
    return this[kPaused] !== null ? this[kPaused] : false;
  },
  set(value) {
    this[kPaused] = value;
  },
});

function Readable(options) {
  if (!(this instanceof Readable)) return new Readable(options);
  const isDuplex = this instanceof require('internal/streams/duplex');
  this._readableState = new ReadableState(options, this, isDuplex);
  if (options) {
    if (typeof options.read === 'function') this._read = options.read;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (typeof options.construct === 'function') this._construct = options.construct;
    if (options.signal && !isDuplex)
      require('internal/streams/add-abort-signal').addAbortSignalNoValidate(options.signal, this);
  }
  Stream.call(this, options);
  destroyImpl.construct(this, () => {
    if (this._readableState.needReadable) maybeReadMore(this, this._readableState);
  });
}
Object.setPrototypeOf(Readable.prototype, Stream.prototype);
Object.setPrototypeOf(Readable, Stream);

Readable.ReadableState = ReadableState;
Readable.prototype.destroy = destroyImpl.destroy;
Readable.prototype._undestroy = destroyImpl.undestroy;
Readable.prototype._destroy = (err, cb) => {
  cb(err);
};
Readable.prototype[EE.captureRejectionSymbol ?? Symbol.for('nodejs.rejection')] = function (err) {
  this.destroy(err);
};
if (Symbol.asyncDispose) {
  Readable.prototype[Symbol.asyncDispose] = function () {
    let error;
    if (!this.destroyed) {
      error = this.readableEnded ? null : new (require('internal/errors').AbortError)();
      this.destroy(error);
    }
    return new Promise((resolve, reject) =>
      eos(this, (err) => (err && err !== error ? reject(err) : resolve(null))),
    );
  };
}

Readable.prototype.push = function (chunk, encoding) {
  return readableAddChunk(this, chunk, encoding, false);
};

Readable.prototype.unshift = function (chunk, encoding) {
  return readableAddChunk(this, chunk, encoding, true);
};

function readableAddChunk(stream, chunk, encoding, addToFront) {
  const state = stream._readableState;
  let err;
  if (!state.objectMode) {
    const Buffer = getBuffer();
    if (typeof chunk === 'string') {
      encoding = encoding || state.defaultEncoding;
      if (state.encoding !== encoding) {
        if (addToFront && state.encoding) {
          chunk = Buffer.from(chunk, encoding).toString(state.encoding);
        } else {
          chunk = Buffer.from(chunk, encoding);
          encoding = '';
        }
      }
    } else if (chunk instanceof Buffer) {
      encoding = '';
    } else if (chunk instanceof Uint8Array) {
      chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      encoding = '';
    } else if (chunk != null) {
      err = errors.ERR_INVALID_ARG_TYPE('chunk', ['string', 'Buffer', 'Uint8Array'], chunk);
    }
  }
  if (err) {
    destroyImpl.errorOrDestroy(stream, err);
  } else if (chunk === null) {
    state.reading = false;
    onEofChunk(stream, state);
  } else if (state.objectMode || (chunk && chunk.length > 0)) {
    if (addToFront) {
      if (state.endEmitted) destroyImpl.errorOrDestroy(stream, errors.ERR_STREAM_UNSHIFT_AFTER_END_EVENT());
      else if (state.destroyed || state.errored) return false;
      else addChunk(stream, state, chunk, true);
    } else if (state.ended) {
      destroyImpl.errorOrDestroy(stream, errors.ERR_STREAM_PUSH_AFTER_EOF());
    } else if (state.destroyed || state.errored) {
      return false;
    } else {
      state.reading = false;
      if (state.decoder && !encoding) {
        chunk = state.decoder.write(chunk);
        if (state.objectMode || chunk.length !== 0) addChunk(stream, state, chunk, false);
        else maybeReadMore(stream, state);
      } else {
        addChunk(stream, state, chunk, false);
      }
    }
  } else if (!addToFront) {
    state.reading = false;
    maybeReadMore(stream, state);
  }
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}

function addChunk(stream, state, chunk, addToFront) {
  if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount('data') > 0) {
    // Flowing with an empty buffer: hand the chunk straight to 'data'.
    if (state.multiAwaitDrain) state.awaitDrainWriters.clear();
    else state.awaitDrainWriters = null;
    state.dataEmitted = true;
    stream.emit('data', chunk);
  } else {
    state.length += state.objectMode ? 1 : chunk.length;
    if (addToFront) state.buffer.unshift(chunk);
    else state.buffer.push(chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
}

Readable.prototype.isPaused = function () {
  const state = this._readableState;
  return state[kPaused] === true || state.flowing === false;
};

Readable.prototype.setEncoding = function (enc) {
  const decoder = new (getStringDecoder())(enc);
  const state = this._readableState;
  state.decoder = decoder;
  state.encoding = decoder.encoding;
  let content = '';
  for (const data of state.buffer) content += decoder.write(data);
  state.buffer = [];
  if (content !== '') state.buffer.push(content);
  state.length = content.length;
  return this;
};

Readable.prototype.read = function (n) {
  if (n === undefined) n = Number.NaN;
  else if (!Number.isInteger(n)) n = Number.parseInt(n, 10);
  const state = this._readableState;
  const nOrig = n;
  if (n > state.highWaterMark) state.highWaterMark = computeNewHighWaterMark(n);
  if (n !== 0) state.emittedReadable = false;

  // read(0) with enough buffered (or at the end) only triggers 'readable' or 'end'.
  if (
    n === 0 &&
    state.needReadable &&
    ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)
  ) {
    if (state.length === 0 && state.ended) endReadable(this);
    else emitReadable(this);
    return null;
  }

  n = howMuchToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(this);
    return null;
  }

  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored || !state.constructed) {
    doRead = false;
  } else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      this._read(state.highWaterMark);
    } catch (err) {
      destroyImpl.errorOrDestroy(this, err);
    }
    state.sync = false;
    if (!state.reading) n = howMuchToRead(nOrig, state);
  }

  const ret = n > 0 ? fromList(n, state) : null;
  if (ret === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= n;
    if (state.multiAwaitDrain) state.awaitDrainWriters.clear();
    else state.awaitDrainWriters = null;
  }
  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (nOrig !== n && state.ended) endReadable(this);
  }
  if (ret !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    this.emit('data', ret);
  }
  return ret;
};

function onEofChunk(stream, state) {
  if (state.ended) return;
  if (state.decoder) {
    const chunk = state.decoder.end();
    if (chunk?.length) {
      state.buffer.push(chunk);
      state.length += state.objectMode ? 1 : chunk.length;
    }
  }
  state.ended = true;
  if (state.sync) {
    emitReadable(stream);
  } else {
    state.needReadable = false;
    state.emittedReadable = true;
    emitReadableNT(stream);
  }
}

function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    process.nextTick(emitReadableNT, stream);
  }
}

function emitReadableNT(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit('readable');
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}

function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed) {
    state.readingMore = true;
    process.nextTick(maybeReadMoreNT, stream, state);
  }
}

function maybeReadMoreNT(stream, state) {
  while (
    !state.reading &&
    !state.ended &&
    (state.length < state.highWaterMark || (state.flowing && state.length === 0))
  ) {
    const len = state.length;
    stream.read(0);
    if (len === state.length) break;
  }
  state.readingMore = false;
}

Readable.prototype._read = () => {
  throw errors.ERR_METHOD_NOT_IMPLEMENTED('_read()');
};

Readable.prototype.pipe = function (dest, pipeOpts) {
  return require('internal/streams/pipe').pipe(this, dest, pipeOpts);
};

Readable.prototype.unpipe = function (dest) {
  const state = this._readableState;
  const unpipeInfo = { hasUnpiped: false };
  if (state.pipes.length === 0) return this;
  if (!dest) {
    const dests = state.pipes;
    state.pipes = [];
    this.pause();
    for (const d of dests) d.emit('unpipe', this, { hasUnpiped: false });
    return this;
  }
  const index = state.pipes.indexOf(dest);
  if (index === -1) return this;
  state.pipes.splice(index, 1);
  if (state.pipes.length === 0) this.pause();
  dest.emit('unpipe', this, unpipeInfo);
  return this;
};

Readable.prototype.on = function (ev, fn) {
  const res = Stream.prototype.on.call(this, ev, fn);
  const state = this._readableState;
  if (ev === 'data') {
    state.readableListening = this.listenerCount('readable') > 0;
    if (state.flowing !== false) this.resume();
  } else if (ev === 'readable') {
    if (!state.endEmitted && !state.readableListening) {
      state.readableListening = state.needReadable = true;
      state.flowing = false;
      state.emittedReadable = false;
      if (state.length) emitReadable(this);
      else if (!state.reading) process.nextTick(nReadingNextTick, this);
    }
  }
  return res;
};
Readable.prototype.addListener = Readable.prototype.on;

Readable.prototype.removeListener = function (ev, fn) {
  const res = Stream.prototype.removeListener.call(this, ev, fn);
  if (ev === 'readable') process.nextTick(updateReadableListening, this);
  return res;
};
Readable.prototype.off = Readable.prototype.removeListener;

Readable.prototype.removeAllListeners = function (...args) {
  const ev = args[0];
  const res = Stream.prototype.removeAllListeners.apply(this, args);
  if (ev === 'readable' || ev === undefined) process.nextTick(updateReadableListening, this);
  return res;
};

function updateReadableListening(self) {
  const state = self._readableState;
  state.readableListening = self.listenerCount('readable') > 0;
  if (state.resumeScheduled && state[kPaused] === false) state.flowing = true;
  else if (self.listenerCount('data') > 0) self.resume();
  else if (!state.readableListening) state.flowing = null;
}

function nReadingNextTick(self) {
  self.read(0);
}

Readable.prototype.resume = function () {
  const state = this._readableState;
  if (!state.flowing) {
    // Listening for 'readable' keeps the stream paused: data is then read with read().
    state.flowing = !state.readableListening;
    if (!state.resumeScheduled) {
      state.resumeScheduled = true;
      process.nextTick(resumeNT, this, state);
    }
  }
  state[kPaused] = false;
  return this;
};

function resumeNT(stream, state) {
  if (!state.reading) stream.read(0);
  state.resumeScheduled = false;
  stream.emit('resume');
  flow(stream);
  if (state.flowing && !state.reading) stream.read(0);
}

Readable.prototype.pause = function () {
  if (this._readableState.flowing !== false) {
    this._readableState.flowing = false;
    this.emit('pause');
  }
  this._readableState[kPaused] = true;
  return this;
};

function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    process.nextTick(endReadableNT, state, stream);
  }
}

function endReadableNT(state, stream) {
  if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
    state.endEmitted = true;
    stream.emit('end');
    if (stream.writable && stream.allowHalfOpen === false) {
      process.nextTick(endWritableNT, stream);
    } else if (state.autoDestroy) {
      const wState = stream._writableState;
      const autoDestroy = !wState || (wState.autoDestroy && (wState.finished || wState.writable === false));
      if (autoDestroy) stream.destroy();
    }
  }
}

function endWritableNT(stream) {
  const writable = stream.writable && !stream.writableEnded && !stream.destroyed;
  if (writable) stream.end();
}

/** Wraps an old-style stream (events only, no read()) as a Readable. */
Readable.prototype.wrap = function (stream) {
  let paused = false;
  stream.on('data', (chunk) => {
    if (!this.push(chunk) && stream.pause) {
      paused = true;
      stream.pause();
    }
  });
  stream.on('end', () => this.push(null));
  stream.on('error', (err) => destroyImpl.errorOrDestroy(this, err));
  stream.on('close', () => this.destroy());
  stream.on('destroy', () => this.destroy());
  this._read = () => {
    if (paused && stream.resume) {
      paused = false;
      stream.resume();
    }
  };
  for (const key of Object.keys(stream)) {
    if (this[key] === undefined && typeof stream[key] === 'function') this[key] = stream[key].bind(stream);
  }
  return this;
};

Readable.prototype[Symbol.asyncIterator] = function () {
  return require('internal/streams/readable-iterator').createAsyncIterator(this);
};

Readable.prototype.iterator = function (options) {
  return require('internal/streams/readable-iterator').createAsyncIterator(this, options);
};

function defineGetters(props) {
  for (const [name, get] of Object.entries(props)) {
    Object.defineProperty(Readable.prototype, name, { get, enumerable: false, configurable: true });
  }
}

defineGetters({
  readableDidRead() {
    return this._readableState.dataEmitted;
  },
  readableAborted() {
    const r = this._readableState;
    return !!(r.readable !== false && (r.destroyed || r.errored) && !r.endEmitted);
  },
  readableHighWaterMark() {
    return this._readableState.highWaterMark;
  },
  readableBuffer() {
    return this._readableState?.buffer;
  },
  readableLength() {
    return this._readableState.length;
  },
  readableObjectMode() {
    return this._readableState ? this._readableState.objectMode : false;
  },
  readableEncoding() {
    return this._readableState ? this._readableState.encoding : null;
  },
  errored() {
    return this._readableState ? this._readableState.errored : null;
  },
  closed() {
    return this._readableState ? this._readableState.closed : false;
  },
  readableEnded() {
    return this._readableState ? this._readableState.endEmitted : false;
  },
});

Object.defineProperties(Readable.prototype, {
  readable: {
    get() {
      const r = this._readableState;
      return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted;
    },
    set(val) {
      if (this._readableState) this._readableState.readable = !!val;
    },
    configurable: true,
  },
  readableFlowing: {
    get() {
      return this._readableState.flowing;
    },
    set(state) {
      if (this._readableState) this._readableState.flowing = state;
    },
    configurable: true,
  },
  destroyed: {
    get() {
      return this._readableState ? this._readableState.destroyed : false;
    },
    set(value) {
      if (this._readableState) this._readableState.destroyed = value;
    },
    configurable: true,
  },
});

Readable.from = (iterable, opts) => require('internal/streams/from')(Readable, iterable, opts);

Readable.getDefaultHighWaterMark = getDefaultHighWaterMark;

module.exports = Readable;
