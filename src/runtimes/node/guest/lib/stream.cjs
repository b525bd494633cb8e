'use strict';
// node:stream — Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished,
// addAbortSignal and the helpers Node exports with them. `require('stream')` is the legacy Stream
// class itself, as in Node.
const { Stream } = require('internal/streams/legacy');
const Readable = require('internal/streams/readable');
const Writable = require('internal/streams/writable');
const Duplex = require('internal/streams/duplex');
const { Transform, PassThrough } = require('internal/streams/transform');
const { pipeline } = require('internal/streams/pipeline');
const eos = require('internal/streams/end-of-stream');
const { addAbortSignal } = require('internal/streams/add-abort-signal');
const destroyImpl = require('internal/streams/destroy');
const utils = require('internal/streams/utils');

require('internal/streams/operators').install(Readable);

Stream.Stream = Stream;
Stream.Readable = Readable;
Stream.Writable = Writable;
Stream.Duplex = Duplex;
Stream.Transform = Transform;
Stream.PassThrough = PassThrough;
Stream.pipeline = pipeline;
Stream.finished = eos;
Stream.addAbortSignal = addAbortSignal;
Stream.destroy = destroyImpl.destroyer;
Stream.isDisturbed = utils.isDisturbed;
Stream.isErrored = utils.isErrored;
Stream.isReadable = utils.isReadable;
Stream.isWritable = utils.isWritable;
Stream.isDestroyed = utils.isDestroyed;
Stream.getDefaultHighWaterMark = utils.getDefaultHighWaterMark;
Stream.setDefaultHighWaterMark = utils.setDefaultHighWaterMark;
Stream._isUint8Array = (value) => value instanceof Uint8Array;
Stream._uint8ArrayToBuffer = (chunk) =>
  require('buffer').Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

let promises;
Object.defineProperty(Stream, 'promises', {
  configurable: true,
  enumerable: true,
  get() {
    promises ??= require('node:stream/promises');
    return promises;
  },
});
Object.defineProperty(pipeline, Symbol.for('nodejs.util.promisify.custom'), {
  enumerable: true,
  get() {
    return require('node:stream/promises').pipeline;
  },
});
Object.defineProperty(eos, Symbol.for('nodejs.util.promisify.custom'), {
  enumerable: true,
  get() {
    return require('node:stream/promises').finished;
  },
});

module.exports = Stream;
