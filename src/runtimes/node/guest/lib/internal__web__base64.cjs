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

function atob(...args) {
  if (args.length === 0) throw codes.ERR_MISSING_ARGS('input');
  let input = `${args[0]}`.replace(/[\t\n\f\r ]/g, '');
  const invalid = () =>
    new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  if (input.length % 4 === 0) input = input.replace(/={1,2}$/, '');
  if (input.length % 4 === 1) throw invalid();
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const ch of input) {
    const value = LOOKUP.get(ch);
    if (value === undefined) throw invalid();
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return out;
}

module.exports = { atob, btoa };
