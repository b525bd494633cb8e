'use strict';
// Shared pieces of the stream implementation: the stream errors Node raises, state predicates
// (is this readable, finished, closed…), high-water marks, and small helpers.
const { makeNodeError, codes } = require('internal/errors');

const kDestroy = Symbol('kDestroy');
const kConstruct = Symbol('kConstruct');
const kOnFinished = Symbol('kOnFinished');
const kPaused = Symbol('kPaused');
const kIsDestroyed = Symbol.for('nodejs.stream.destroyed');

function nop() {}

function once(fn) {
  let called = false;
  return function (...args) {
    if (called) return;
    called = true;
    return fn.apply(this, args);
  };
}

/** The stream errors, with Node's codes and messages (`new` not needed). */
const errors = {
  ERR_STREAM_PUSH_AFTER_EOF: () =>
    makeNodeError(Error, 'ERR_STREAM_PUSH_AFTER_EOF', 'stream.push() after EOF'),
  ERR_STREAM_UNSHIFT_AFTER_END_EVENT: () =>
    makeNodeError(Error, 'ERR_STREAM_UNSHIFT_AFTER_END_EVENT', 'stream.unshift() after end event'),
  ERR_STREAM_WRITE_AFTER_END: () => makeNodeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end'),
  ERR_STREAM_DESTROYED: (name) =>
    makeNodeError(Error, 'ERR_STREAM_DESTROYED', `Cannot call ${name} after a stream was destroyed`),
  ERR_STREAM_NULL_VALUES: () =>
    makeNodeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream'),
  ERR_STREAM_ALREADY_FINISHED: (name) =>
    makeNodeError(Error, 'ERR_STREAM_ALREADY_FINISHED', `Cannot call ${name} after a stream was finished`),
  ERR_STREAM_PREMATURE_CLOSE: () => makeNodeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close'),
  ERR_MULTIPLE_CALLBACK: () =>
    makeNodeError(Error, 'ERR_MULTIPLE_CALLBACK', 'Callback called multiple times'),
  ERR_STREAM_CANNOT_PIPE: () => makeNodeError(Error, 'ERR_STREAM_CANNOT_PIPE', 'Cannot pipe, not readable'),
  ERR_METHOD_NOT_IMPLEMENTED: (name) => codes.ERR_METHOD_NOT_IMPLEMENTED(name),
  ERR_INVALID_ARG_TYPE: (...args) => codes.ERR_INVALID_ARG_TYPE(...args),
  ERR_INVALID_ARG_VALUE: (...args) => codes.ERR_INVALID_ARG_VALUE(...args),
  ERR_INVALID_RETURN_VALUE: (...args) => codes.ERR_INVALID_RETURN_VALUE(...args),
  ERR_MISSING_ARGS: (...args) => codes.ERR_MISSING_ARGS(...args),
  ERR_UNKNOWN_ENCODING: (enc) => codes.ERR_UNKNOWN_ENCODING(enc),
  ERR_OUT_OF_RANGE: (...args) => codes.ERR_OUT_OF_RANGE(...args),
};

/** Two errors as one: the first, or an AggregateError-like pair when both exist and differ. */
function aggregateTwoErrors(inner, outer) {
  if (inner && outer && inner !== outer) {
    if (Array.isArray(outer.errors)) {
      outer.errors.push(inner);
      return outer;
    }
    const err = new AggregateError([outer, inner], outer.message);
    err.code = outer.code;
    return err;
  }
  return inner || outer;
}

// Node 22 raised the default byte high-water mark to 64 KiB (objects stay at 16).
let defaultHighWaterMarkBytes = 64 * 1024;
let defaultHighWaterMarkObjects = 16;

function getDefaultHighWaterMark(objectMode) {
  return objectMode ? defaultHighWaterMarkObjects : defaultHighWaterMarkBytes;
}

function setDefaultHighWaterMark(objectMode, value) {
  if (!Number.isInteger(value) || value < 0) throw errors.ERR_INVALID_ARG_VALUE('value', value);
  if (objectMode) defaultHighWaterMarkObjects = value;
  else defaultHighWaterMarkBytes = value;
}

/** The high-water mark an options object asks for (`duplexKey` for one side of a Duplex). */
function getHighWaterMark(state, options, duplexKey, isDuplex) {
  const hwm = options.highWaterMark != null ? options.highWaterMark : isDuplex ? options[duplexKey] : null;
  if (hwm != null) {
    if (!Number.isInteger(hwm) || hwm < 0) {
      const name = isDuplex ? `options.${duplexKey}` : 'options.highWaterMark';
      throw errors.ERR_INVALID_ARG_VALUE(name, hwm);
    }
    return Math.floor(hwm);
  }
  return getDefaultHighWaterMark(state.objectMode);
}

function isReadableNodeStream(obj, strict = false) {
  return !!(
    obj &&
    typeof obj.pipe === 'function' &&
    typeof obj.on === 'function' &&
    (!strict || (typeof obj.pause === 'function' && typeof obj.resume === 'function')) &&
    (!obj._writableState || obj._readableState?.readable !== false) &&
    (!obj._writableState || obj._readableState)
  );
}

function isWritableNodeStream(obj) {
  return !!(
    obj &&
    typeof obj.write === 'function' &&
    typeof obj.on === 'function' &&
    (!obj._readableState || obj._writableState?.writable !== false)
  );
}

function isNodeStream(obj) {
  return !!(
    obj &&
    (obj._readableState ||
      obj._writableState ||
      (typeof obj.write === 'function' && typeof obj.on === 'function') ||
      (typeof obj.pipe === 'function' && typeof obj.on === 'function'))
  );
}

function isIterable(obj, isAsync) {
  if (obj == null) return false;
  if (isAsync === true) return typeof obj[Symbol.asyncIterator] === 'function';
  if (isAsync === false) return typeof obj[Symbol.iterator] === 'function';
  return typeof obj[Symbol.asyncIterator] === 'function' || typeof obj[Symbol.iterator] === 'function';
}

function isDestroyed(stream) {
  if (!isNodeStream(stream)) return null;
  const state = stream._writableState || stream._readableState;
  return !!(stream.destroyed || stream[kIsDestroyed] || state?.destroyed);
}

function isWritableEnded(stream) {
  if (!isWritableNodeStream(stream)) return null;
  if (stream.writableEnded === true) return true;
  const w = stream._writableState;
  if (w?.errored) return false;
  if (typeof w?.ended !== 'boolean') return null;
  return w.ended;
}

function isWritableFinished(stream, strict) {
  if (!isWritableNodeStream(stream)) return null;
  if (stream.writableFinished === true) return true;
  const w = stream._writableState;
  if (w?.errored) return false;
  if (typeof w?.finished !== 'boolean') return null;
  return !!(w.finished || (strict === false && w.ended === true && w.length === 0));
}

function isReadableFinished(stream, strict) {
  if (!isReadableNodeStream(stream)) return null;
  const r = stream._readableState;
  if (r?.errored) return false;
  if (typeof r?.endEmitted !== 'boolean') return null;
  return !!(r.endEmitted || (strict === false && r.ended === true && r.length === 0));
}

function isReadable(stream) {
  if (typeof stream?.readable !== 'boolean') return null;
  if (isDestroyed(stream)) return false;
  return isReadableNodeStream(stream) && stream.readable && !isReadableFinished(stream);
}

function isWritable(stream) {
  if (typeof stream?.writable !== 'boolean') return null;
  if (isDestroyed(stream)) return false;
  return isWritableNodeStream(stream) && stream.writable && !isWritableEnded(stream);
}

function isReadableErrored(stream) {
  if (!isNodeStream(stream)) return null;
  if (typeof stream.readableErrored !== 'undefined') return stream.readableErrored;
  return stream._readableState?.errored ?? null;
}

function isWritableErrored(stream) {
  if (!isNodeStream(stream)) return null;
  if (typeof stream.writableErrored !== 'undefined') return stream.writableErrored;
  return stream._writableState?.errored ?? null;
}

function isErrored(stream) {
  return !!(
    stream &&
    (stream.readableErrored ??
      stream.writableErrored ??
      stream._readableState?.errorEmitted ??
      stream._writableState?.errorEmitted ??
      stream._readableState?.errored ??
      stream._writableState?.errored)
  );
}

function isClosed(stream) {
  if (!isNodeStream(stream)) return null;
  const w = stream._writableState;
  const r = stream._readableState;
  if (typeof w?.closed === 'boolean' || typeof r?.closed === 'boolean') return w?.closed || r?.closed;
  if (typeof stream.closed === 'boolean') return stream.closed;
  return null;
}

/** True when the stream will emit 'close' by itself (auto-destroy with emitClose, not closed yet). */
function willEmitClose(stream) {
  if (!isNodeStream(stream)) return null;
  const state = stream._writableState || stream._readableState;
  return !!(state?.autoDestroy && state.emitClose && state.closed === false);
}

function isDisturbed(stream) {
  return !!(
    stream &&
    (stream._readableState?.dataEmitted || stream._readableState?.reading || stream.readableDidRead)
  );
}

module.exports = {
  kDestroy,
  kConstruct,
  kOnFinished,
  kPaused,
  kIsDestroyed,
  nop,
  once,
  errors,
  aggregateTwoErrors,
  getDefaultHighWaterMark,
  setDefaultHighWaterMark,
  getHighWaterMark,
  isReadableNodeStream,
  isWritableNodeStream,
  isNodeStream,
  isIterable,
  isDestroyed,
  isWritableEnded,
  isWritableFinished,
  isReadableFinished,
  isReadable,
  isWritable,
  isReadableErrored,
  isWritableErrored,
  isErrored,
  isClosed,
  willEmitClose,
  isDisturbed,
};
