'use strict';
// stream.pipeline(source, ...transforms, destination, callback): pipes the streams together,
// destroys all of them when one fails, and calls back once with the first error (or none) after the
// destination has finished. Stages may also be iterables (the source), async generator functions
// (`async function* (source) { … }`) as transforms, and an async function as the destination; its
// result is the callback's second argument.
const { AbortError, codes } = require('internal/errors');
const eos = require('internal/streams/end-of-stream');
const destroyImpl = require('internal/streams/destroy');
const {
  errors,
  aggregateTwoErrors,
  isIterable,
  isNodeStream,
  isReadableNodeStream,
  isReadable,
  isReadableFinished,
} = require('internal/streams/utils');

function popCallback(streams) {
  const last = streams[streams.length - 1];
  if (typeof last !== 'function')
    throw codes.ERR_INVALID_ARG_TYPE('streams[stream.length - 1]', 'Function', last);
  return streams.pop();
}

function makeAsyncIterable(val) {
  if (isIterable(val)) return val;
  if (isReadableNodeStream(val)) return fromReadable(val);
  throw codes.ERR_INVALID_ARG_TYPE('val', ['Readable', 'Iterable', 'AsyncIterable'], val);
}

async function* fromReadable(val) {
  yield* require('internal/streams/readable').prototype[Symbol.asyncIterator].call(val);
}

/** Writes an iterable into a Node writable, waiting for 'drain'; `finish(err?)` when done. */
async function pumpToNode(iterable, writable, finish, { end }) {
  let error;
  let onresolve = null;
  const resume = (err) => {
    if (err) error = err;
    if (onresolve) {
      const callback = onresolve;
      onresolve = null;
      callback();
    }
  };
  const wait = () =>
    new Promise((resolve, reject) => {
      if (error) {
        reject(error);
      } else {
        onresolve = () => {
          if (error) reject(error);
          else resolve();
        };
      }
    });
  writable.on('drain', resume);
  const cleanup = eos(writable, { readable: false }, resume);
  try {
    if (writable.writableNeedDrain) await wait();
    for await (const chunk of iterable) {
      if (!writable.write(chunk)) await wait();
    }
    if (end) {
      writable.end();
      await wait();
    }
    finish();
  } catch (err) {
    finish(error !== err ? aggregateTwoErrors(error, err) : err);
  } finally {
    cleanup();
    writable.off('drain', resume);
  }
}

function pipeline(...streams) {
  return pipelineImpl(streams, once(popCallback(streams)));
}

function once(fn) {
  let called = false;
  return (...args) => {
    if (called) return;
    called = true;
    fn(...args);
  };
}

function pipelineImpl(streams, callback, opts) {
  if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
  if (streams.length < 2) throw codes.ERR_MISSING_ARGS('streams');

  const ac = typeof AbortController === 'function' ? new AbortController() : null;
  const signal = ac?.signal;
  const outerSignal = opts?.signal;
  const lastStreamCleanup = [];

  function abort() {
    finishImpl(new AbortError(undefined, { cause: outerSignal?.reason }));
  }
  if (outerSignal) {
    if (outerSignal.aborted) process.nextTick(abort);
    else outerSignal.addEventListener('abort', abort, { once: true });
  }

  let error;
  let value;
  const destroys = [];
  let finishCount = 0;

  function finish(err) {
    finishImpl(err, --finishCount === 0);
  }

  function finishImpl(err, final) {
    if (err && (!error || error.code === 'ERR_STREAM_PREMATURE_CLOSE')) error = err;
    if (!error && !final) return;
    while (destroys.length) destroys.shift()(error);
    outerSignal?.removeEventListener('abort', abort);
    ac?.abort();
    if (final) {
      if (!error) for (const fn of lastStreamCleanup) fn();
      process.nextTick(callback, error, value);
    }
  }

  let ret;
  for (let i = 0; i < streams.length; i++) {
    const stream = streams[i];
    const reading = i < streams.length - 1;
    const writing = i > 0;
    const end = reading || opts?.end !== false;
    const isLastStream = i === streams.length - 1;

    if (isNodeStream(stream)) {
      if (end) {
        const { destroy, cleanup } = destroyer(stream, reading, writing);
        destroys.push(destroy);
        if (isReadable(stream) && isLastStream) lastStreamCleanup.push(cleanup);
      }
      // Errors are reported through the callback; keep them from becoming uncaught.
      const onError = (err) => {
        if (err && err.name !== 'AbortError' && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') finish(err);
      };
      stream.on('error', onError);
      if (isReadable(stream) && isLastStream)
        lastStreamCleanup.push(() => stream.removeListener('error', onError));
    }

    if (i === 0) {
      if (typeof stream === 'function') {
        ret = stream({ signal });
        if (!isIterable(ret))
          throw codes.ERR_INVALID_RETURN_VALUE('Iterable, AsyncIterable or Stream', 'source', ret);
      } else if (isIterable(stream) || isReadableNodeStream(stream)) {
        ret = stream;
      } else {
        throw codes.ERR_INVALID_ARG_TYPE(
          'source',
          ['Stream', 'Iterable', 'AsyncIterable', 'Function'],
          stream,
        );
      }
    } else if (typeof stream === 'function') {
      ret = makeAsyncIterable(ret);
      ret = stream(ret, { signal });
      if (reading) {
        if (!isIterable(ret, true))
          throw codes.ERR_INVALID_RETURN_VALUE('AsyncIterable', `transform[${i - 1}]`, ret);
      } else {
        // The destination is a function: its promise (or iterable) ends the pipeline.
        const { PassThrough } = require('internal/streams/transform');
        const pt = new PassThrough({ objectMode: true });
        const then = ret?.then;
        if (typeof then === 'function') {
          finishCount++;
          then.call(
            ret,
            (val) => {
              value = val;
              if (val != null) pt.write(val);
              if (end) pt.end();
              process.nextTick(finish);
            },
            (err) => {
              pt.destroy(err);
              process.nextTick(finish, err);
            },
          );
        } else if (isIterable(ret, true)) {
          finishCount++;
          pumpToNode(ret, pt, finish, { end });
        } else {
          throw codes.ERR_INVALID_RETURN_VALUE('AsyncIterable or Promise', 'destination', ret);
        }
        ret = pt;
        const { destroy, cleanup } = destroyer(ret, false, true);
        destroys.push(destroy);
        if (isLastStream) lastStreamCleanup.push(cleanup);
      }
    } else if (isNodeStream(stream)) {
      if (isReadableNodeStream(ret)) {
        finishCount += 2;
        const cleanup = pipe(ret, stream, finish, { end });
        if (isReadable(stream) && isLastStream) lastStreamCleanup.push(cleanup);
      } else if (isIterable(ret)) {
        finishCount++;
        pumpToNode(ret, stream, finish, { end });
      } else {
        throw codes.ERR_INVALID_ARG_TYPE('val', ['Readable', 'Iterable', 'AsyncIterable'], ret);
      }
      ret = stream;
    } else {
      throw codes.ERR_INVALID_ARG_TYPE(`streams[${i}]`, ['Stream', 'Function'], stream);
    }
  }

  if (signal?.aborted || outerSignal?.aborted) process.nextTick(abort);
  return ret;
}

function pipe(src, dst, finish, { end }) {
  let ended = false;
  dst.on('close', () => {
    if (!ended) finish(errors.ERR_STREAM_PREMATURE_CLOSE());
  });
  src.pipe(dst, { end: false });
  if (end) {
    const endFn = () => {
      ended = true;
      dst.end();
    };
    if (isReadableFinished(src)) process.nextTick(endFn);
    else src.once('end', endFn);
    eos(src, { readable: true, writable: false }, (err) => {
      const rState = src._readableState;
      if (
        err &&
        err.code === 'ERR_STREAM_PREMATURE_CLOSE' &&
        rState?.ended &&
        !rState.errored &&
        !rState.errorEmitted
      ) {
        // The source ended and then closed: wait for 'end' (or an error) before finishing.
        src.once('end', finish).once('error', finish);
      } else {
        finish(err);
      }
    });
  } else {
    finish();
  }
  return eos(dst, { readable: false, writable: true }, finish);
}

function destroyer(stream, reading, writing) {
  let finished = false;
  stream.on('close', () => {
    finished = true;
  });
  const cleanup = eos(stream, { readable: reading, writable: writing }, (err) => {
    finished = !err;
  });
  return {
    destroy: (err) => {
      if (finished) return;
      finished = true;
      destroyImpl.destroyer(stream, err || errors.ERR_STREAM_DESTROYED('pipe'));
    },
    cleanup,
  };
}

/** stream/promises pipeline(...streams[, { signal, end }]). */
function pipelinePromise(...streams) {
  return new Promise((resolve, reject) => {
    let signal;
    let end;
    const lastArg = streams[streams.length - 1];
    if (lastArg && typeof lastArg === 'object' && !isNodeStream(lastArg) && !isIterable(lastArg)) {
      const options = streams.pop();
      signal = options.signal;
      end = options.end;
    }
    pipelineImpl(
      streams,
      (err, value) => {
        if (err) reject(err);
        else resolve(value);
      },
      { signal, end },
    );
  });
}

module.exports = { pipeline, pipelineImpl, pipelinePromise };
