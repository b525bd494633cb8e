'use strict';
// util.inspect: what console.log prints for a value. Output follows Node 22's for everything a
// program is likely to print (see inspect.test.ts, which compares against Node's own util.inspect).
// Known differences, on purpose or for want of engine support:
// - Proxies print as their target would (showProxy shows no `Proxy [ ... ]`): JavaScript cannot tell a
//   proxy apart from inside.
// - Map and Set iterators print as `Object [Map Iterator] {}`: their entries cannot be read without
//   consuming them.
// - Promises print their state only when the engine lends a hook (internal/host); else `<pending>`.
// - showHidden does not list prototype properties of class instances.

const types = require('node:util/types');
const { validateObject } = require('internal/errors');
const layout = require('internal/util/inspect-layout');
const {
  isError,
  getPrefix,
  getFunctionBase,
  getStackString,
  formatError,
  getBoxedBase,
} = require('internal/util/inspect-bases');

const { formatPrimitive, formatNumber, formatBigInt, strEscape, stylizeNoColor, stylizeWithColor } = layout;

const customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');

const inspectDefaultOptions = Object.seal({
  showHidden: false,
  depth: 2,
  colors: false,
  customInspect: true,
  showProxy: false,
  maxArrayLength: 100,
  maxStringLength: 10000,
  breakLength: 80,
  compact: 3,
  sorted: false,
  getters: false,
  numericSeparator: false,
});

// How formatProperty prints an entry: `key: value`, a bare array element, or an array's extra key.
const OBJECT_ENTRY = 0;
const ARRAY_ITEM = 1;
const ARRAY_EXTRA_KEY = 2;

const KEY_IDENTIFIER = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const NUMBER_KEY = /^(0|[1-9][0-9]*)$/;

function safeInstanceof(object, ctor) {
  try {
    return object instanceof ctor;
  } catch {
    return false;
  }
}

/** The name of the nearest ctorName on the prototype chain, or null for a null-prototype chain. */
function getConstructorName(obj, ctx, recurseTimes) {
  let firstProto;
  const original = obj;
  let current = obj;
  while (current) {
    const descriptor = Object.getOwnPropertyDescriptor(current, 'constructor');
    if (
      descriptor !== undefined &&
      typeof descriptor.value === 'function' &&
      descriptor.value.name !== '' &&
      safeInstanceof(original, descriptor.value)
    ) {
      return String(descriptor.value.name);
    }
    current = Object.getPrototypeOf(current);
    if (firstProto === undefined) firstProto = current;
  }
  if (firstProto === null) return null;
  const base = typeof original === 'function' ? 'Function' : 'Object';
  if (recurseTimes > ctx.depth && ctx.depth !== null) return `${base} <Complex prototype>`;
  const protoConstructor = getConstructorName(firstProto, ctx, recurseTimes + 1);
  if (protoConstructor === null) {
    return `${base} <${inspect(firstProto, { ...ctx, customInspect: false, depth: -1 })}>`;
  }
  return `${base} <${protoConstructor}>`;
}

const isEnumerable = (obj, key) => Object.prototype.propertyIsEnumerable.call(obj, key);

function getKeys(value, showHidden) {
  const symbols = Object.getOwnPropertySymbols(value);
  if (showHidden) return [...Object.getOwnPropertyNames(value), ...symbols];
  return [...Object.keys(value), ...symbols.filter((key) => isEnumerable(value, key))];
}

function isIndexKey(key) {
  return typeof key === 'string' && NUMBER_KEY.test(key) && Number(key) < 2 ** 32 - 1;
}

function getOwnNonIndexProperties(value, showHidden) {
  return Reflect.ownKeys(value).filter((key) => !isIndexKey(key) && (showHidden || isEnumerable(value, key)));
}

function getUserOptions(ctx) {
  const options = { stylize: ctx.stylize };
  for (const key of Object.keys(inspectDefaultOptions)) options[key] = ctx[key];
  return ctx.userOptions === undefined ? options : { ...options, ...ctx.userOptions };
}

function formatValue(ctx, value, recurseTimes, typedArray) {
  if (typeof value !== 'object' && typeof value !== 'function')
    return formatPrimitive(ctx.stylize, value, ctx);
  if (value === null) return ctx.stylize('null', 'null');
  if (ctx.customInspect) {
    let maybeCustom;
    try {
      maybeCustom = value[customInspectSymbol];
    } catch {
      maybeCustom = undefined;
    }
    if (
      typeof maybeCustom === 'function' &&
      maybeCustom !== inspect &&
      !(value.constructor && value.constructor.prototype === value)
    ) {
      const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      const ret = maybeCustom.call(value, depth, getUserOptions(ctx), inspect);
      if (ret !== value) {
        if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
        return ret.replaceAll('\n', `\n${' '.repeat(ctx.indentationLvl)}`);
      }
    }
  }
  if (ctx.seen.includes(value)) {
    let index = 1;
    if (ctx.circular === undefined) {
      ctx.circular = new Map([[value, index]]);
    } else {
      index = ctx.circular.get(value);
      if (index === undefined) {
        index = ctx.circular.size + 1;
        ctx.circular.set(value, index);
      }
    }
    return ctx.stylize(`[Circular *${index}]`, 'special');
  }
  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function ownTag(value, ctx) {
  let tag;
  try {
    tag = value[Symbol.toStringTag];
  } catch {
    return '';
  }
  // An own (enumerable) tag is printed among the keys already.
  const owns = ctx.showHidden
    ? Object.hasOwn(value, Symbol.toStringTag)
    : isEnumerable(value, Symbol.toStringTag);
  if (typeof tag !== 'string' || (tag !== '' && owns)) return '';
  return tag;
}

/** Everything that is not a primitive: picks braces, a base text and the formatter for the entries. */
function formatRaw(ctx, value, recurseTimes, typedArray) {
  let keys;
  const ctorName = getConstructorName(value, ctx, recurseTimes);
  const tag = ownTag(value, ctx);
  let base = '';
  let formatter = () => [];
  let braces;
  let isArrayLike = false;
  let noIterator = true;

  if (Symbol.iterator in value || ctorName === null) {
    noIterator = false;
    if (Array.isArray(value)) {
      const prefix =
        ctorName !== 'Array' || tag !== '' ? getPrefix(ctorName, tag, 'Array', `(${value.length})`) : '';
      keys = getOwnNonIndexProperties(value, ctx.showHidden);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
      isArrayLike = true;
      formatter = formatArray;
    } else if (types.isSet(value)) {
      const prefix = getPrefix(ctorName, tag, 'Set', `(${value.size})`);
      keys = getKeys(value, ctx.showHidden);
      formatter = formatSet;
      if (value.size === 0 && keys.length === 0) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
    } else if (types.isMap(value)) {
      const prefix = getPrefix(ctorName, tag, 'Map', `(${value.size})`);
      keys = getKeys(value, ctx.showHidden);
      formatter = formatMap;
      if (value.size === 0 && keys.length === 0) return `${prefix}{}`;
      braces = [`${prefix}{`, '}'];
    } else if (types.isTypedArray(value)) {
      keys = getOwnNonIndexProperties(value, ctx.showHidden);
      const fallback = ctorName === null ? types.typedArrayName(value) : '';
      const prefix = getPrefix(ctorName, tag, fallback, `(${value.length})`);
      braces = [`${prefix}[`, ']'];
      if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return `${braces[0]}]`;
      formatter = formatTypedArray;
      isArrayLike = true;
    } else {
      noIterator = true;
    }
  }
  if (noIterator) {
    keys = getKeys(value, ctx.showHidden);
    braces = ['{', '}'];
    if (ctorName === 'Object') {
      if (types.isArgumentsObject(value)) braces[0] = '[Arguments] {';
      else if (tag !== '') braces[0] = `${getPrefix(ctorName, tag, 'Object')}{`;
      if (keys.length === 0) return `${braces[0]}}`;
    } else if (typeof value === 'function') {
      base = getFunctionBase(value, ctorName, tag);
      if (keys.length === 0) return ctx.stylize(base, 'special');
    } else if (types.isRegExp(value)) {
      base = RegExp.prototype.toString.call(value);
      const prefix = getPrefix(ctorName, tag, 'RegExp');
      if (prefix !== 'RegExp ') base = `${prefix}${base}`;
      if (keys.length === 0 || (recurseTimes > ctx.depth && ctx.depth !== null))
        return ctx.stylize(base, 'regexp');
    } else if (types.isDate(value)) {
      const time = Date.prototype.getTime.call(value);
      base = Number.isNaN(time) ? 'Invalid Date' : Date.prototype.toISOString.call(value);
      const prefix = getPrefix(ctorName, tag, 'Date');
      if (prefix !== 'Date ') base = `${prefix}${base}`;
      if (keys.length === 0) return ctx.stylize(base, 'date');
    } else if (isError(value)) {
      base = formatError(value, ctorName, tag, ctx, keys);
      if (keys.length === 0) return base;
    } else if (types.isAnyArrayBuffer(value)) {
      const prefix = getPrefix(
        ctorName,
        tag,
        types.isArrayBuffer(value) ? 'ArrayBuffer' : 'SharedArrayBuffer',
      );
      if (typedArray === undefined) formatter = formatArrayBuffer;
      else if (keys.length === 0) {
        return `${prefix}{ byteLength: ${formatNumber(ctx.stylize, value.byteLength, false)} }`;
      }
      braces[0] = `${prefix}{`;
      keys.unshift('byteLength');
    } else if (types.isDataView(value)) {
      braces[0] = `${getPrefix(ctorName, tag, 'DataView')}{`;
      keys.unshift('byteLength', 'byteOffset', 'buffer');
    } else if (types.isPromise(value)) {
      braces[0] = `${getPrefix(ctorName, tag, 'Promise')}{`;
      formatter = formatPromise;
    } else if (types.isWeakSet(value)) {
      braces[0] = `${getPrefix(ctorName, tag, 'WeakSet')}{`;
      formatter = formatWeakCollection;
    } else if (types.isWeakMap(value)) {
      braces[0] = `${getPrefix(ctorName, tag, 'WeakMap')}{`;
      formatter = formatWeakCollection;
    } else if (types.isModuleNamespaceObject(value)) {
      braces[0] = `${getPrefix(ctorName, tag, 'Module')}{`;
    } else if (types.isBoxedPrimitive(value)) {
      base = getBoxedBase(value, ctx, keys, ctorName, tag);
      if (keys.length === 0) return base;
    } else {
      if (keys.length === 0) return `${getPrefix(ctorName, tag, 'Object')}{}`;
      braces[0] = `${getPrefix(ctorName, tag, 'Object')}{`;
    }
  }

  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    let name = getPrefix(ctorName, tag, 'Object').slice(0, -1);
    if (ctorName !== null) name = `[${name}]`;
    return ctx.stylize(name, 'special');
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output;
  try {
    output = formatter(ctx, value, recurseTimes);
    const kind = isArrayLike ? ARRAY_EXTRA_KEY : OBJECT_ENTRY;
    for (const key of keys) output.push(formatProperty(ctx, value, recurseTimes, key, kind));
  } catch (err) {
    ctx.seen.pop();
    if (err instanceof RangeError || err?.name === 'InternalError') {
      return ctx.stylize(
        `[${getPrefix(ctorName, tag, 'Object').slice(0, -1)}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`,
        'special',
      );
    }
    throw err;
  }
  if (ctx.circular !== undefined) {
    const index = ctx.circular.get(value);
    if (index !== undefined) {
      const reference = ctx.stylize(`<ref *${index}>`, 'special');
      if (ctx.compact !== true) base = base === '' ? reference : `${reference} ${base}`;
      else braces[0] = `${reference} ${braces[0]}`;
    }
  }
  ctx.seen.pop();
  if (ctx.sorted) {
    const comparator = ctx.sorted === true ? undefined : ctx.sorted;
    if (!isArrayLike) output.sort(comparator);
    else if (keys.length > 1) {
      const sorted = output.slice(output.length - keys.length).sort(comparator);
      output.splice(output.length - keys.length, keys.length, ...sorted);
    }
  }
  return layout.reduceToSingleString(ctx, output, base, braces, isArrayLike, recurseTimes, value);
}

function remainingText(remaining) {
  return `... ${remaining} more item${remaining > 1 ? 's' : ''}`;
}

function formatArray(ctx, value, recurseTimes) {
  const length = Math.min(Math.max(0, ctx.maxArrayLength), value.length);
  const output = [];
  for (let i = 0; i < length; i++) {
    if (!Object.hasOwn(value, i)) return formatSparseArray(ctx, value, recurseTimes, length, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, ARRAY_ITEM));
  }
  if (value.length > length) output.push(remainingText(value.length - length));
  return output;
}

function formatSparseArray(ctx, value, recurseTimes, maxLength, output, start) {
  const keys = Object.keys(value);
  let index = start;
  for (let i = start; i < keys.length && output.length < maxLength; i++) {
    const key = keys[i];
    const tmp = Number(key);
    if (tmp > 2 ** 32 - 2) break;
    if (`${index}` !== key) {
      if (!NUMBER_KEY.test(key)) break;
      const emptyItems = tmp - index;
      output.push(ctx.stylize(`<${emptyItems} empty item${emptyItems > 1 ? 's' : ''}>`, 'undefined'));
      index = tmp;
      if (output.length === maxLength) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, ARRAY_ITEM));
    index++;
  }
  const remaining = value.length - index;
  if (output.length !== maxLength) {
    if (remaining > 0)
      output.push(ctx.stylize(`<${remaining} empty item${remaining > 1 ? 's' : ''}>`, 'undefined'));
  } else if (remaining > 0) {
    output.push(remainingText(remaining));
  }
  return output;
}

function formatTypedArray(ctx, value, recurseTimes) {
  const length = value.length;
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), length);
  const output = new Array(maxLength);
  const elementFormatter = length > 0 && typeof value[0] === 'number' ? formatNumber : formatBigInt;
  for (let i = 0; i < maxLength; i++)
    output[i] = elementFormatter(ctx.stylize, value[i], ctx.numericSeparator);
  if (length > maxLength) output[maxLength] = remainingText(length - maxLength);
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    for (const key of ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer']) {
      output.push(`[${key}]: ${formatValue(ctx, value[key], recurseTimes, true)}`);
    }
    ctx.indentationLvl -= 2;
  }
  return output;
}

function hexBytes(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++)
    out += `${i === 0 ? '' : ' '}${bytes[i].toString(16).padStart(2, '0')}`;
  return out;
}

function formatArrayBuffer(ctx, value) {
  let bytes;
  try {
    bytes = new Uint8Array(value);
  } catch {
    return [ctx.stylize('(detached)', 'special')];
  }
  let str = hexBytes(bytes.subarray(0, Math.min(ctx.maxArrayLength, bytes.length)));
  const remaining = bytes.length - ctx.maxArrayLength;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  return [`${ctx.stylize('[Uint8Contents]', 'special')}: <${str}>`];
}

function formatSet(ctx, value, recurseTimes) {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
  const output = [];
  ctx.indentationLvl += 2;
  let i = 0;
  for (const entry of value) {
    if (i >= maxLength) break;
    output.push(formatValue(ctx, entry, recurseTimes));
    i++;
  }
  if (value.size > maxLength) output.push(remainingText(value.size - maxLength));
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(ctx, value, recurseTimes) {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
  const output = [];
  ctx.indentationLvl += 2;
  let i = 0;
  for (const [k, v] of value) {
    if (i >= maxLength) break;
    output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
    i++;
  }
  if (value.size > maxLength) output.push(remainingText(value.size - maxLength));
  ctx.indentationLvl -= 2;
  return output;
}

function formatPromise(ctx, value, recurseTimes) {
  const details = require('internal/host').promiseState(value);
  if (!details || details[0] === 'pending') return [ctx.stylize('<pending>', 'special')];
  ctx.indentationLvl += 2;
  const str = formatValue(ctx, details[1], recurseTimes);
  ctx.indentationLvl -= 2;
  return [details[0] === 'rejected' ? `${ctx.stylize('<rejected>', 'special')} ${str}` : str];
}

function formatWeakCollection(ctx) {
  return [ctx.stylize('<items unknown>', 'special')];
}

function formatProperty(ctx, value, recurseTimes, key, kind) {
  let name;
  let str;
  let extra = ' ';
  const desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  if (desc.value !== undefined) {
    const diff = ctx.compact !== true || kind !== OBJECT_ENTRY ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < layout.getStringWidth(str))
      extra = `\n${' '.repeat(ctx.indentationLvl)}`;
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    str = formatGetter(ctx, value, recurseTimes, desc);
  } else if (desc.set !== undefined) {
    str = ctx.stylize('[Setter]', 'special');
  } else {
    str = ctx.stylize('undefined', 'undefined');
  }
  if (kind === ARRAY_ITEM) return str;
  if (typeof key === 'symbol') {
    name = `[${ctx.stylize(Symbol.prototype.toString.call(key), 'symbol')}]`;
  } else if (key === '__proto__') {
    name = "['__proto__']";
  } else if (desc.enumerable === false) {
    name = `[${strEscape(key).slice(1, -1)}]`;
  } else if (KEY_IDENTIFIER.test(key)) {
    name = ctx.stylize(key, 'name');
  } else {
    name = ctx.stylize(strEscape(key), 'string');
  }
  return `${name}:${extra}${str}`;
}

function formatGetter(ctx, value, recurseTimes, desc) {
  const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
  const s = ctx.stylize;
  const wanted =
    ctx.getters &&
    (ctx.getters === true ||
      (ctx.getters === 'get' && desc.set === undefined) ||
      (ctx.getters === 'set' && desc.set !== undefined));
  if (!wanted) return s(`[${label}]`, 'special');
  try {
    const tmp = desc.get.call(value);
    ctx.indentationLvl += 2;
    let str;
    if (tmp === null) str = `${s(`[${label}:`, 'special')} ${s('null', 'null')}${s(']', 'special')}`;
    else if (typeof tmp === 'object')
      str = `${s(`[${label}]`, 'special')} ${formatValue(ctx, tmp, recurseTimes)}`;
    else str = `${s(`[${label}:`, 'special')} ${formatPrimitive(s, tmp, ctx)}${s(']', 'special')}`;
    ctx.indentationLvl -= 2;
    return str;
  } catch (err) {
    return `${s(`[${label}:`, 'special')} <Inspection threw (${err?.message})>${s(']', 'special')}`;
  }
}

/**
 * Returns `value` as text the way Node's util.inspect does. `opts` is an options object (or, the
 * legacy form, showHidden as a boolean with depth and colors as further arguments). Never throws for
 * ordinary values; a throwing custom inspector or getter (with `getters`) propagates.
 */
function inspect(value, opts, ...legacy) {
  const ctx = {
    budget: {},
    indentationLvl: 0,
    seen: [],
    currentDepth: 0,
    stylize: stylizeNoColor,
    ...inspectDefaultOptions,
  };
  if (legacy.length > 0) {
    if (legacy[0] !== undefined) ctx.depth = legacy[0];
    if (legacy.length > 1 && legacy[1] !== undefined) ctx.colors = legacy[1];
  }
  if (typeof opts === 'boolean') ctx.showHidden = opts;
  else if (opts) {
    for (const key of Object.keys(opts)) {
      if (Object.hasOwn(inspectDefaultOptions, key) || key === 'stylize') ctx[key] = opts[key];
      else if (ctx.userOptions === undefined) ctx.userOptions = opts;
    }
  }
  if (ctx.colors) ctx.stylize = stylizeWithColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Number.POSITIVE_INFINITY;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Number.POSITIVE_INFINITY;
  return formatValue(ctx, value, 0);
}

inspect.custom = customInspectSymbol;
Object.defineProperty(inspect, 'defaultOptions', {
  get() {
    return inspectDefaultOptions;
  },
  set(options) {
    validateObject(options, 'options');
    Object.assign(inspectDefaultOptions, options);
  },
  enumerable: true,
  configurable: true,
});
inspect.colors = layout.colors;
inspect.styles = layout.styles;

module.exports = { inspect, inspectDefaultOptions, customInspectSymbol, getStackString, isError };
