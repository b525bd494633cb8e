'use strict';
// util.types: brand checks for built-in objects. Where the language offers a check that cannot be
// fooled (a getter or method that throws on the wrong receiver) it is used; otherwise the built-in
// Symbol.toStringTag is read. Promises: a host hook (see internal/host) when the engine provides one.

const host = require('internal/host');

function brand(getter) {
  return (value) => {
    if (value === null || typeof value !== 'object') return false;
    try {
      getter.call(value);
      return true;
    } catch {
      return false;
    }
  };
}
const getterOf = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const regExpGlobal = getterOf(RegExp.prototype, 'global');
const builtinTag = (value) => Object.prototype.toString.call(value).slice(8, -1);

const isDate = brand(Date.prototype.getTime);
const isMap = brand(getterOf(Map.prototype, 'size'));
const isSet = brand(getterOf(Set.prototype, 'size'));
const isWeakMap = brand(function () {
  WeakMap.prototype.has.call(this, {});
});
const isWeakSet = brand(function () {
  WeakSet.prototype.has.call(this, {});
});
const isWeakRef = brand(WeakRef.prototype.deref);
const isArrayBuffer = brand(getterOf(ArrayBuffer.prototype, 'byteLength'));
const isSharedArrayBuffer =
  typeof SharedArrayBuffer === 'function'
    ? brand(getterOf(SharedArrayBuffer.prototype, 'byteLength'))
    : () => false;
const isDataView = brand(getterOf(DataView.prototype, 'byteLength'));
const isNumberObject = brand(Number.prototype.valueOf);
const isStringObject = brand(String.prototype.valueOf);
const isBooleanObject = brand(Boolean.prototype.valueOf);
const isBigIntObject = brand(BigInt.prototype.valueOf);
const isSymbolObject = brand(Symbol.prototype.valueOf);

function isRegExp(value) {
  if (value === null || typeof value !== 'object') return false;
  try {
    // RegExp.prototype itself answers undefined rather than throwing; it is not a RegExp.
    return typeof regExpGlobal.call(value) === 'boolean';
  } catch {
    return false;
  }
}

function typedArrayName(value) {
  return typedArrayTag.call(value);
}
const isTypedArray = (value) => typedArrayName(value) !== undefined;
const typedArrayCheck = (name) => (value) => typedArrayName(value) === name;

function isNativeError(value) {
  if (typeof Error.isError === 'function') return Error.isError(value);
  return value instanceof Error;
}

function isPromise(value) {
  if (value === null || typeof value !== 'object') return false;
  const state = host.promiseState(value);
  if (state !== undefined) return state !== null;
  return value instanceof Promise && builtinTag(value) === 'Promise';
}

const functionTag = (name) => (value) => typeof value === 'function' && builtinTag(value) === name;
const isAsyncFunction = (value) =>
  typeof value === 'function' &&
  (builtinTag(value) === 'AsyncFunction' || builtinTag(value) === 'AsyncGeneratorFunction');
const isGeneratorFunction = (value) =>
  typeof value === 'function' &&
  (builtinTag(value) === 'GeneratorFunction' || builtinTag(value) === 'AsyncGeneratorFunction');

const objectTag = (name) => (value) =>
  value !== null && typeof value === 'object' && builtinTag(value) === name;

function isModuleNamespaceObject(value) {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== null) return false;
  const desc = Object.getOwnPropertyDescriptor(value, Symbol.toStringTag);
  return desc !== undefined && desc.value === 'Module' && !desc.writable && !desc.configurable;
}

module.exports = {
  isExternal: () => false,
  isDate,
  isArgumentsObject: objectTag('Arguments'),
  isBigIntObject,
  isBooleanObject,
  isNumberObject,
  isStringObject,
  isSymbolObject,
  isBoxedPrimitive: (value) =>
    isNumberObject(value) ||
    isStringObject(value) ||
    isBooleanObject(value) ||
    isBigIntObject(value) ||
    isSymbolObject(value),
  isNativeError,
  isRegExp,
  isAsyncFunction,
  isGeneratorFunction,
  isGeneratorObject: objectTag('Generator'),
  isPromise,
  isMap,
  isSet,
  isMapIterator: objectTag('Map Iterator'),
  isSetIterator: objectTag('Set Iterator'),
  isWeakMap,
  isWeakSet,
  isArrayBuffer,
  isDataView,
  isSharedArrayBuffer,
  isAnyArrayBuffer: (value) => isArrayBuffer(value) || isSharedArrayBuffer(value),
  isArrayBufferView: (value) => isTypedArray(value) || isDataView(value),
  isProxy: () => false,
  isModuleNamespaceObject,
  isTypedArray,
  isUint8Array: typedArrayCheck('Uint8Array'),
  isUint8ClampedArray: typedArrayCheck('Uint8ClampedArray'),
  isUint16Array: typedArrayCheck('Uint16Array'),
  isUint32Array: typedArrayCheck('Uint32Array'),
  isInt8Array: typedArrayCheck('Int8Array'),
  isInt16Array: typedArrayCheck('Int16Array'),
  isInt32Array: typedArrayCheck('Int32Array'),
  isFloat32Array: typedArrayCheck('Float32Array'),
  isFloat64Array: typedArrayCheck('Float64Array'),
  isBigInt64Array: typedArrayCheck('BigInt64Array'),
  isBigUint64Array: typedArrayCheck('BigUint64Array'),
  isKeyObject: () => false,
  isCryptoKey: () => false,
};
// Not part of Node's util.types, used by the guest's own builtins.
Object.defineProperty(module.exports, 'typedArrayName', { value: typedArrayName, enumerable: false });
Object.defineProperty(module.exports, 'isWeakRef', { value: isWeakRef, enumerable: false });
Object.defineProperty(module.exports, 'isAsyncGeneratorFunction', {
  value: functionTag('AsyncGeneratorFunction'),
  enumerable: false,
});
