'use strict';
// crypto: random values (the browser's generator), hashes and HMACs (md5, sha1, sha224/256/384/512)
// through the host, randomUUID, randomInt, timingSafeEqual, crypto.hash. Ciphers, keys and signatures
// are not available and say so.

const binding = require('internal/binding');
const { Buffer } = require('buffer');

function bytesOf(data, encoding) {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  const err = new TypeError(
    `The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${typeof data}`,
  );
  err.code = 'ERR_INVALID_ARG_TYPE';
  throw err;
}

function concat(chunks) {
  return Buffer.concat(chunks);
}

function output(buf, encoding) {
  return encoding === undefined || encoding === 'buffer' ? buf : buf.toString(encoding);
}

function checkAlgorithm(name) {
  const alg = String(name).toLowerCase().replace(/^rsa-/, '');
  const norm = alg.replace('-', '');
  if (!['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'].includes(norm)) {
    const err = new Error(`Digest method not supported`);
    err.code = 'ERR_OSSL_EVP_UNSUPPORTED';
    throw err;
  }
  return norm;
}

class Hash {
  constructor(algorithm, key) {
    this._alg = checkAlgorithm(algorithm);
    this._key = key;
    this._chunks = [];
    this._done = false;
  }
  update(data, encoding) {
    if (this._done) {
      const err = new Error('Digest already called');
      err.code = 'ERR_CRYPTO_HASH_FINALIZED';
      throw err;
    }
    this._chunks.push(bytesOf(data, encoding));
    return this;
  }
  digest(encoding) {
    if (this._done) {
      const err = new Error('Digest already called');
      err.code = 'ERR_CRYPTO_HASH_FINALIZED';
      throw err;
    }
    this._done = true;
    const data = concat(this._chunks);
    const key = this._key === undefined ? undefined : bytesOf(this._key);
    const result = binding.digest(
      this._alg,
      toArrayBuffer(data),
      key === undefined ? undefined : toArrayBuffer(key),
    );
    if (result?.__error) {
      const err = new Error(result.message);
      err.code = result.code;
      throw err;
    }
    return output(Buffer.from(result), encoding);
  }
  copy() {
    const h = new Hash(this._alg, this._key);
    h._chunks = [...this._chunks];
    return h;
  }
}

function toArrayBuffer(buf) {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

function randomFill(view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i += 65536) {
    const n = Math.min(65536, bytes.length - i);
    bytes.set(new Uint8Array(binding.random(n)), i);
  }
  return view;
}

function randomBytes(size, callback) {
  if (!Number.isInteger(size) || size < 0) {
    const err = new RangeError(
      `The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ${size}`,
    );
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  const buf = randomFill(Buffer.alloc(size));
  if (typeof callback === 'function') {
    process.nextTick(callback, null, buf);
    return undefined;
  }
  return buf;
}

function randomUUID() {
  const b = randomFill(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function randomInt(min, max, callback) {
  if (typeof max === 'function' || max === undefined) [callback, max, min] = [max, min, 0];
  const range = max - min;
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || range <= 0) {
    const err = new RangeError(
      `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`,
    );
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  // Rejection sampling over 48 random bits, as Node does.
  const limit = 2 ** 48 - (2 ** 48 % range);
  let n;
  do {
    const b = randomFill(new Uint8Array(6));
    n = b.reduce((acc, x) => acc * 256 + x, 0);
  } while (n >= limit);
  const value = min + (n % range);
  if (typeof callback === 'function') {
    process.nextTick(callback, null, value);
    return undefined;
  }
  return value;
}

function timingSafeEqual(a, b) {
  if (a.byteLength !== b.byteLength) {
    const err = new RangeError('Input buffers must have the same byte length');
    err.code = 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH';
    throw err;
  }
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function unsupported(name) {
  return () => {
    const err = new Error(
      `crypto.${name} is not available in tabcode's built-in sandbox (hashes, HMAC and random values are).`,
    );
    err.code = 'ERR_NOT_SUPPORTED';
    throw err;
  };
}

const webcrypto = {
  getRandomValues: (view) => {
    if (view.byteLength > 65536) {
      const err = new Error(
        `The ArrayBufferView's byte length (${view.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`,
      );
      err.name = 'QuotaExceededError';
      throw err;
    }
    return randomFill(view);
  },
  randomUUID,
  subtle: undefined,
};

module.exports = {
  createHash: (algorithm) => new Hash(algorithm),
  createHmac: (algorithm, key) => new Hash(algorithm, key ?? ''),
  hash: (algorithm, data, encoding = 'hex') => new Hash(algorithm).update(data).digest(encoding),
  getHashes: () => ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'],
  randomBytes,
  pseudoRandomBytes: randomBytes,
  randomFillSync: (buf, offset = 0, size) => {
    randomFill(new Uint8Array(buf.buffer, buf.byteOffset + offset, size ?? buf.byteLength - offset));
    return buf;
  },
  randomFill: (buf, ...rest) => {
    const cb = rest.pop();
    randomFill(buf);
    process.nextTick(cb, null, buf);
  },
  randomUUID,
  randomInt,
  timingSafeEqual,
  getRandomValues: webcrypto.getRandomValues,
  webcrypto,
  subtle: undefined,
  constants: {},
  Hash,
  Hmac: Hash,
  createCipheriv: unsupported('createCipheriv'),
  createDecipheriv: unsupported('createDecipheriv'),
  createSign: unsupported('createSign'),
  createVerify: unsupported('createVerify'),
  generateKeyPairSync: unsupported('generateKeyPairSync'),
  generateKeyPair: unsupported('generateKeyPair'),
  pbkdf2Sync: unsupported('pbkdf2Sync'),
  pbkdf2: unsupported('pbkdf2'),
  scryptSync: unsupported('scryptSync'),
  scrypt: unsupported('scrypt'),
  createPublicKey: unsupported('createPublicKey'),
  createPrivateKey: unsupported('createPrivateKey'),
  createSecretKey: unsupported('createSecretKey'),
  publicEncrypt: unsupported('publicEncrypt'),
  privateDecrypt: unsupported('privateDecrypt'),
};
if (typeof globalThis.crypto === 'undefined') {
  Object.defineProperty(globalThis, 'crypto', {
    value: webcrypto,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
