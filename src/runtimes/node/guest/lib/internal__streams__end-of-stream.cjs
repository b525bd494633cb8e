'use strict';
// stream.finished(stream[, options], callback): calls back once a stream is done — ended (readable),
// finished (writable), errored, or closed early (ERR_STREAM_PREMATURE_CLOSE). Returns a function
// that removes its listeners.
const { AbortError, codes } = require('internal/errors');
const {
  nop,
  once,
  errors,
  isNodeStream,
  isReadableNodeStream,
  isWritableNodeStream,
  isReadableFinished,
  isWritableFinished,
  isReadableErrored,
  isWritableErrored,
  isReadable,
  isWritable,
  isClosed,
  willEmitClose: streamWillEmitClose,
} = require('internal/streams/utils');

function eos(stream, options, ...rest) {
  let callback = rest[0];
  if (rest.length === 0) {
    callback = options;
    options = {};
  } else if (options == null) {
    options = {};
  } else if (typeof options !== 'object') {
    throw codes.ERR_INVALID_ARG_TYPE('options', 'Object', options);
  }
  if (typeof callback !== 'function') throw codes.ERR_INVALID_ARG_TYPE('callback', 'Function', callback);
  if (!isNodeStream(stream)) {
    throw codes.ERR_INVALID_ARG_TYPE('stream', ['ReadableStream', 'WritableStream', 'Stream'], stream);
  }
  callback = once(callback);

  const readable = options.readable ?? isReadableNodeStream(stream);
  const writable = options.writable ?? isWritableNodeStream(stream);
  const wState = stream._writableState;
  const rState = stream._readableState;

  const onlegacyfinish = () => {
    if (!stream.writable) onfinish();
  };

  let willEmitClose =
    streamWillEmitClose(stream) &&
    isReadableNodeStream(stream) === readable &&
    isWritableNodeStream(stream) === writable;

  let writableFinished = isWritableFinished(stream, false);
  const onfinish = () => {
    writableFinished = true;
    if (stream.destroyed) willEmitClose = false;
    if (willEmitClose && (!stream.readable || readable)) return;
    if (!readable || readableFinished) callback.call(stream);
  };

  let readableFinished = isReadableFinished(stream, false);
  const onend = () => {
    readableFinished = true;
    if (stream.destroyed) willEmitClose = false;
    if (willEmitClose && (!stream.writable || writable)) return;
    if (!writable || writableFinished) callback.call(stream);
  };

  const onerror = (err) => {
    callback.call(stream, err);
  };

  let closed = isClosed(stream);

  const onclose = () => {
    closed = true;
    const errored = isWritableErrored(stream) || isReadableErrored(stream);
    if (errored && typeof errored !== 'boolean') return callback.call(stream, errored);
    if (readable && !readableFinished && isReadableNodeStream(stream, true)) {
      if (!isReadableFinished(stream, false))
        return callback.call(stream, errors.ERR_STREAM_PREMATURE_CLOSE());
    }
    if (writable && !writableFinished) {
      if (!isWritableFinished(stream, false))
        return callback.call(stream, errors.ERR_STREAM_PREMATURE_CLOSE());
    }
    callback.call(stream);
  };

  const onclosed = () => {
    closed = true;
    const errored = isWritableErrored(stream) || isReadableErrored(stream);
    if (errored && typeof errored !== 'boolean') return callback.call(stream, errored);
    callback.call(stream);
  };

  if (writable && !wState) {
    // A legacy writable (no _writableState): 'end' or 'close' with `writable` false means done.
    stream.on('end', onlegacyfinish);
    stream.on('close', onlegacyfinish);
  }
  if (!willEmitClose && typeof stream.aborted === 'boolean') stream.on('aborted', onclose);
  stream.on('end', onend);
  stream.on('finish', onfinish);
  if (options.error !== false) stream.on('error', onerror);
  stream.on('close', onclose);

  if (closed) {
    process.nextTick(onclose);
  } else if (wState?.errorEmitted || rState?.errorEmitted) {
    if (!willEmitClose) process.nextTick(onclosed);
  } else if (
    !readable &&
    (!willEmitClose || isReadable(stream)) &&
    (writableFinished || isWritable(stream) === false)
  ) {
    process.nextTick(onclosed);
  } else if (
    !writable &&
    (!willEmitClose || isWritable(stream)) &&
    (readableFinished || isReadable(stream) === false)
  ) {
    process.nextTick(onclosed);
  }

  const cleanup = () => {
    callback = nop;
    stream.removeListener('aborted', onclose);
    stream.removeListener('end', onlegacyfinish);
    stream.removeListener('close', onlegacyfinish);
    stream.removeListener('end', onend);
    stream.removeListener('finish', onfinish);
    stream.removeListener('error', onerror);
    stream.removeListener('close', onclose);
  };

  if (options.signal && !closed) {
    const abort = () => {
      const endCallback = callback;
      cleanup();
      endCallback.call(stream, new AbortError(undefined, { cause: options.signal.reason }));
    };
    if (options.signal.aborted) {
      process.nextTick(abort);
    } else {
      options.signal.addEventListener('abort', abort, { once: true });
      const originalCallback = callback;
      callback = once((...args) => {
        options.signal.removeEventListener('abort', abort);
        originalCallback.apply(stream, args);
      });
    }
  }

  return cleanup;
}

/** finished() as a promise (stream/promises). */
function finishedPromise(stream, options) {
  let autoCleanup = false;
  if (options?.cleanup) autoCleanup = true;
  return new Promise((resolve, reject) => {
    const cleanup = eos(stream, options, (err) => {
      if (autoCleanup) cleanup();
      if (err) reject(err);
      else resolve();
    });
  });
}

eos.finished = finishedPromise;
module.exports = eos;
