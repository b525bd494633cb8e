'use strict';
// node:string_decoder: decodes a stream of byte chunks without splitting characters. UTF-8 sequences,
// UTF-16 code units (and a high surrogate at a chunk's end) and base64 triples cut by a chunk boundary
// wait for the next write; end() flushes what is left (an incomplete UTF-8 sequence as U+FFFD).

const { Buffer } = require('node:buffer');
const { codes } = require('internal/errors');
const { utf8Decode } = require('internal/encoding');

const ENCODINGS = {
  utf8: 'utf8',
  'utf-8': 'utf8',
  ucs2: 'utf16le',
  'ucs-2': 'utf16le',
  utf16le: 'utf16le',
  'utf-16le': 'utf16le',
  latin1: 'latin1',
  binary: 'latin1',
  base64: 'base64',
  base64url: 'base64url',
  hex: 'hex',
  ascii: 'ascii',
};

function normalize(encoding) {
  if (encoding === undefined || encoding === null || encoding === '') return 'utf8';
  const found = ENCODINGS[String(encoding).toLowerCase()];
  if (found === undefined) throw codes.ERR_UNKNOWN_ENCODING(encoding);
  return found;
}

function toBuffer(buf) {
  if (Buffer.isBuffer(buf)) return buf;
  if (ArrayBuffer.isView(buf)) return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  throw codes.ERR_INVALID_ARG_TYPE('buf', ['Buffer', 'TypedArray', 'DataView'], buf);
}

class StringDecoder {
  #pending = Buffer.alloc(0);

  constructor(encoding = undefined) {
    this.encoding = normalize(encoding);
  }

  /** Decodes `buf`, holding back an incomplete trailing character. A string is returned as it is. */
  write(buf) {
    if (typeof buf === 'string') return buf;
    const chunk = toBuffer(buf);
    const bytes = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = Buffer.alloc(0);
    switch (this.encoding) {
      case 'utf8': {
        const [text, used] = utf8Decode(bytes, false, true);
        this.#pending = Buffer.from(bytes.subarray(used));
        return text;
      }
      case 'utf16le': {
        if (bytes.length % 2 === 1) {
          this.#pending = Buffer.from(bytes.subarray(bytes.length - 1));
          return bytes.toString('utf16le', 0, bytes.length - 1);
        }
        const text = bytes.toString('utf16le');
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          this.#pending = Buffer.from(bytes.subarray(bytes.length - 2));
          return text.slice(0, -1);
        }
        return text;
      }
      case 'base64':
      case 'base64url': {
        const whole = bytes.length - (bytes.length % 3);
        this.#pending = Buffer.from(bytes.subarray(whole));
        return bytes.toString(this.encoding, 0, whole);
      }
      default:
        return bytes.toString(this.encoding);
    }
  }

  /** Flushes what is held back, after decoding `buf` if given. */
  end(buf = undefined) {
    let text = buf === undefined ? '' : this.write(buf);
    const rest = this.#pending;
    this.#pending = Buffer.alloc(0);
    if (rest.length === 0) return text;
    if (this.encoding === 'utf8') text += '\ufffd';
    else if (this.encoding === 'utf16le')
      text += rest.length >= 2 ? rest.toString('utf16le', 0, rest.length - (rest.length % 2)) : '';
    else text += rest.toString(this.encoding);
    return text;
  }

  /** Node's compatibility fields: the bytes held back, and how many more would complete them. */
  get lastChar() {
    const out = Buffer.alloc(4);
    this.#pending.copy(out);
    return out;
  }
  get lastNeed() {
    if (this.#pending.length === 0) return 0;
    return this.lastTotal - this.#pending.length;
  }
  get lastTotal() {
    if (this.#pending.length === 0) return 0;
    if (this.encoding === 'utf8') {
      const lead = this.#pending[0];
      return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    }
    if (this.encoding === 'utf16le') return this.#pending.length === 1 ? 2 : 4;
    return 3;
  }

  text(buf, offset) {
    return this.write(toBuffer(buf).subarray(offset));
  }
}

module.exports = { StringDecoder };
