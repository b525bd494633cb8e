'use strict';
// node:util. Not provided: MIMEType/MIMEParams, getSystemErrorMessage, the legacy
// _errnoException/_exceptionWithHostPort. Node 22 prints a deprecation warning for the legacy
// util.isX checks; these do not (they are still present and return the same answers).

const { inspect } = require('internal/util/inspect');
const { format, formatWithOptions } = require('internal/util/format');
const { stripVTControlCharacters, colors } = require('internal/util/inspect-layout');
// Loaded on first use: most programs that require util never call these.
const isDeepStrictEqual = (a, b) => require('internal/util/comparisons').isDeepStrictEqual(a, b);
const parseArgs = (config) => require('internal/util/parse-args').parseArgs(config);
const types = require('node:util/types');
const {
  codes,
  emitWarning,
  validateFunction,
  validateString,
  validateAbortSignal,
} = require('internal/errors');

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
// Set by builtins whose callback gets several results: promisify resolves with an object of them.
const kCustomPromisifyArgs = Symbol.for('tabcode.util.promisify.customArgs');

function promisify(original) {
  validateFunction(original, 'original');
  if (original[kCustomPromisify]) {
    const fn = original[kCustomPromisify];
    validateFunction(fn, 'util.promisify.custom');
    return Object.defineProperty(fn, kCustomPromisify, {
      value: fn,
      enumerable: false,
      writable: false,
      configurable: true,
    });
  }
  const argumentNames = original[kCustomPromisifyArgs];
  function fn(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [
        ...args,
        (err, ...values) => {
          if (err) return reject(err);
          if (argumentNames !== undefined && values.length > 1) {
            const obj = {};
            argumentNames.forEach((name, i) => {
              obj[name] = values[i];
            });
            resolve(obj);
          } else {
            resolve(values[0]);
          }
        },
      ]);
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, {
    value: fn,
    enumerable: false,
    writable: false,
    configurable: true,
  });
  const descriptors = Object.getOwnPropertyDescriptors(original);
  for (const desc of Object.values(descriptors)) Object.setPrototypeOf(desc, null);
  return Object.defineProperties(fn, descriptors);
}
promisify.custom = kCustomPromisify;

function nextTick(fn, ...args) {
  if (typeof globalThis.process?.nextTick === 'function') globalThis.process.nextTick(fn, ...args);
  else queueMicrotask(() => fn(...args));
}

function callbackify(original) {
  validateFunction(original, 'original');
  function callbackified(...args) {
    const maybeCb = args.pop();
    validateFunction(maybeCb, 'last argument');
    const cb = maybeCb.bind(this);
    Reflect.apply(original, this, args).then(
      (ret) => nextTick(cb, null, ret),
      (rej) => {
        let reason = rej;
        if (!reason) {
          reason = codes.ERR_FALSY_VALUE_REJECTION();
          reason.reason = rej;
        }
        nextTick(cb, reason);
      },
    );
  }
  const descriptors = Object.getOwnPropertyDescriptors(original);
  if (typeof descriptors.length?.value === 'number') descriptors.length.value++;
  if (typeof descriptors.name?.value === 'string') descriptors.name.value += 'Callbackified';
  for (const desc of Object.values(descriptors)) Object.setPrototypeOf(desc, null);
  Object.defineProperties(callbackified, descriptors);
  return callbackified;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw codes.ERR_INVALID_ARG_TYPE('ctor', 'Function', ctor);
  if (superCtor === undefined || superCtor === null) {
    throw codes.ERR_INVALID_ARG_TYPE('superCtor', 'Function', superCtor);
  }
  if (superCtor.prototype === undefined) {
    throw codes.ERR_INVALID_ARG_TYPE('superCtor.prototype', 'Object', superCtor.prototype);
  }
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const warnedCodes = new Set();

function deprecate(fn, msg, code) {
  validateFunction(fn, 'fn');
  if (code !== undefined) validateString(code, 'code');
  let warned = false;
  function deprecated(...args) {
    if (!globalThis.process?.noDeprecation && !warned && !(code !== undefined && warnedCodes.has(code))) {
      warned = true;
      if (code !== undefined) warnedCodes.add(code);
      emitWarning(msg, 'DeprecationWarning', code);
    }
    if (new.target) return Reflect.construct(fn, args, new.target);
    return Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function debugPattern() {
  const value = globalThis.process?.env?.NODE_DEBUG ?? '';
  const parts = String(value)
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((p) => p.replace(/[|\\{}()[\]^$+?.]/g, '\\$&').replaceAll('*', '.*'));
  return parts.length === 0 ? null : new RegExp(`^(${parts.join('|')})$`, 'i');
}

function debuglog(set, cb) {
  const section = String(set);
  let enabled;
  const isEnabled = () => {
    if (enabled === undefined) enabled = debugPattern()?.test(section) ?? false;
    return enabled;
  };
  const logger = (...args) => {
    if (!isEnabled()) return;
    const proc = globalThis.process;
    const text = `${section.toUpperCase()} ${proc?.pid ?? 1}: ${format(...args)}\n`;
    proc?.stderr?.write?.(text);
  };
  Object.defineProperty(logger, 'enabled', { get: isEnabled, enumerable: true, configurable: true });
  if (typeof cb === 'function' && isEnabled()) cb(logger);
  return logger;
}

function aborted(signal, resource) {
  validateAbortSignal(signal, 'signal');
  if (
    resource === undefined ||
    resource === null ||
    (typeof resource !== 'object' && typeof resource !== 'function')
  ) {
    throw codes.ERR_INVALID_ARG_TYPE('resource', 'object', resource);
  }
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function styleText(formatName, text, { validateStream = true, stream = globalThis.process?.stdout } = {}) {
  validateString(text, 'text');
  const names = Array.isArray(formatName) ? formatName : [formatName];
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(colors, name)) {
      throw codes.ERR_INVALID_ARG_VALUE(
        'format',
        name,
        `must be one of: ${Object.keys(colors)
          .map((k) => `'${k}'`)
          .join(', ')}`,
      );
    }
  }
  if (validateStream) {
    const env = globalThis.process?.env ?? {};
    const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
    if (!forced && (!stream?.isTTY || env.NO_COLOR !== undefined || env.NODE_DISABLE_COLORS !== undefined))
      return text;
  }
  let left = '';
  let right = '';
  for (const name of names) {
    const [open, close] = colors[name];
    left += `\u001b[${open}m`;
    right = `\u001b[${close}m${right}`;
  }
  return `${left}${text}${right}`;
}

const ERRNO = [
  ['EPERM', -1, 'operation not permitted'],
  ['ENOENT', -2, 'no such file or directory'],
  ['ESRCH', -3, 'no such process'],
  ['EINTR', -4, 'interrupted system call'],
  ['EIO', -5, 'i/o error'],
  ['EBADF', -9, 'bad file descriptor'],
  ['EAGAIN', -11, 'resource temporarily unavailable'],
  ['ENOMEM', -12, 'not enough memory'],
  ['EACCES', -13, 'permission denied'],
  ['EBUSY', -16, 'resource busy or locked'],
  ['EEXIST', -17, 'file already exists'],
  ['EXDEV', -18, 'cross-device link not permitted'],
  ['ENOTDIR', -20, 'not a directory'],
  ['EISDIR', -21, 'illegal operation on a directory'],
  ['EINVAL', -22, 'invalid argument'],
  ['EMFILE', -24, 'too many open files'],
  ['ENOSPC', -28, 'no space left on device'],
  ['EROFS', -30, 'read-only file system'],
  ['EPIPE', -32, 'broken pipe'],
  ['ENAMETOOLONG', -36, 'name too long'],
  ['ENOSYS', -38, 'function not implemented'],
  ['ENOTEMPTY', -39, 'directory not empty'],
  ['ELOOP', -40, 'too many symbolic links encountered'],
  ['ENOTSUP', -95, 'operation not supported on socket'],
  ['EADDRINUSE', -98, 'address already in use'],
  ['ECONNRESET', -104, 'connection reset by peer'],
  ['ETIMEDOUT', -110, 'connection timed out'],
  ['ECONNREFUSED', -111, 'connection refused'],
];

function getSystemErrorMap() {
  return new Map(ERRNO.map(([name, errno, message]) => [errno, [name, message]]));
}

function getSystemErrorName(err) {
  if (typeof err !== 'number') throw codes.ERR_INVALID_ARG_TYPE('err', 'number', err);
  if (err >= 0 || !Number.isSafeInteger(err)) throw codes.ERR_OUT_OF_RANGE('err', 'a negative integer', err);
  return getSystemErrorMap().get(err)?.[0] ?? `Unknown system error ${err}`;
}

/** util.parseEnv: the KEY=value lines of a .env file, quotes and `export ` prefixes understood. */
function parseEnv(content) {
  validateString(content, 'content');
  const result = {};
  const text = content.replace(/\r\n?/g, '\n');
  const line = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*("(?:\\.|[^"\\])*"|'[^']*'|`[^`]*`|[^\n#]*)/gm;
  for (const match of text.matchAll(line)) {
    let value = match[2].trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replaceAll('\\n', '\n');
    }
    result[match[1]] = value;
  }
  return result;
}

function toUSVString(input) {
  return String(input).toWellFormed();
}

function isError(value) {
  return types.isNativeError(value) || value instanceof Error;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n) => String(n).padStart(2, '0');

function log(...args) {
  const d = new Date();
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  globalThis.process?.stdout?.write?.(
    `${d.getDate()} ${MONTHS[d.getMonth()]} ${time} - ${format(...args)}\n`,
  );
}

function _extend(target, source) {
  if (source === null || typeof source !== 'object') return target;
  for (const key of Object.keys(source)) target[key] = source[key];
  return target;
}

function isBuffer(value) {
  return globalThis.Buffer?.isBuffer?.(value) ?? false;
}

module.exports = {
  _extend,
  callbackify,
  debug: debuglog,
  debuglog,
  deprecate,
  format,
  styleText,
  formatWithOptions,
  getSystemErrorMap,
  getSystemErrorName,
  inherits,
  inspect,
  isArray: Array.isArray,
  isBoolean: (arg) => typeof arg === 'boolean',
  isBuffer,
  isDeepStrictEqual,
  isNull: (arg) => arg === null,
  isNullOrUndefined: (arg) => arg === null || arg === undefined,
  isNumber: (arg) => typeof arg === 'number',
  isString: (arg) => typeof arg === 'string',
  isSymbol: (arg) => typeof arg === 'symbol',
  isUndefined: (arg) => arg === undefined,
  isRegExp: types.isRegExp,
  isObject: (arg) => arg !== null && typeof arg === 'object',
  isDate: types.isDate,
  isError,
  isFunction: (arg) => typeof arg === 'function',
  isPrimitive: (arg) => arg === null || (typeof arg !== 'object' && typeof arg !== 'function'),
  log,
  promisify,
  stripVTControlCharacters,
  toUSVString,
  transferableAbortSignal: (signal) => signal,
  transferableAbortController: () => new AbortController(),
  aborted,
  types,
  parseEnv,
  parseArgs,
};
for (const name of ['TextDecoder', 'TextEncoder']) {
  Object.defineProperty(module.exports, name, {
    get: () => require('internal/encoding')[name],
    enumerable: true,
    configurable: true,
  });
}
