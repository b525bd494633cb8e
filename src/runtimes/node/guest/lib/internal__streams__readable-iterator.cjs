'use strict';
// `for await (const chunk of readable)`: reads in paused mode ('readable' + read()), ends at 'end',
// throws the stream's error, and destroys the stream when the loop leaves early (unless
// `destroyOnReturn: false`).
const destroyImpl = require('internal/streams/destroy');
const eos = require('internal/streams/end-of-stream');
const { nop, aggregateTwoErrors } = require('internal/streams/utils');

async function* createAsyncIterator(stream, options) {
  let callback = nop;
  function next(resolve) {
    if (this === stream) {
      callback();
      callback = nop;
    } else {
      callback = resolve;
    }
  }
  stream.on('readable', next);
  let error;
  const cleanup = eos(stream, { writable: false }, (err) => {
    error = err ? aggregateTwoErrors(error, err) : null;
    callback();
    callback = nop;
  });
  try {
    while (true) {
      const chunk = stream.destroyed ? null : stream.read();
      if (chunk !== null) yield chunk;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise(next);
    }
  } catch (err) {
    error = aggregateTwoErrors(error, err);
    throw error;
  } finally {
    if (
      (error || options?.destroyOnReturn !== false) &&
      (error === undefined || stream._readableState.autoDestroy)
    ) {
      destroyImpl.destroyer(stream, null);
    } else {
      stream.off('readable', next);
      cleanup();
    }
  }
}

module.exports = { createAsyncIterator };
