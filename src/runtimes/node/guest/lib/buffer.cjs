'use strict';
// node:buffer: the `buffer` npm package (a faithful port of Node's Buffer) plus what Node has on top:
// the base64url encoding, Node's errors for bad sizes, encodings and arguments, `<Buffer 68 69>` for
// util.inspect, atob/btoa, isUtf8/isAscii, transcode, and the *Slice/*Write aliases. Differences kept:
// kMaxLength is the package's 2^31-1 (browsers cap typed arrays there), and out-of-range reads and
// writes throw the package's RangeError messages rather than Node's ERR_OUT_OF_RANGE ones.

const vendor = require('tabcode:vendor/buffer');
const { codes, makeNodeError, validateNumber } = require('internal/errors');
const { atob, btoa } = require('internal/web/base64');
const { utf8Decode } = require('internal/encoding');

const { Buffer } = vendor;
const proto = Buffer.prototype;
const customInspect = Symbol.for('nodejs.util.inspect.custom');

const ENCODINGS = {
  utf8: 'utf8',
  'utf-8': 'utf8',
  hex: 'hex',
  base64: 'base64',
  base64url: 'base64url',
  ascii: 'ascii',
  latin1: 'latin1',
  binary: 'latin1',
  ucs2: 'utf16le',
  'ucs-2': 'utf16le',
  utf16le: 'utf16le',
  'utf-16le': 'utf16le',
};

/** The canonical name of `encoding` (undefined/null/'' mean utf8); throws ERR_UNKNOWN_ENCODING. */
function normalizeEncoding(encoding) {
  if (encoding === undefined || encoding === null || encoding === '') return 'utf8';
  const found = ENCODINGS[String(encoding).toLowerCase()];
  if (found === undefined) throw codes.ERR_UNKNOWN_ENCODING(encoding);
  return found;
}

/** The package decodes base64url through its base64 path (its alphabet accepts '-' and '_'). */
const forPackage = (encoding) => (encoding === 'base64url' ? 'base64' : encoding);

const toBase64Url = (base64) => base64.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');

const originalToString = proto.toString;
proto.toString = function bufferToString(encoding, start, end) {
  const enc = normalizeEncoding(encoding);
  if (enc === 'base64url') return toBase64Url(originalToString.call(this, 'base64', start, end));
  if (enc === 'utf8') {
    // Node (V8) replaces each maximal invalid UTF-8 subsequence with one U+FFFD; the package's
    // decoder does it per byte. Bounds as the package reads them.
    const from = start === undefined || start < 0 ? 0 : Math.min(start >>> 0, this.length);
    const to = end === undefined || end > this.length ? this.length : Math.max(end >>> 0, 0);
    if (to <= from) return '';
    return utf8Decode(this.subarray(from, to))[0];
  }
  return originalToString.call(this, enc, start, end);
};
proto.toLocaleString = proto.toString;

const originalWrite = proto.write;
proto.write = function write(string, ...rest) {
  if (typeof string !== 'string')
    throw makeNodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'argument must be a string');
  // The encoding may come second, third or fourth: write(s, enc), (s, off, enc), (s, off, len, enc).
  const args = rest.map((arg) => (typeof arg === 'string' ? forPackage(normalizeEncoding(arg)) : arg));
  return originalWrite.call(this, string, ...args);
};

const originalFill = proto.fill;
proto.fill = function fill(value, offset, end, encoding) {
  const fix = (arg) => (typeof arg === 'string' ? forPackage(normalizeEncoding(arg)) : arg);
  if (typeof offset === 'string') return originalFill.call(this, value, fix(offset));
  if (typeof end === 'string') return originalFill.call(this, value, offset, fix(end));
  return originalFill.call(this, value, offset, end, encoding === undefined ? undefined : fix(encoding));
};

const originalFrom = Buffer.from;
Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === 'string') return originalFrom(value, forPackage(normalizeEncoding(encodingOrOffset)));
  if (
    value === null ||
    (typeof value !== 'object' && typeof value !== 'function') ||
    typeof value === 'function'
  ) {
    throw codes.ERR_INVALID_ARG_TYPE(
      'first argument',
      ['string', 'Buffer', 'ArrayBuffer', 'Array', 'Array-like Object'],
      value,
    );
  }
  return originalFrom(value, encodingOrOffset, length);
};

const originalByteLength = Buffer.byteLength;
Buffer.byteLength = function byteLength(string, encoding) {
  if (typeof string !== 'string') {
    if (ArrayBuffer.isView(string) || string instanceof ArrayBuffer) return string.byteLength;
    throw codes.ERR_INVALID_ARG_TYPE('string', ['string', 'Buffer', 'ArrayBuffer'], string);
  }
  const enc = encoding === undefined ? 'utf8' : (ENCODINGS[String(encoding).toLowerCase()] ?? 'utf8');
  return originalByteLength(string, forPackage(enc));
};

Buffer.isEncoding = function isEncoding(encoding) {
  return (
    typeof encoding === 'string' && encoding.length !== 0 && ENCODINGS[encoding.toLowerCase()] !== undefined
  );
};

function validateSize(size) {
  validateNumber(size, 'size', 0, vendor.kMaxLength);
}
for (const name of ['alloc', 'allocUnsafe', 'allocUnsafeSlow']) {
  const original = Buffer[name];
  Buffer[name] = {
    [name](size, ...rest) {
      validateSize(size);
      if (name === 'alloc' && typeof rest[1] === 'string') rest[1] = forPackage(normalizeEncoding(rest[1]));
      return original.call(Buffer, size, ...rest);
    },
  }[name];
}

Buffer.copyBytesFrom = function copyBytesFrom(view, offset = 0, length = undefined) {
  if (!ArrayBuffer.isView(view) || view instanceof DataView) {
    throw codes.ERR_INVALID_ARG_TYPE('view', ['TypedArray'], view);
  }
  const end = length === undefined ? view.length : offset + length;
  const slice = view.subarray(offset, end);
  return Buffer.from(new Uint8Array(slice.buffer, slice.byteOffset, slice.byteLength));
};

// Node's undocumented per-encoding methods, used by some packages.
for (const [name, encoding] of [
  ['utf8', 'utf8'],
  ['hex', 'hex'],
  ['latin1', 'latin1'],
  ['ascii', 'ascii'],
  ['base64', 'base64'],
  ['base64url', 'base64url'],
  ['ucs2', 'utf16le'],
  ['utf16le', 'utf16le'],
]) {
  proto[`${name}Slice`] = function slice(start, end) {
    return this.toString(encoding, start, end);
  };
  proto[`${name}Write`] = function write(string, offset, length) {
    return this.write(string, offset ?? 0, length ?? this.length - (offset ?? 0), encoding);
  };
}

const INDEX_KEY = /^(0|[1-9][0-9]*)$/;

proto[customInspect] = function inspect(_recurseTimes, ctx) {
  const max = module.exports.INSPECT_MAX_BYTES;
  const shown = Math.min(max, this.length);
  let str = this.toString('hex', 0, shown)
    .replace(/(.{2})/g, '$1 ')
    .trim();
  const remaining = this.length - max;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  if (ctx) {
    const extras = { __proto__: null };
    let any = false;
    const keys = ctx.showHidden ? Reflect.ownKeys(this) : Object.keys(this);
    for (const key of keys) {
      if (typeof key === 'string' && INDEX_KEY.test(key)) continue;
      any = true;
      extras[key] = this[key];
    }
    if (any) {
      const { inspect } = require('internal/util/inspect');
      if (this.length !== 0) str += ', ';
      str += inspect(extras, { ...ctx, breakLength: Number.POSITIVE_INFINITY, compact: true }).slice(27, -2);
    }
  }
  return `<${this.constructor.name} ${str}>`;
};
proto.inspect = proto[customInspect];

function isUtf8(input) {
  const bytes = toBytes(input, 'input');
  try {
    utf8Decode(bytes, true);
    return true;
  } catch {
    return false;
  }
}

function isAscii(input) {
  const bytes = toBytes(input, 'input');
  return bytes.every((b) => b < 0x80);
}

function toBytes(input, name) {
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw codes.ERR_INVALID_ARG_TYPE(name, ['ArrayBuffer', 'Buffer', 'TypedArray'], input);
}

function transcode(source, fromEnc, toEnc) {
  const bytes = toBytes(source, 'source');
  const from = normalizeEncoding(fromEnc);
  const to = normalizeEncoding(toEnc);
  const supported = ['utf8', 'utf16le', 'latin1', 'ascii'];
  if (!supported.includes(from) || !supported.includes(to)) {
    throw require('internal/errors').makeNodeError(
      Error,
      'U_ILLEGAL_ARGUMENT_ERROR',
      `Unable to transcode Buffer [U_ILLEGAL_ARGUMENT_ERROR]`,
    );
  }
  const text = Buffer.from(bytes).toString(from);
  if (to === 'latin1' || to === 'ascii') {
    return Buffer.from([...text].map((ch) => (ch.codePointAt(0) > 0xff ? '?' : ch)).join(''), 'latin1');
  }
  return Buffer.from(text, to);
}

module.exports = {
  Buffer,
  SlowBuffer: vendor.SlowBuffer,
  transcode,
  isUtf8,
  isAscii,
  kMaxLength: vendor.kMaxLength,
  kStringMaxLength: 2 ** 29 - 24,
  btoa,
  atob,
  constants: { MAX_LENGTH: vendor.kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 },
  INSPECT_MAX_BYTES: 50,
};
