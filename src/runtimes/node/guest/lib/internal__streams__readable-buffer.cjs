'use strict';
// Readable's buffer arithmetic: how much a read(n) takes, and taking it off the front of the buffer.
const { errors } = require('internal/streams/utils');

let BufferClass;
function getBuffer() {
  BufferClass ??= require('node:buffer').Buffer;
  return BufferClass;
}

const MAX_HWM = 0x40000000;
function computeNewHighWaterMark(n) {
  if (n > MAX_HWM) throw errors.ERR_OUT_OF_RANGE('size', '<= 1GiB', n);
  n--;
  n |= n >>> 1;
  n |= n >>> 2;
  n |= n >>> 4;
  n |= n >>> 8;
  n |= n >>> 16;
  return n + 1;
}

function howMuchToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (Number.isNaN(n)) {
    if (state.flowing && state.length) return state.buffer[0].length;
    return state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}

/** Takes `n` bytes (or characters, or one object) off the front of the buffer. */
function fromList(n, state) {
  if (state.length === 0) return null;
  const buf = state.buffer;
  if (state.objectMode) return buf.shift();
  if (!n || n >= state.length) {
    let ret;
    if (state.decoder) ret = buf.join('');
    else if (buf.length === 1) ret = buf[0];
    else ret = getBuffer().concat(buf, state.length);
    state.buffer = [];
    return ret;
  }
  const first = buf[0];
  if (n < first.length) {
    buf[0] = first.slice(n);
    return first.slice(0, n);
  }
  if (n === first.length) return buf.shift();
  if (state.decoder) {
    let ret = '';
    while (ret.length < n) {
      const str = buf[0];
      const need = n - ret.length;
      if (str.length <= need) {
        ret += str;
        buf.shift();
      } else {
        ret += str.slice(0, need);
        buf[0] = str.slice(need);
      }
    }
    return ret;
  }
  const ret = getBuffer().allocUnsafe(n);
  let copied = 0;
  while (copied < n) {
    const data = buf[0];
    const need = n - copied;
    if (data.length <= need) {
      ret.set(data, copied);
      copied += data.length;
      buf.shift();
    } else {
      ret.set(data.subarray(0, need), copied);
      buf[0] = data.slice(need);
      copied += need;
    }
  }
  return ret;
}

module.exports = { computeNewHighWaterMark, howMuchToRead, fromList };
