'use strict';
// util.format and util.formatWithOptions: printf-like placeholders (%s %d %i %f %j %o %O %c %%), then
// every further argument: strings as they are, anything else through util.inspect, joined by spaces.
// console.log is util.format of its arguments.

const { inspect } = require('internal/util/inspect');
const { formatNumber, formatBigInt, stylizeNoColor } = require('internal/util/inspect-layout');
const { validateObject } = require('internal/errors');

// The language's own constructors: an object whose toString comes from one of their prototypes is
// inspected for %s rather than converted with String().
const BUILT_IN_CONSTRUCTORS = new Set([
  'Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError',
  'URIError', 'ArrayBuffer', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array',
  'Int32Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array',
  'DataView', 'Map', 'BigInt', 'Set', 'WeakMap', 'WeakSet', 'Proxy', 'Reflect', 'SharedArrayBuffer',
  'WeakRef', 'FinalizationRegistry', 'Iterator',
]); // biome-ignore format: a list of names

/** Whether %s should inspect `value`: its string conversion (toString or Symbol.toPrimitive) is a built-in one. */
function hasBuiltInToString(value) {
  if (typeof value.toString !== 'function' && typeof value[Symbol.toPrimitive] !== 'function') return true;
  if (Object.hasOwn(value, 'toString') || Object.hasOwn(value, Symbol.toPrimitive)) return false;
  let pointer = value;
  do {
    pointer = Object.getPrototypeOf(pointer);
  } while (
    pointer !== null &&
    !Object.hasOwn(pointer, 'toString') &&
    !Object.hasOwn(pointer, Symbol.toPrimitive)
  );
  if (pointer === null) return true;
  const descriptor = Object.getOwnPropertyDescriptor(pointer, 'constructor');
  return (
    descriptor !== undefined &&
    typeof descriptor.value === 'function' &&
    BUILT_IN_CONSTRUCTORS.has(descriptor.value.name)
  );
}

function isCircularJsonError(err) {
  return err instanceof TypeError && /circular/i.test(String(err.message));
}

function tryStringify(arg) {
  try {
    return JSON.stringify(arg);
  } catch (err) {
    if (isCircularJsonError(err)) return '[Circular]';
    throw err;
  }
}

// s j d O o i f c
const PLACEHOLDERS = new Set([115, 106, 100, 79, 111, 105, 102, 99]);

function formatPlaceholder(code, arg, inspectOptions) {
  switch (code) {
    case 115: // s
      if (typeof arg === 'number') return formatNumber(stylizeNoColor, arg, false);
      if (typeof arg === 'bigint') return formatBigInt(stylizeNoColor, arg, false);
      if (typeof arg !== 'object' || arg === null || !hasBuiltInToString(arg)) return String(arg);
      return inspect(arg, { ...inspectOptions, depth: 0, colors: false, compact: 3 });
    case 106: // j
      return tryStringify(arg);
    case 100: // d
      if (typeof arg === 'bigint') return formatBigInt(stylizeNoColor, arg, false);
      if (typeof arg === 'symbol') return 'NaN';
      return formatNumber(stylizeNoColor, Number(arg), false);
    case 79: // O
      return inspect(arg, inspectOptions);
    case 111: // o
      return inspect(arg, { ...inspectOptions, showHidden: true, showProxy: true, depth: 4 });
    case 105: // i
      if (typeof arg === 'bigint') return formatBigInt(stylizeNoColor, arg, false);
      if (typeof arg === 'symbol') return 'NaN';
      // biome-ignore lint/correctness/useParseIntRadix: %i reads '0x10' as 16, as Node does
      return formatNumber(stylizeNoColor, Number.parseInt(arg), false);
    case 102: // f
      if (typeof arg === 'symbol') return 'NaN';
      return formatNumber(stylizeNoColor, Number.parseFloat(arg), false);
    case 99: // c: CSS is ignored outside browsers' consoles
      return '';
    default:
      return '';
  }
}

function formatWithOptionsInternal(inspectOptions, args) {
  const first = args[0];
  let a = 0;
  let str = '';
  let join = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue;
      const next = first.charCodeAt(++i);
      if (a + 1 !== args.length) {
        if (next === 37) {
          str += first.slice(lastPos, i);
          lastPos = i + 1;
          continue;
        }
        if (!PLACEHOLDERS.has(next)) continue;
        const text = formatPlaceholder(next, args[++a], inspectOptions);
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
        str += text;
        lastPos = i + 1;
      } else if (next === 37) {
        str += first.slice(lastPos, i);
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    const value = args[a];
    str += join;
    str += typeof value !== 'string' ? inspect(value, inspectOptions) : value;
    join = ' ';
    a++;
  }
  return str;
}

/** util.format(format, ...args). Never throws for ordinary values. */
function format(...args) {
  return formatWithOptionsInternal(undefined, args);
}

/** util.formatWithOptions(inspectOptions, format, ...args). */
function formatWithOptions(inspectOptions, ...args) {
  validateObject(inspectOptions, 'inspectOptions', { allowArray: true });
  return formatWithOptionsInternal(inspectOptions, args);
}

module.exports = { format, formatWithOptions };
