'use strict';
// atob and btoa (HTML "forgiving base64"), with Node's errors: an InvalidCharacterError DOMException
// for bad input, ERR_MISSING_ARGS when called with nothing.

const { codes } = require('internal/errors');

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = new Map([...ALPHABET].map((ch, i) => [ch, i]));

function btoa(...args) {
  if (args.length === 0) throw codes.ERR_MISSING_ARGS('input');
  const input = `${args[0]}`;
  let out = '';
  for (let i = 0; i < input.length; i += 3) {
    const codes3 = [input.charCodeAt(i), input.charCodeAt(i + 1), input.charCodeAt(i + 2)];
    for (let k = 0; k < 3 && i + k < input.length; k++) {
      if (codes3[k] > 0xff) throw new DOMException('Invalid character', 'InvalidCharacterError');
    }
    const [a, b = 0, c = 0] = codes3.map((n) => (Number.isNaN(n) ? 0 : n));
    const triple = (a << 16) | (b << 8) | c;
    out += ALPHABET[(triple >> 18) & 63] + ALPHABET[(triple >> 12) & 63];
    out += i + 1 < input.length ? ALPHABET[(triple >> 6) & 63] : '=';
    out += i + 2 < input.length ? ALPHABET[triple & 63] : '=';
  }
  return out;
}

const ASCII_WHITESPACE = new Set(['\t', '\n', '\f', '\r', ' ']);

function atob(...args) {
  if (args.length === 0) throw codes.ERR_MISSING_ARGS('input');
  const input = `${args[0]}`;
  const invalidCharacter = () => new DOMException('Invalid character', 'InvalidCharacterError');
  let significant = 0;
  let equals = 0;
  let cleaned = '';
  for (const ch of input) {
    if (ASCII_WHITESPACE.has(ch)) continue;
    if (ch === '=') {
      equals++;
      // At most two '=', and only at the end.
      if (equals > 2) throw invalidCharacter();
    } else if (LOOKUP.has(ch)) {
      if (equals > 0) throw invalidCharacter();
      cleaned += ch;
    } else {
      throw invalidCharacter();
    }
    significant++;
  }
  let remainder = significant % 4;
  if (remainder === 0) remainder = (significant - equals) % 4;
  else if (equals > 0) throw invalidCharacter();
  if (remainder === 1) {
    throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  }
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const ch of cleaned) {
    buffer = ((buffer << 6) | LOOKUP.get(ch)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return out;
}

module.exports = { atob, btoa };
