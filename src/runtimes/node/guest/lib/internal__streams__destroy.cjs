'use strict';
// Destroying streams and reporting their errors: destroy() (then _destroy, then 'error' and 'close'
// on a later tick), errorOrDestroy() for errors found while working, and the _construct() step that
// holds a stream back until it is ready.
const { AbortError } = require('internal/errors');
const {
  kDestroy,
  kConstruct,
  kIsDestroyed,
  errors,
  aggregateTwoErrors,
  isDestroyed,
  isReadable,
  isWritable,
} = require('internal/streams/utils');

function recordError(err, w, r) {
  if (!err) return;
  if (w && !w.errored) w.errored = err;
  if (r && !r.errored) r.errored = err;
}

/** stream.destroy([err][, cb]) for Readable, Writable and Duplex. */
function destroy(err, cb) {
  const r = this._readableState;
  const w = this._writableState;
  const s = w || r;
  if (w?.destroyed || r?.destroyed) {
    if (typeof cb === 'function') cb();
    return this;
  }
  recordError(err, w, r);
  if (w) w.destroyed = true;
  if (r) r.destroyed = true;
  if (!s.constructed) {
    this.once(kDestroy, function (er) {
      runDestroy(this, aggregateTwoErrors(er, err), cb);
    });
  } else {
    runDestroy(this, err, cb);
  }
  return this;
}

function runDestroy(self, err, cb) {
  let called = false;
  function onDestroy(err) {
    if (called) return;
    called = true;
    const r = self._readableState;
    const w = self._writableState;
    recordError(err, w, r);
    if (w) w.closed = true;
    if (r) r.closed = true;
    if (typeof cb === 'function') cb(err);
    if (err) process.nextTick(emitErrorCloseNT, self, err);
    else process.nextTick(emitCloseNT, self);
  }
  try {
    self._destroy(err || null, onDestroy);
  } catch (e) {
    onDestroy(e);
  }
}

function emitErrorCloseNT(self, err) {
  emitErrorNT(self, err);
  emitCloseNT(self);
}

function emitCloseNT(self) {
  const r = self._readableState;
  const w = self._writableState;
  if (w) w.closeEmitted = true;
  if (r) r.closeEmitted = true;
  if (w?.emitClose || r?.emitClose) self.emit('close');
}

function emitErrorNT(self, err) {
  const r = self._readableState;
  const w = self._writableState;
  if (w?.errorEmitted || r?.errorEmitted) return;
  if (w) w.errorEmitted = true;
  if (r) r.errorEmitted = true;
  self.emit('error', err);
}

/** Puts a destroyed stream back in its initial state (Node's undocumented undestroy()). */
function undestroy() {
  const r = this._readableState;
  const w = this._writableState;
  if (r) {
    r.constructed = true;
    r.closed = false;
    r.closeEmitted = false;
    r.destroyed = false;
    r.errored = null;
    r.errorEmitted = false;
    r.reading = false;
    r.ended = r.readable === false;
    r.endEmitted = r.readable === false;
  }
  if (w) {
    w.constructed = true;
    w.destroyed = false;
    w.closed = false;
    w.closeEmitted = false;
    w.errored = null;
    w.errorEmitted = false;
    w.finalCalled = false;
    w.prefinished = false;
    w.ended = w.writable === false;
    w.ending = w.writable === false;
    w.finished = w.writable === false;
  }
}

/**
 * An error found while the stream works: destroys it when it auto-destroys, else records the error and
 * emits 'error' (now, or on the next tick when `sync`).
 */
function errorOrDestroy(stream, err, sync) {
  const r = stream._readableState;
  const w = stream._writableState;
  if (w?.destroyed || r?.destroyed) return;
  if (r?.autoDestroy || w?.autoDestroy) {
    stream.destroy(err);
  } else if (err) {
    recordError(err, w, r);
    if (sync) process.nextTick(emitErrorNT, stream, err);
    else emitErrorNT(stream, err);
  }
}

/** Runs stream._construct (if any) on the next tick; `cb` runs once it has succeeded. */
function construct(stream, cb) {
  if (typeof stream._construct !== 'function') return;
  const r = stream._readableState;
  const w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  stream.once(kConstruct, cb);
  if (stream.listenerCount(kConstruct) > 1) return; // a Duplex constructs once
  process.nextTick(constructNT, stream);
}

function constructNT(stream) {
  let called = false;
  function onConstruct(err) {
    if (called) {
      errorOrDestroy(stream, err ?? errors.ERR_MULTIPLE_CALLBACK());
      return;
    }
    called = true;
    const r = stream._readableState;
    const w = stream._writableState;
    const s = w || r;
    if (r) r.constructed = true;
    if (w) w.constructed = true;
    if (s.destroyed) stream.emit(kDestroy, err);
    else if (err) errorOrDestroy(stream, err, true);
    else stream.emit(kConstruct);
  }
  try {
    stream._construct((err) => process.nextTick(onConstruct, err));
  } catch (err) {
    process.nextTick(onConstruct, err);
  }
}

function isFinished(stream) {
  if (isDestroyed(stream)) return true;
  if (isReadable(stream)) return false;
  if (isWritable(stream)) return false;
  return true;
}

/** Destroys anything stream-like (pipeline and the async iterator use it); unfinished → AbortError. */
function destroyer(stream, err) {
  if (!stream || isDestroyed(stream)) return;
  if (!err && !isFinished(stream)) err = new AbortError();
  if (typeof stream.destroy === 'function') stream.destroy(err);
  else if (typeof stream.close === 'function') stream.close();
  else if (err) process.nextTick(() => stream.emit('error', err));
  else process.nextTick(() => stream.emit('close'));
  if (!stream.destroyed) stream[kIsDestroyed] = true;
}

module.exports = { destroy, undestroy, errorOrDestroy, construct, destroyer };
