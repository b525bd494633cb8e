'use strict';
// WHATWG URL host parsing: IPv4 (with hex and octal parts), IPv6 (compressed, embedded IPv4), opaque
// hosts for non-special schemes, and domains (percent-decoded, mapped to lower case and NFKC, then
// punycode for non-ASCII labels). The IDNA mapping is the common subset of UTS #46, not the full table.

const { utf8Encode, utf8Decode } = require('internal/encoding');

const FORBIDDEN_HOST = new Set([
  '\u0000',
  '\t',
  '\n',
  '\r',
  ' ',
  '#',
  '/',
  ':',
  '<',
  '>',
  '?',
  '@',
  '[',
  '\\',
  ']',
  '^',
  '|',
]);

function isForbiddenDomainCodePoint(c) {
  const code = c.codePointAt(0);
  return FORBIDDEN_HOST.has(c) || code <= 0x1f || c === '%' || code === 0x7f;
}

const hex2 = (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** Percent-encodes code point `c` (a string) when `inSet(codePoint)` says so. */
function percentEncode(c, inSet) {
  if (!inSet(c.codePointAt(0))) return c;
  let out = '';
  for (const byte of utf8Encode(c)) out += hex2(byte);
  return out;
}

function percentEncodeString(input, inSet) {
  let out = '';
  for (const c of input) out += percentEncode(c, inSet);
  return out;
}

const isHex = (code) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);

/** Percent-decodes the UTF-8 bytes of `input`. */
function percentDecodeBytes(input) {
  const bytes = utf8Encode(input);
  const out = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out.push(Number.parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16));
      i += 2;
    } else {
      out.push(bytes[i]);
    }
  }
  return new Uint8Array(out);
}

const C0_CONTROL = (code) => code < 0x20 || code > 0x7e;

// ---- punycode (RFC 3492) ----
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta, numPoints, firstTime) {
  let d = firstTime ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

const digitChar = (d) => String.fromCharCode(d + 22 + 75 * (d < 26));

function punycodeEncode(label) {
  const input = [...label].map((c) => c.codePointAt(0));
  let output = input
    .filter((c) => c < 0x80)
    .map((c) => String.fromCharCode(c))
    .join('');
  const basicLength = output.length;
  let handled = basicLength;
  if (basicLength > 0) output += '-';
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < input.length) {
    const m = Math.min(...input.filter((c) => c >= n));
    delta += (m - n) * (handled + 1);
    n = m;
    for (const c of input) {
      if (c < n) delta++;
      if (c === n) {
        let q = delta;
        for (let k = BASE; ; k += BASE) {
          const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
          if (q < t) break;
          output += digitChar(t + ((q - t) % (BASE - t)));
          q = Math.floor((q - t) / (BASE - t));
        }
        output += digitChar(q);
        bias = adapt(delta, handled + 1, handled === basicLength);
        delta = 0;
        handled++;
      }
    }
    delta++;
    n++;
  }
  return output;
}

function punycodeDecode(input) {
  const output = [];
  const basic = input.lastIndexOf('-');
  for (let i = 0; i < Math.max(basic, 0); i++) {
    if (input.charCodeAt(i) >= 0x80) return null;
    output.push(input.charCodeAt(i));
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let pos = basic > 0 ? basic + 1 : 0; pos < input.length; ) {
    const oldi = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      if (pos >= input.length) return null;
      const code = input.charCodeAt(pos++);
      let digit = BASE;
      if (code >= 48 && code <= 57) digit = code - 22;
      else if (code >= 65 && code <= 90) digit = code - 65;
      else if (code >= 97 && code <= 122) digit = code - 97;
      if (digit >= BASE) return null;
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
    }
    bias = adapt(i - oldi, output.length + 1, oldi === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

// Code points UTS #46 maps to nothing (soft hyphen, zero-width space and joiners, BOM, variation selectors).
const IGNORED_IN_DOMAINS = new Set([
  0xad,
  0x200b,
  0x2060,
  0xfeff,
  0x34f,
  0x180b,
  0x180c,
  0x180d,
  ...Array.from({ length: 16 }, (_, i) => 0xfe00 + i),
]);
const isAscii = (text) => [...text].every((ch) => ch.charCodeAt(0) < 0x80);

/** UTS #46 ToASCII, approximately: map, then punycode each non-ASCII label. null on failure. */
function domainToASCII(domain) {
  const mapped = domain
    .split('')
    .filter((ch) => !IGNORED_IN_DOMAINS.has(ch.charCodeAt(0)))
    .join('')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u3002\uff0e\uff61]/g, '.');
  const labels = mapped.split('.');
  const out = [];
  for (const label of labels) {
    if (label.startsWith('xn--')) {
      const decoded = punycodeDecode(label.slice(4));
      if (decoded === null || decoded === '' || isAscii(decoded)) return null;
      out.push(label);
    } else if (!isAscii(label)) {
      out.push(`xn--${punycodeEncode(label)}`);
    } else {
      out.push(label);
    }
  }
  return out.join('.');
}

/** Domain to Unicode: punycode labels decoded; anything else as it is. */
function domainToUnicode(domain) {
  return domain
    .split('.')
    .map((label) => (label.startsWith('xn--') ? (punycodeDecode(label.slice(4)) ?? label) : label))
    .join('.');
}

// ---- IPv4 ----
function parseIPv4Number(input) {
  if (input === '') return null;
  let text = input;
  let radix = 10;
  if (text.length >= 2 && (text.startsWith('0x') || text.startsWith('0X'))) {
    text = text.slice(2);
    radix = 16;
  } else if (text.length >= 2 && text.startsWith('0')) {
    text = text.slice(1);
    radix = 8;
  }
  if (text === '') return 0;
  const valid = radix === 10 ? /^[0-9]+$/ : radix === 16 ? /^[0-9a-fA-F]+$/ : /^[0-7]+$/;
  if (!valid.test(text)) return null;
  return Number.parseInt(text, radix);
}

function endsInANumber(input) {
  const parts = input.split('.');
  if (parts.at(-1) === '') {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts.at(-1);
  if (last !== '' && /^[0-9]+$/.test(last)) return true;
  return parseIPv4Number(last) !== null;
}

function parseIPv4(input) {
  const parts = input.split('.');
  if (parts.at(-1) === '' && parts.length > 1) parts.pop();
  if (parts.length > 4) return null;
  const numbers = [];
  for (const part of parts) {
    const n = parseIPv4Number(part);
    if (n === null) return null;
    numbers.push(n);
  }
  for (let i = 0; i < numbers.length - 1; i++) if (numbers[i] > 255) return null;
  if (numbers.at(-1) >= 256 ** (5 - numbers.length)) return null;
  let ipv4 = numbers.at(-1);
  for (let i = 0; i < numbers.length - 1; i++) ipv4 += numbers[i] * 256 ** (3 - i);
  return ipv4;
}

function serializeIPv4(address) {
  const out = [];
  let n = address;
  for (let i = 0; i < 4; i++) {
    out.unshift(String(n % 256));
    n = Math.floor(n / 256);
  }
  return out.join('.');
}

// ---- IPv6 ----
function parseIPv6(input) {
  const address = [0, 0, 0, 0, 0, 0, 0, 0];
  let pieceIndex = 0;
  let compress = null;
  let pointer = 0;
  const at = (i) => input[i];
  if (at(pointer) === ':') {
    if (at(pointer + 1) !== ':') return null;
    pointer += 2;
    pieceIndex++;
    compress = pieceIndex;
  }
  while (at(pointer) !== undefined) {
    if (pieceIndex === 8) return null;
    if (at(pointer) === ':') {
      if (compress !== null) return null;
      pointer++;
      pieceIndex++;
      compress = pieceIndex;
      continue;
    }
    let value = 0;
    let length = 0;
    while (length < 4 && at(pointer) !== undefined && /[0-9a-fA-F]/.test(at(pointer))) {
      value = value * 16 + Number.parseInt(at(pointer), 16);
      pointer++;
      length++;
    }
    if (at(pointer) === '.') {
      if (length === 0) return null;
      pointer -= length;
      if (pieceIndex > 6) return null;
      let numbersSeen = 0;
      while (at(pointer) !== undefined) {
        let ipv4Piece = null;
        if (numbersSeen > 0) {
          if (at(pointer) === '.' && numbersSeen < 4) pointer++;
          else return null;
        }
        if (at(pointer) === undefined || !/[0-9]/.test(at(pointer))) return null;
        while (at(pointer) !== undefined && /[0-9]/.test(at(pointer))) {
          const number = Number(at(pointer));
          if (ipv4Piece === null) ipv4Piece = number;
          else if (ipv4Piece === 0) return null;
          else ipv4Piece = ipv4Piece * 10 + number;
          if (ipv4Piece > 255) return null;
          pointer++;
        }
        address[pieceIndex] = address[pieceIndex] * 0x100 + ipv4Piece;
        numbersSeen++;
        if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
      }
      if (numbersSeen !== 4) return null;
      break;
    }
    if (at(pointer) === ':') {
      pointer++;
      if (at(pointer) === undefined) return null;
    } else if (at(pointer) !== undefined) {
      return null;
    }
    address[pieceIndex] = value;
    pieceIndex++;
  }
  if (compress !== null) {
    let swaps = pieceIndex - compress;
    pieceIndex = 7;
    while (pieceIndex !== 0 && swaps > 0) {
      const tmp = address[compress + swaps - 1];
      address[compress + swaps - 1] = address[pieceIndex];
      address[pieceIndex] = tmp;
      pieceIndex--;
      swaps--;
    }
  } else if (pieceIndex !== 8) {
    return null;
  }
  return address;
}

function serializeIPv6(address) {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (address[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && address[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  let out = '';
  let ignore0 = false;
  for (let i = 0; i < 8; i++) {
    if (ignore0 && address[i] === 0) continue;
    ignore0 = false;
    if (bestStart === i) {
      out += i === 0 ? '::' : ':';
      ignore0 = true;
      continue;
    }
    out += address[i].toString(16);
    if (i !== 7) out += ':';
  }
  return out;
}

/**
 * Parses a host as the URL standard says; returns the serialized host ("example.com", "127.0.0.1",
 * "[::1]") or null for failure.
 */
function parseHost(input, isOpaque) {
  if (input.startsWith('[')) {
    if (!input.endsWith(']')) return null;
    const address = parseIPv6(input.slice(1, -1));
    return address === null ? null : `[${serializeIPv6(address)}]`;
  }
  if (isOpaque) {
    for (const c of input) if (FORBIDDEN_HOST.has(c)) return null;
    return percentEncodeString(input, C0_CONTROL);
  }
  const domain = utf8Decode(percentDecodeBytes(input))[0];
  const ascii = domainToASCII(domain);
  if (ascii === null || ascii === '') return null;
  for (const c of ascii) if (isForbiddenDomainCodePoint(c)) return null;
  if (endsInANumber(ascii)) {
    const ipv4 = parseIPv4(ascii);
    return ipv4 === null ? null : serializeIPv4(ipv4);
  }
  return ascii;
}

module.exports = {
  parseHost,
  percentEncode,
  percentEncodeString,
  percentDecodeBytes,
  domainToASCII,
  domainToUnicode,
};
