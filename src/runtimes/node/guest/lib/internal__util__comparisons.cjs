'use strict';
// Deep equality as assert.deepStrictEqual / util.isDeepStrictEqual (strict) and assert.deepEqual
// (loose) define it. Strict: Object.is for primitives, equal prototypes and built-in tags, own
// enumerable keys and symbols. Loose: == for primitives, prototypes ignored, symbols ignored. Maps and
// Sets match unordered (object keys deeply); cycles are followed once.

const types = require('node:util/types');

const objectTag = (value) => Object.prototype.toString.call(value);
const isEnumerable = (obj, key) => Object.prototype.propertyIsEnumerable.call(obj, key);
const isError = (value) => types.isNativeError(value) || value instanceof Error;

function isIndexKey(key) {
  return typeof key === 'string' && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

function ownNonIndexKeys(value, strict) {
  return Reflect.ownKeys(value).filter(
    (key) => !isIndexKey(key) && isEnumerable(value, key) && (strict || typeof key !== 'symbol'),
  );
}

function bytesOf(view) {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = bytesOf(a);
  const y = bytesOf(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

function similarViews(a, b, strict) {
  if (types.isDataView(a) !== types.isDataView(b)) return false;
  if (!types.isDataView(a) && types.typedArrayName(a) !== types.typedArrayName(b)) return false;
  const float = types.isFloat32Array(a) || types.isFloat64Array(a);
  if (!strict && float) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  return sameBytes(a, b);
}

function equalBoxed(a, b) {
  if (types.isNumberObject(a)) {
    return (
      types.isNumberObject(b) && Object.is(Number.prototype.valueOf.call(a), Number.prototype.valueOf.call(b))
    );
  }
  if (types.isStringObject(a)) {
    return types.isStringObject(b) && String.prototype.valueOf.call(a) === String.prototype.valueOf.call(b);
  }
  if (types.isBooleanObject(a)) {
    return (
      types.isBooleanObject(b) && Boolean.prototype.valueOf.call(a) === Boolean.prototype.valueOf.call(b)
    );
  }
  if (types.isBigIntObject(a)) {
    return types.isBigIntObject(b) && BigInt.prototype.valueOf.call(a) === BigInt.prototype.valueOf.call(b);
  }
  return types.isSymbolObject(b) && Symbol.prototype.valueOf.call(a) === Symbol.prototype.valueOf.call(b);
}

const NO_ITERATOR = 0;
const IS_ARRAY = 1;
const IS_SET = 2;
const IS_MAP = 3;

function isSpecial(value) {
  return (
    Array.isArray(value) ||
    types.isArrayBufferView(value) ||
    types.isSet(value) ||
    types.isMap(value) ||
    types.isDate(value) ||
    types.isRegExp(value) ||
    types.isAnyArrayBuffer(value) ||
    types.isBoxedPrimitive(value) ||
    isError(value)
  );
}

function innerDeepEqual(val1, val2, strict, memos) {
  if (val1 === val2) return val1 !== 0 || !strict || Object.is(val1, val2);
  if (strict) {
    if (typeof val1 !== 'object') return typeof val1 === 'number' && Number.isNaN(val1) && Number.isNaN(val2);
    if (typeof val2 !== 'object' || val1 === null || val2 === null) return false;
    if (Object.getPrototypeOf(val1) !== Object.getPrototypeOf(val2)) return false;
  } else {
    if (val1 === null || typeof val1 !== 'object') {
      if (val2 === null || typeof val2 !== 'object') {
        // biome-ignore lint/suspicious/noDoubleEquals: loose equality is what deepEqual means
        return val1 == val2 || (Number.isNaN(val1) && Number.isNaN(val2));
      }
      return false;
    }
    if (val2 === null || typeof val2 !== 'object') return false;
  }
  const tag1 = objectTag(val1);
  if (tag1 !== objectTag(val2)) return false;
  if (Array.isArray(val1)) {
    if (!Array.isArray(val2) || val1.length !== val2.length) return false;
    const keys1 = ownNonIndexKeys(val1, strict);
    if (keys1.length !== ownNonIndexKeys(val2, strict).length) return false;
    return keyCheck(val1, val2, strict, memos, IS_ARRAY, keys1);
  }
  if (tag1 === '[object Object]') {
    return keyCheck(val1, val2, strict, memos, NO_ITERATOR);
  }
  if (types.isDate(val1)) {
    if (!types.isDate(val2) || val1.getTime() !== val2.getTime()) return false;
  } else if (types.isRegExp(val1)) {
    if (
      !types.isRegExp(val2) ||
      val1.source !== val2.source ||
      val1.flags !== val2.flags ||
      val1.lastIndex !== val2.lastIndex
    ) {
      return false;
    }
  } else if (isError(val1)) {
    if (!isError(val2) || val1.message !== val2.message || val1.name !== val2.name) return false;
    if ('cause' in val1 !== 'cause' in val2 || !innerDeepEqual(val1.cause, val2.cause, strict, memos))
      return false;
    if ('errors' in val1 !== 'errors' in val2 || !innerDeepEqual(val1.errors, val2.errors, strict, memos))
      return false;
  } else if (types.isArrayBufferView(val1)) {
    if (!types.isArrayBufferView(val2) || !similarViews(val1, val2, strict)) return false;
    const keys1 = ownNonIndexKeys(val1, strict);
    if (keys1.length !== ownNonIndexKeys(val2, strict).length) return false;
    return keyCheck(val1, val2, strict, memos, NO_ITERATOR, keys1);
  } else if (types.isSet(val1)) {
    if (!types.isSet(val2) || val1.size !== val2.size) return false;
    return keyCheck(val1, val2, strict, memos, IS_SET);
  } else if (types.isMap(val1)) {
    if (!types.isMap(val2) || val1.size !== val2.size) return false;
    return keyCheck(val1, val2, strict, memos, IS_MAP);
  } else if (types.isAnyArrayBuffer(val1)) {
    if (!types.isAnyArrayBuffer(val2) || !sameBytes(new Uint8Array(val1), new Uint8Array(val2))) return false;
  } else if (types.isBoxedPrimitive(val1)) {
    if (!equalBoxed(val1, val2)) return false;
  } else if (isSpecial(val2)) {
    return false;
  }
  return keyCheck(val1, val2, strict, memos, NO_ITERATOR);
}

function enumerableSymbols(value) {
  return Object.getOwnPropertySymbols(value).filter((key) => isEnumerable(value, key));
}

function keyCheck(val1, val2, strict, memos, iterationType, givenKeys) {
  let keys = givenKeys;
  if (keys === undefined) {
    keys = Object.keys(val1);
    if (keys.length !== Object.keys(val2).length) return false;
  }
  for (const key of keys) if (!isEnumerable(val2, key)) return false;
  if (strict && givenKeys === undefined) {
    const symbols1 = enumerableSymbols(val1);
    const symbols2 = enumerableSymbols(val2);
    if (symbols1.length !== symbols2.length) return false;
    for (const key of symbols1) {
      if (!isEnumerable(val2, key)) return false;
      keys.push(key);
    }
  }
  if (
    keys.length === 0 &&
    (iterationType === NO_ITERATOR || (iterationType === IS_ARRAY && val1.length === 0) || val1.size === 0)
  ) {
    return true;
  }
  let memo = memos;
  if (memo === undefined) {
    memo = { val1: new Map(), val2: new Map(), position: 0 };
  } else {
    const seen1 = memo.val1.get(val1);
    if (seen1 !== undefined) {
      const seen2 = memo.val2.get(val2);
      if (seen2 !== undefined) return seen1 === seen2;
    }
    memo.position++;
  }
  memo.val1.set(val1, memo.position);
  memo.val2.set(val2, memo.position);
  const equal = objEquiv(val1, val2, strict, keys, memo, iterationType);
  memo.val1.delete(val1);
  memo.val2.delete(val2);
  return equal;
}

function arrayEquiv(a, b, strict, memo) {
  for (let i = 0; i < a.length; i++) {
    if (Object.hasOwn(a, i)) {
      if (!Object.hasOwn(b, i) || !innerDeepEqual(a[i], b[i], strict, memo)) return false;
    } else if (Object.hasOwn(b, i)) {
      return false;
    } else {
      // A hole: compare the remaining own keys instead.
      const keysA = Object.keys(a);
      for (let k = i; k < keysA.length; k++) {
        const key = keysA[k];
        if (!Object.hasOwn(b, key) || !innerDeepEqual(a[key], b[key], strict, memo)) return false;
      }
      return keysA.length === Object.keys(b).length;
    }
  }
  return true;
}

function objEquiv(a, b, strict, keys, memo, iterationType) {
  if (iterationType === IS_SET && !setEquiv(a, b, strict, memo)) return false;
  if (iterationType === IS_MAP && !mapEquiv(a, b, strict, memo)) return false;
  if (iterationType === IS_ARRAY && !arrayEquiv(a, b, strict, memo)) return false;
  for (const key of keys) if (!innerDeepEqual(a[key], b[key], strict, memo)) return false;
  return true;
}

/** Loose comparison: whether `prim` might == another key (true/false), or the one value it could == (null/undefined). */
function looseAlternative(prim) {
  switch (typeof prim) {
    case 'undefined':
      return null;
    case 'object':
      return undefined;
    case 'symbol':
      return false;
    case 'string':
      return !Number.isNaN(+prim);
    case 'number':
      return !Number.isNaN(prim);
    default:
      return true;
  }
}

function setMightHaveLoosePrim(a, b, prim) {
  const alt = looseAlternative(prim);
  if (alt === true || alt === false) return alt;
  return b.has(alt) && !a.has(alt);
}

function setHasEqualElement(set, value, strict, memo) {
  for (const candidate of set) {
    if (innerDeepEqual(value, candidate, strict, memo)) {
      set.delete(candidate);
      return true;
    }
  }
  return false;
}

function setEquiv(a, b, strict, memo) {
  let pending = null;
  for (const value of a) {
    if (typeof value === 'object' && value !== null) {
      pending ??= new Set();
      pending.add(value);
    } else if (!b.has(value)) {
      if (strict || !setMightHaveLoosePrim(a, b, value)) return false;
      pending ??= new Set();
      pending.add(value);
    }
  }
  if (pending === null) return true;
  for (const value of b) {
    if (typeof value === 'object' && value !== null) {
      if (!setHasEqualElement(pending, value, strict, memo)) return false;
    } else if (!strict && !a.has(value) && !setHasEqualElement(pending, value, strict, memo)) {
      return false;
    }
  }
  return pending.size === 0;
}

function mapMightHaveLoosePrim(a, b, prim, item, memo) {
  const alt = looseAlternative(prim);
  if (alt === true || alt === false) return alt;
  const other = b.get(alt);
  if ((other === undefined && !b.has(alt)) || !innerDeepEqual(item, other, false, memo)) return false;
  return !a.has(alt);
}

function mapHasEqualEntry(set, map, key, item, strict, memo) {
  for (const candidate of set) {
    if (
      innerDeepEqual(key, candidate, strict, memo) &&
      innerDeepEqual(item, map.get(candidate), strict, memo)
    ) {
      set.delete(candidate);
      return true;
    }
  }
  return false;
}

function mapEquiv(a, b, strict, memo) {
  let pending = null;
  for (const [key, item] of a) {
    if (typeof key === 'object' && key !== null) {
      pending ??= new Set();
      pending.add(key);
    } else {
      const other = b.get(key);
      if ((other === undefined && !b.has(key)) || !innerDeepEqual(item, other, strict, memo)) {
        if (strict || !mapMightHaveLoosePrim(a, b, key, item, memo)) return false;
        pending ??= new Set();
        pending.add(key);
      }
    }
  }
  if (pending === null) return true;
  for (const [key, item] of b) {
    if (typeof key === 'object' && key !== null) {
      if (!mapHasEqualEntry(pending, a, key, item, strict, memo)) return false;
    } else if (
      !strict &&
      (!a.has(key) || !innerDeepEqual(a.get(key), item, false, memo)) &&
      !mapHasEqualEntry(pending, a, key, item, false, memo)
    ) {
      return false;
    }
  }
  return pending.size === 0;
}

module.exports = {
  /** assert.deepEqual's comparison. Never throws for ordinary values. */
  isDeepEqual: (a, b) => innerDeepEqual(a, b, false),
  /** assert.deepStrictEqual's and util.isDeepStrictEqual's comparison. */
  isDeepStrictEqual: (a, b) => innerDeepEqual(a, b, true),
};
