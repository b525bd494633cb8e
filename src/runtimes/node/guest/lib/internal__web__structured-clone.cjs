'use strict';
// structuredClone (HTML structured serialization) for data: primitives, boxed primitives, Date,
// RegExp, ArrayBuffer and its views, Map, Set, Error types, arrays and plain objects (own enumerable
// string keys; prototypes are not kept), with shared and circular references preserved. Functions,
// symbols, WeakMaps, Promises and other host objects throw a DataCloneError DOMException, as in Node.
// `transfer` is accepted for ArrayBuffers: the original is detached when the engine can do it.

const types = require('node:util/types');
const { makeNodeError } = require('internal/errors');

const ERROR_TYPES = new Set([
  'Error',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
]);

function describeValue(value) {
  if (typeof value === 'function') return Function.prototype.toString.call(value);
  if (typeof value === 'symbol') return String(value);
  const name = value?.constructor?.name;
  return `#<${typeof name === 'string' && name !== '' ? name : 'Object'}>`;
}

function cloneError(value) {
  return new DOMException(`${describeValue(value)} could not be cloned.`, 'DataCloneError');
}

function cloneBuffer(buffer, memory) {
  if (memory.has(buffer)) return memory.get(buffer);
  const copy = buffer.slice(0);
  memory.set(buffer, copy);
  return copy;
}

function cloneInto(value, memory) {
  if (typeof value === 'symbol' || typeof value === 'function') throw cloneError(value);
  if (value === null || typeof value !== 'object') return value;
  if (memory.has(value)) return memory.get(value);
  let copy;
  if (types.isBoxedPrimitive(value)) {
    if (types.isSymbolObject(value)) throw cloneError(value);
    copy = Object(value.valueOf());
  } else if (types.isDate(value)) {
    copy = new Date(value.getTime());
  } else if (types.isRegExp(value)) {
    copy = new RegExp(value.source, value.flags);
  } else if (types.isArrayBuffer(value)) {
    copy = cloneBuffer(value, memory);
  } else if (types.isSharedArrayBuffer(value)) {
    copy = value;
  } else if (types.isDataView(value)) {
    copy = new DataView(cloneInto(value.buffer, memory), value.byteOffset, value.byteLength);
  } else if (types.isTypedArray(value)) {
    const Ctor = globalThis[types.typedArrayName(value)];
    copy = new Ctor(cloneInto(value.buffer, memory), value.byteOffset, value.length);
  } else if (types.isMap(value)) {
    copy = new Map();
    memory.set(value, copy);
    for (const [k, v] of value) copy.set(cloneInto(k, memory), cloneInto(v, memory));
    return copy;
  } else if (types.isSet(value)) {
    copy = new Set();
    memory.set(value, copy);
    for (const v of value) copy.add(cloneInto(v, memory));
    return copy;
  } else if (types.isNativeError(value)) {
    const name = ERROR_TYPES.has(value.name) ? value.name : 'Error';
    copy = new globalThis[name](value.message);
    memory.set(value, copy);
    if (typeof value.stack === 'string') {
      Object.defineProperty(copy, 'stack', { value: value.stack, writable: true, configurable: true });
    }
    if ('cause' in value) {
      Object.defineProperty(copy, 'cause', {
        value: cloneInto(value.cause, memory),
        writable: true,
        configurable: true,
      });
    }
    return copy;
  } else if (Array.isArray(value)) {
    copy = new Array(value.length);
    memory.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = cloneInto(value[key], memory);
    return copy;
  } else if (
    types.isPromise(value) ||
    types.isWeakMap(value) ||
    types.isWeakSet(value) ||
    types.isWeakRef(value) ||
    types.isProxy(value) ||
    types.isGeneratorObject(value) ||
    value instanceof Promise
  ) {
    throw cloneError(value);
  } else {
    copy = {};
    memory.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = cloneInto(value[key], memory);
    return copy;
  }
  memory.set(value, copy);
  return copy;
}

/** structuredClone(value, { transfer }). Throws a DataCloneError DOMException for what cannot be cloned. */
function structuredClone(...args) {
  // Node's own wording for these (they come from its native side).
  if (args.length === 0)
    throw makeNodeError(TypeError, 'ERR_MISSING_ARGS', 'The value argument must be specified');
  const [value, options] = args;
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw makeNodeError(
      TypeError,
      'ERR_INVALID_ARG_TYPE',
      'The options argument must be either an object or undefined',
    );
  }
  const transfer = options?.transfer;
  const memory = new Map();
  if (transfer !== undefined) {
    if (typeof transfer?.[Symbol.iterator] !== 'function') {
      throw makeNodeError(
        TypeError,
        'ERR_INVALID_ARG_TYPE',
        'Optional transferList argument must be an iterable',
      );
    }
    for (const item of transfer) {
      if (!types.isArrayBuffer(item)) throw new DOMException('Value not transferable', 'DataCloneError');
      // transfer() moves the bytes and detaches the original where the engine supports it.
      memory.set(item, typeof item.transfer === 'function' ? item.transfer() : item.slice(0));
    }
  }
  return cloneInto(value, memory);
}

module.exports = { structuredClone };
