'use strict';
// node:readline — createInterface({ input, output }) over a Readable: 'line' for each line (\n, \r\n
// or \r), the last unterminated line at the input's end, then 'pause' and 'close'; question(),
// prompt(), pause()/resume(), `for await (const line of rl)`, and the cursor helpers (ANSI escapes).
//
// Only the non-terminal mode exists here (what Node uses when input is piped): no raw mode, line
// editing, history or tab completion. `terminal: true` is accepted and treated as false.
const EventEmitter = require('node:events');
const {
  codes,
  makeNodeError,
  validateAbortSignal,
  validateFunction,
  validateString,
} = require('internal/errors');

const kQuestionCallback = Symbol('kQuestionCallback');
const kQuestion = Symbol('kQuestion');
const kQuestionCancel = Symbol('kQuestionCancel');
const kOldPrompt = Symbol('kOldPrompt');
const kPrompt = Symbol('kPrompt');
const kLineBuffer = Symbol('kLineBuffer');
const kSawReturnAt = Symbol('kSawReturnAt');
const kDecoder = Symbol('kDecoder');
const kClosed = Symbol('kClosed');
const kLineIterator = Symbol('kLineIterator');
const kNormalWrite = Symbol('kNormalWrite');
const kOnLine = Symbol('kOnLine');
const kWriteToOutput = Symbol('kWriteToOutput');

/** crlfDelay's floor (ms): a \r and a \n arriving within it make one line ending. */
const MIN_CRLF_DELAY = 100;
/** Lines the async iterator buffers before it pauses the input. */
const ITERATOR_HIGH_WATER_MARK = 1024;
const LINE_ENDING = /\r?\n|\r(?!\n)/g;

function errUseAfterClose() {
  return makeNodeError(Error, 'ERR_USE_AFTER_CLOSE', 'readline was closed');
}

function utf8Decoder() {
  try {
    return new (require('node:string_decoder').StringDecoder)('utf8');
  } catch {
    const decoder = new TextDecoder('utf-8');
    return { write: (b) => decoder.decode(b, { stream: true }), end: () => decoder.decode() };
  }
}

function Interface(input, output, completer, terminal) {
  if (!(this instanceof Interface)) return new Interface(input, output, completer, terminal);
  EventEmitter.call(this);
  let prompt = '> ';
  let crlfDelay;
  let signal;
  if (input?.input) {
    // createInterface({ input, output, ... })
    const options = input;
    output = options.output;
    completer = options.completer;
    terminal = options.terminal;
    signal = options.signal;
    if (options.prompt !== undefined) prompt = options.prompt;
    crlfDelay = options.crlfDelay;
    input = options.input;
  }
  if (completer !== undefined && typeof completer !== 'function') {
    throw codes.ERR_INVALID_ARG_VALUE('completer', completer);
  }
  if (!input || typeof input.on !== 'function') throw codes.ERR_INVALID_ARG_TYPE('input', 'Stream', input);
  if (signal) validateAbortSignal(signal, 'options.signal');

  this.output = output;
  this.input = input;
  this.completer = completer;
  this.crlfDelay = crlfDelay ? Math.max(MIN_CRLF_DELAY, crlfDelay) : MIN_CRLF_DELAY;
  this.terminal = false; // see the header: terminal mode is not implemented
  this.line = '';
  this.cursor = 0;
  this.history = [];
  this.paused = false;
  this[kClosed] = false;
  this[kQuestionCallback] = null;
  this[kLineBuffer] = null;
  this[kSawReturnAt] = 0;
  this[kDecoder] = utf8Decoder();
  this[kLineIterator] = undefined;
  this.setPrompt(prompt);

  const self = this;
  function ondata(data) {
    self[kNormalWrite](data);
  }
  function onend() {
    if (typeof self[kLineBuffer] === 'string' && self[kLineBuffer].length > 0)
      self.emit('line', self[kLineBuffer]);
    self.close();
  }
  function onerror(err) {
    self.emit('error', err);
  }
  input.on('error', onerror);
  input.on('data', ondata);
  input.on('end', onend);
  this.once('close', () => {
    input.removeListener('data', ondata);
    input.removeListener('error', onerror);
    input.removeListener('end', onend);
  });
  if (signal) {
    const onAborted = () => self.close();
    if (signal.aborted) process.nextTick(onAborted);
    else {
      signal.addEventListener('abort', onAborted, { once: true });
      self.once('close', () => signal.removeEventListener('abort', onAborted));
    }
  }
  if (typeof input.resume === 'function') input.resume();
}
Object.setPrototypeOf(Interface.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Interface, EventEmitter);

Interface.prototype.setPrompt = function (prompt) {
  validateString(prompt, 'prompt');
  this[kPrompt] = prompt;
};

Interface.prototype.getPrompt = function () {
  return this[kPrompt];
};

Interface.prototype[kWriteToOutput] = function (text) {
  validateString(text, 'stringToWrite');
  if (this.output !== null && this.output !== undefined) this.output.write(text);
};

/** Writes the prompt to output (and resumes a paused input). */
Interface.prototype.prompt = function () {
  if (this.paused) this.resume();
  this[kWriteToOutput](this[kPrompt]);
};

/** question(query[, { signal }], callback): the next line answers it instead of becoming 'line'. */
Interface.prototype.question = function (query, options, cb) {
  cb = typeof options === 'function' ? options : cb;
  if (options !== null && typeof options === 'object') {
    const { signal } = options;
    if (signal) {
      validateAbortSignal(signal, 'options.signal');
      if (signal.aborted) return;
      const onAbort = () => this[kQuestionCancel]();
      signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => signal.removeEventListener('abort', onAbort);
      const original = cb;
      cb =
        typeof cb === 'function'
          ? (answer) => {
              cleanup();
              return original(answer);
            }
          : cleanup;
    }
  }
  if (typeof cb === 'function') this[kQuestion](query, cb);
};

Interface.prototype[kQuestion] = function (query, cb) {
  if (this[kClosed]) throw errUseAfterClose();
  if (this[kQuestionCallback]) {
    this.prompt();
  } else {
    this[kOldPrompt] = this[kPrompt];
    this.setPrompt(query);
    this[kQuestionCallback] = cb;
    this.prompt();
  }
};

Interface.prototype[kQuestionCancel] = function () {
  if (this[kQuestionCallback]) {
    this[kQuestionCallback] = null;
    this.setPrompt(this[kOldPrompt]);
  }
};

Interface.prototype[kOnLine] = function (line) {
  if (this[kQuestionCallback]) {
    const cb = this[kQuestionCallback];
    this[kQuestionCallback] = null;
    this.setPrompt(this[kOldPrompt]);
    cb(line);
  } else {
    this.emit('line', line);
  }
};

/** Splits decoded input into lines; keeps an unterminated tail for the next chunk. */
Interface.prototype[kNormalWrite] = function (b) {
  if (b === undefined) return;
  let string = typeof b === 'string' ? b : this[kDecoder].write(b);
  if (this[kSawReturnAt] && Date.now() - this[kSawReturnAt] <= this.crlfDelay) {
    // A \r ended the previous chunk: a \n starting this one belongs to it.
    if (string.codePointAt(0) === 10) string = string.slice(1);
    this[kSawReturnAt] = 0;
  }
  LINE_ENDING.lastIndex = 0;
  let match = LINE_ENDING.exec(string);
  if (match !== null) {
    if (this[kLineBuffer]) {
      string = this[kLineBuffer] + string;
      this[kLineBuffer] = null;
      LINE_ENDING.lastIndex = 0;
      match = LINE_ENDING.exec(string);
    }
    this[kSawReturnAt] = string.endsWith('\r') ? Date.now() : 0;
    const indexes = [0, match.index, LINE_ENDING.lastIndex];
    for (let next = LINE_ENDING.exec(string); next !== null; next = LINE_ENDING.exec(string)) {
      indexes.push(next.index, LINE_ENDING.lastIndex);
    }
    const lastIndex = indexes.length - 1;
    this[kLineBuffer] = string.slice(indexes[lastIndex]);
    for (let i = 1; i < lastIndex; i += 2) {
      this[kOnLine](string.slice(indexes[i - 1], indexes[i]));
      if (this[kClosed]) return;
    }
  } else if (string) {
    this[kLineBuffer] = this[kLineBuffer] ? this[kLineBuffer] + string : string;
  }
};

/** Feeds `data` as if it came from input. */
Interface.prototype.write = function (data) {
  if (this[kClosed]) throw errUseAfterClose();
  if (this.paused) this.resume();
  this[kNormalWrite](data);
};

Interface.prototype.pause = function () {
  if (this.paused) return;
  if (typeof this.input.pause === 'function') this.input.pause();
  this.paused = true;
  this.emit('pause');
  return this;
};

Interface.prototype.resume = function () {
  if (!this.paused) return;
  if (typeof this.input.resume === 'function') this.input.resume();
  this.paused = false;
  this.emit('resume');
  return this;
};

/** Pauses the input and emits 'close' (once). */
Interface.prototype.close = function () {
  if (this[kClosed]) return;
  this.pause();
  this[kClosed] = true;
  this.emit('close');
};

Interface.prototype.getCursorPos = function () {
  return { rows: 0, cols: this.cursor };
};

if (Symbol.dispose) {
  Interface.prototype[Symbol.dispose] = function () {
    this.close();
  };
}

/** `for await (const line of rl)`: the lines from now on; ends at 'close'; break closes rl. */
Interface.prototype[Symbol.asyncIterator] = function () {
  this[kLineIterator] ??= createLineIterator(this);
  return this[kLineIterator];
};

function createLineIterator(rl) {
  const lines = [];
  const waiting = [];
  let error = null;
  let done = false;
  let pausedByUs = false;
  const settle = () => {
    while (waiting.length > 0 && (lines.length > 0 || error || done)) {
      const { resolve, reject } = waiting.shift();
      if (lines.length > 0) resolve({ value: lines.shift(), done: false });
      else if (error) {
        reject(error);
        error = null;
        done = true;
      } else resolve({ value: undefined, done: true });
    }
    if (pausedByUs && lines.length < ITERATOR_HIGH_WATER_MARK / 2 && !done) {
      pausedByUs = false;
      rl.resume();
    }
  };
  const onLine = (line) => {
    lines.push(line);
    if (lines.length >= ITERATOR_HIGH_WATER_MARK && !rl.paused) {
      pausedByUs = true;
      rl.pause();
    }
    settle();
  };
  const onClose = () => {
    done = true;
    cleanup();
    settle();
  };
  const onError = (err) => {
    error = err;
    cleanup();
    settle();
  };
  function cleanup() {
    rl.removeListener('line', onLine);
    rl.removeListener('close', onClose);
    rl.removeListener('error', onError);
  }
  rl.on('line', onLine);
  rl.on('close', onClose);
  rl.on('error', onError);
  return {
    next() {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        settle();
      });
    },
    return() {
      done = true;
      lines.length = 0;
      cleanup();
      // Node closes the interface once the loop has left (after break, the code below it runs first).
      process.nextTick(() => rl.close());
      settle();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      done = true;
      cleanup();
      rl.close();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

const ESC = '\x1b[';

function writeEscape(stream, data, callback) {
  if (callback !== undefined) validateFunction(callback, 'callback');
  if (stream === null || stream === undefined) {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  return stream.write(data, callback);
}

/** Clears the current line: dir < 0 left of the cursor, > 0 right of it, 0 all. */
function clearLine(stream, dir, callback) {
  const type = dir < 0 ? `${ESC}1K` : dir > 0 ? `${ESC}0K` : `${ESC}2K`;
  return writeEscape(stream, type, callback);
}

function clearScreenDown(stream, callback) {
  return writeEscape(stream, `${ESC}0J`, callback);
}

function cursorTo(stream, x, y, callback) {
  if (typeof y === 'function') {
    callback = y;
    y = undefined;
  }
  if (Number.isNaN(x)) throw codes.ERR_INVALID_ARG_VALUE('x', x);
  if (Number.isNaN(y)) throw codes.ERR_INVALID_ARG_VALUE('y', y);
  if (typeof x !== 'number') {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  const data = typeof y !== 'number' ? `${ESC}${x + 1}G` : `${ESC}${y + 1};${x + 1}H`;
  return writeEscape(stream, data, callback);
}

function moveCursor(stream, dx, dy, callback) {
  let data = '';
  if (dx < 0) data += `${ESC}${-dx}D`;
  else if (dx > 0) data += `${ESC}${dx}C`;
  if (dy < 0) data += `${ESC}${-dy}A`;
  else if (dy > 0) data += `${ESC}${dy}B`;
  if (data === '') {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  return writeEscape(stream, data, callback);
}

/** Keypress events need a terminal, which this runtime's streams are not: nothing to set up. */
function emitKeypressEvents() {}

module.exports = {
  Interface,
  createInterface,
  clearLine,
  clearScreenDown,
  cursorTo,
  moveCursor,
  emitKeypressEvents,
};

// For readline/promises, which builds on the same Interface.
Object.defineProperty(module.exports, Symbol.for('tabcode.readline.internals'), {
  value: { kQuestion, kQuestionCancel },
});

Object.defineProperty(module.exports, 'promises', {
  configurable: true,
  enumerable: true,
  get() {
    return require('node:readline/promises');
  },
});
