'use strict';
// node:querystring: parse/decode, stringify/encode, escape, unescape, unescapeBuffer, as Node does them
// (a null-prototype result object, repeated keys as arrays, '+' read as a space, maxKeys 1000,
// malformed percent sequences kept as they are).

const { codes } = require('internal/errors');

const UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;

/** Percent-encodes `str` as encodeURIComponent does, except that !'()* stay (Node's escape). */
function qsEscape(value) {
  let str = value;
  if (typeof str !== 'string') {
    if (typeof str === 'object') str = String(str);
    else str += '';
  }
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const ch = str[i];
    const code = str.charCodeAt(i);
    if (code < 0x80 && UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = str.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) throw codes.ERR_INVALID_URI();
      out += encodeURIComponent(str.slice(i, i + 2));
      i++;
      continue;
    }
    out += encodeURIComponent(ch);
  }
  return out;
}

const hexValue = (code) => {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
};

/** Decodes %XX sequences of `s` into bytes (others kept as they are); '+' → space when asked. */
function unescapeBuffer(s, decodeSpaces = false) {
  const { Buffer } = require('node:buffer');
  const input = Buffer.from(String(s));
  const out = Buffer.alloc(input.length);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i];
    if (byte === 0x2b && decodeSpaces) {
      out[n++] = 0x20;
    } else if (
      byte === 0x25 &&
      i + 2 < input.length &&
      hexValue(input[i + 1]) >= 0 &&
      hexValue(input[i + 2]) >= 0
    ) {
      out[n++] = hexValue(input[i + 1]) * 16 + hexValue(input[i + 2]);
      i += 2;
    } else {
      out[n++] = byte;
    }
  }
  return out.subarray(0, n);
}

function qsUnescape(s, decodeSpaces) {
  try {
    return decodeURIComponent(s);
  } catch {
    return unescapeBuffer(s, decodeSpaces).toString();
  }
}

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return `${v}`;
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function encodeStringified(v, encode) {
  if (typeof v === 'string') return v.length ? encode(v) : '';
  if (typeof v === 'number' && Number.isFinite(v)) return Math.abs(v) < 1e21 ? `${v}` : encode(`${v}`);
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep, eq, options) {
  const separator = sep || '&';
  const equals = eq || '=';
  let encode = module.exports.escape;
  if (options && typeof options.encodeURIComponent === 'function') encode = options.encodeURIComponent;
  const convert = encode === qsEscape ? encodeStringified : (v, enc) => enc(stringifyPrimitive(v));
  if (obj === null || typeof obj !== 'object') return '';
  let fields = '';
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const ks = convert(k, encode) + equals;
    if (Array.isArray(v)) {
      if (v.length === 0) continue;
      if (fields) fields += separator;
      fields += v.map((item) => ks + convert(item, encode)).join(separator);
    } else {
      if (fields) fields += separator;
      fields += ks + convert(v, encode);
    }
  }
  return fields;
}

function parse(qs, sep, eq, options) {
  const obj = { __proto__: null };
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  const separator = sep ? String(sep) : '&';
  const equals = eq ? String(eq) : '=';
  let maxKeys = 1000;
  if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
  const limit = maxKeys > 0 ? maxKeys : Number.POSITIVE_INFINITY;
  let decode = module.exports.unescape;
  if (options && typeof options.decodeURIComponent === 'function') decode = options.decodeURIComponent;
  const decodePart = (text) => {
    const spaced = text.replaceAll('+', ' ');
    if (!spaced.includes('%')) return spaced;
    try {
      return decode(spaced);
    } catch {
      return module.exports.unescape(spaced, true);
    }
  };
  let pairs = 0;
  for (const piece of qs.split(separator)) {
    if (pairs >= limit) break;
    if (piece.length === 0) continue;
    pairs++;
    const at = piece.indexOf(equals);
    const key = decodePart(at === -1 ? piece : piece.slice(0, at));
    const value = decodePart(at === -1 ? '' : piece.slice(at + equals.length));
    const current = obj[key];
    if (current === undefined) obj[key] = value;
    else if (Array.isArray(current)) current.push(value);
    else obj[key] = [current, value];
  }
  return obj;
}

module.exports = {
  unescapeBuffer,
  unescape: qsUnescape,
  escape: qsEscape,
  stringify,
  encode: stringify,
  parse,
  decode: parse,
};
