'use strict';
// TextEncoder and TextDecoder (WHATWG Encoding) for utf-8, utf-16le and windows-1252 (the standard's
// name for latin1 and ascii). Invalid UTF-8 becomes one U+FFFD per maximal invalid subsequence, as the
// standard says. windows-1252 maps bytes 0x80-0x9F to the standard's characters (€, ‚, ƒ, ...), as
// Node's streaming decoder and browsers do; Node 20's non-streaming fast path leaves them as C1
// controls, which is not followed here.

const { codes, makeNodeError } = require('internal/errors');

const customInspect = Symbol.for('nodejs.util.inspect.custom');

/** UTF-8 bytes of `input`; lone surrogates become U+FFFD. Never throws. */
function utf8Encode(input) {
  const str = String(input);
  const out = new Uint8Array(str.length * 3);
  let n = 0;
  for (let i = 0; i < str.length; i++) {
    let code = str.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = str.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x80) out[n++] = code;
    else if (code < 0x800) {
      out[n++] = 0xc0 | (code >> 6);
      out[n++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      out[n++] = 0xe0 | (code >> 12);
      out[n++] = 0x80 | ((code >> 6) & 0x3f);
      out[n++] = 0x80 | (code & 0x3f);
    } else {
      out[n++] = 0xf0 | (code >> 18);
      out[n++] = 0x80 | ((code >> 12) & 0x3f);
      out[n++] = 0x80 | ((code >> 6) & 0x3f);
      out[n++] = 0x80 | (code & 0x3f);
    }
  }
  return out.slice(0, n);
}

/** Length of a complete UTF-8 sequence starting with `lead`, or 0 for a byte that cannot start one. */
function sequenceLength(lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function continuationRange(lead, index) {
  if (index === 1) {
    if (lead === 0xe0) return [0xa0, 0xbf];
    if (lead === 0xed) return [0x80, 0x9f];
    if (lead === 0xf0) return [0x90, 0xbf];
    if (lead === 0xf4) return [0x80, 0x8f];
  }
  return [0x80, 0xbf];
}

/**
 * Decodes UTF-8 `bytes` from `start`. Returns [text, consumed]: with `stream`, an incomplete sequence at
 * the end is left unconsumed. `fatal` makes invalid data throw ERR_ENCODING_INVALID_ENCODED_DATA.
 */
function utf8Decode(bytes, fatal = false, stream = false) {
  let text = '';
  let chunk = [];
  const flush = () => {
    text += String.fromCharCode.apply(null, chunk);
    chunk = [];
  };
  const bad = () => {
    if (fatal) throw codes.ERR_ENCODING_INVALID_ENCODED_DATA('utf-8');
    chunk.push(0xfffd);
  };
  let i = 0;
  while (i < bytes.length) {
    if (chunk.length > 8192) flush();
    const lead = bytes[i];
    const need = sequenceLength(lead);
    if (need === 1) {
      chunk.push(lead);
      i++;
      continue;
    }
    if (need === 0) {
      bad();
      i++;
      continue;
    }
    let code = lead & (0xff >> (need + 1));
    let k = 1;
    for (; k < need; k++) {
      if (i + k >= bytes.length) break;
      const [lo, hi] = continuationRange(lead, k);
      const byte = bytes[i + k];
      if (byte < lo || byte > hi) break;
      code = (code << 6) | (byte & 0x3f);
    }
    if (k === need) {
      if (code >= 0x10000) {
        code -= 0x10000;
        chunk.push(0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
      } else chunk.push(code);
      i += need;
    } else if (i + k >= bytes.length && stream) {
      break;
    } else {
      bad();
      i += k;
    }
  }
  flush();
  return [text, i];
}

function utf16leDecode(bytes, fatal, stream) {
  let end = bytes.length - (bytes.length % 2);
  const units = [];
  for (let i = 0; i + 1 < end; i += 2) units.push(bytes[i] | (bytes[i + 1] << 8));
  // A high surrogate at the end of a streamed chunk waits for its pair; at the end of the input,
  // it and an odd trailing byte make one error together.
  const last = units.at(-1);
  const highAtEnd = last >= 0xd800 && last <= 0xdbff;
  if (stream && highAtEnd) {
    units.pop();
    end -= 2;
  } else if (!stream && highAtEnd && bytes.length % 2 === 1) {
    units.pop();
  }
  let text = '';
  for (let i = 0; i < units.length; i += 8192)
    text += String.fromCharCode.apply(null, units.slice(i, i + 8192));
  if (fatal && !text.isWellFormed()) throw codes.ERR_ENCODING_INVALID_ENCODED_DATA('utf-16le');
  text = text.toWellFormed();
  if (!stream && bytes.length % 2 === 1) {
    if (fatal) throw codes.ERR_ENCODING_INVALID_ENCODED_DATA('utf-16le');
    text += '\ufffd';
    end = bytes.length;
  }
  return [text, end];
}

// windows-1252 bytes 0x80-0x9F (the rest of the range maps to the same code point as latin1).
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]; // biome-ignore format: a table

function windows1252Decode(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = Array.from(bytes.subarray(i, i + 8192), (b) =>
      b >= 0x80 && b <= 0x9f ? WINDOWS_1252_HIGH[b - 0x80] : b,
    );
    text += String.fromCharCode.apply(null, chunk);
  }
  return [text, bytes.length];
}

const LABELS = new Map();
for (const [encoding, labels] of [
  ['utf-8', ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']],
  ['utf-16le', ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le']],
  [
    'windows-1252',
    [
      'ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100',
      'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252',
      'x-cp1252',
    ],
  ], // biome-ignore format: label lists
]) {
  for (const label of labels) LABELS.set(label, encoding);
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }

  encode(input = '') {
    return utf8Encode(input);
  }

  encodeInto(src, dest) {
    const str = String(src);
    let read = 0;
    let written = 0;
    for (const ch of str) {
      const bytes = utf8Encode(ch);
      if (written + bytes.length > dest.length) break;
      dest.set(bytes, written);
      written += bytes.length;
      read += ch.length;
    }
    return { read, written };
  }

  [customInspect](_depth, options, inspect) {
    return inspect({ encoding: this.encoding }, options);
  }
}

function toBytes(input) {
  if (input === undefined) return new Uint8Array(0);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (
    input instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer === 'function' && input instanceof SharedArrayBuffer)
  ) {
    return new Uint8Array(input);
  }
  throw makeNodeError(
    TypeError,
    'ERR_INVALID_ARG_TYPE',
    'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.',
  );
}

class TextDecoder {
  #encoding;
  #fatal;
  #ignoreBOM;
  #pending = new Uint8Array(0);
  #started = false;

  constructor(label = 'utf-8', options = {}) {
    const encoding = LABELS.get(String(label).trim().toLowerCase());
    if (encoding === undefined) throw codes.ERR_ENCODING_NOT_SUPPORTED(label);
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw codes.ERR_INVALID_ARG_TYPE('options', 'object', options);
    }
    this.#encoding = encoding;
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }

  get encoding() {
    return this.#encoding;
  }
  get fatal() {
    return this.#fatal;
  }
  get ignoreBOM() {
    return this.#ignoreBOM;
  }

  decode(input = undefined, options = {}) {
    let bytes = toBytes(input);
    const stream = Boolean(options?.stream);
    if (this.#pending.length > 0) {
      const joined = new Uint8Array(this.#pending.length + bytes.length);
      joined.set(this.#pending);
      joined.set(bytes, this.#pending.length);
      bytes = joined;
    }
    let text;
    let used;
    if (this.#encoding === 'utf-8') {
      try {
        [text, used] = utf8Decode(bytes, this.#fatal, stream);
      } catch (err) {
        this.#reset();
        throw err;
      }
    } else if (this.#encoding === 'utf-16le') {
      try {
        [text, used] = utf16leDecode(bytes, this.#fatal, stream);
      } catch (err) {
        this.#reset();
        throw err;
      }
    } else [text, used] = windows1252Decode(bytes);
    this.#pending = bytes.slice(used);
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (!this.#ignoreBOM && this.#encoding !== 'windows-1252' && text.charCodeAt(0) === 0xfeff)
        text = text.slice(1);
    }
    if (!stream) this.#reset();
    return text;
  }

  #reset() {
    this.#pending = new Uint8Array(0);
    this.#started = false;
  }

  [customInspect](_depth, options, inspect) {
    const shown = { encoding: this.#encoding, fatal: this.#fatal, ignoreBOM: this.#ignoreBOM };
    return `TextDecoder ${inspect(shown, options)}`;
  }
}

Object.defineProperty(TextEncoder.prototype, Symbol.toStringTag, {
  value: 'TextEncoder',
  configurable: true,
});
Object.defineProperty(TextDecoder.prototype, Symbol.toStringTag, {
  value: 'TextDecoder',
  configurable: true,
});

module.exports = { TextEncoder, TextDecoder, utf8Encode, utf8Decode };
