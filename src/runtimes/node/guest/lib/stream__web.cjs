'use strict';
// stream/web: the WHATWG stream classes. This runtime has no web streams yet: requiring the module
// works (packages import it at the top), and constructing a class says to use node:stream instead.
// Should the globals gain them (globalThis.ReadableStream…), they are what this module exports.
const { unsupportedModule } = require('internal/unsupported');

const CLASSES = [
  'ReadableStream',
  'ReadableStreamDefaultReader',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableByteStreamController',
  'ReadableStreamDefaultController',
  'TransformStream',
  'TransformStreamDefaultController',
  'WritableStream',
  'WritableStreamDefaultWriter',
  'WritableStreamDefaultController',
  'ByteLengthQueuingStrategy',
  'CountQueuingStrategy',
  'TextEncoderStream',
  'TextDecoderStream',
  'CompressionStream',
  'DecompressionStream',
];

if (typeof globalThis.ReadableStream === 'function') {
  module.exports = Object.fromEntries(
    CLASSES.filter((name) => name in globalThis).map((name) => [name, globalThis[name]]),
  );
} else {
  module.exports = unsupportedModule(
    'stream/web',
    'web streams are not implemented in this runtime; use node:stream (Readable, Writable, Transform)',
    [],
    CLASSES,
  );
}
