'use strict';
// node:readline/promises — the readline Interface with question() returning a promise, and the
// Readline class that batches cursor moves (commit() writes them).
const readline = require('node:readline');
const { AbortError, codes, validateAbortSignal } = require('internal/errors');

const { kQuestion, kQuestionCancel } = readline[Symbol.for('tabcode.readline.internals')];

function Interface(input, output, completer, terminal) {
  if (!(this instanceof Interface)) return new Interface(input, output, completer, terminal);
  readline.Interface.call(this, input, output, completer, terminal);
}
Object.setPrototypeOf(Interface.prototype, readline.Interface.prototype);
Object.setPrototypeOf(Interface, readline.Interface);

/** question(query[, { signal }]): resolves with the next line (rejects with AbortError on abort). */
Interface.prototype.question = function (query, options = {}) {
  return new Promise((resolve, reject) => {
    let cb = resolve;
    if (options?.signal) {
      validateAbortSignal(options.signal, 'options.signal');
      if (options.signal.aborted) {
        reject(new AbortError(undefined, { cause: options.signal.reason }));
        return;
      }
      const onAbort = () => {
        this[kQuestionCancel]();
        reject(new AbortError(undefined, { cause: options.signal.reason }));
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      cb = (answer) => {
        options.signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
    }
    this[kQuestion](query, cb);
  });
};

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

/** Cursor edits queued on a stream and written together by commit(). */
class Readline {
  #stream;
  #todo = [];
  #autoCommit;

  constructor(stream, options = undefined) {
    if (!stream || typeof stream.write !== 'function')
      throw codes.ERR_INVALID_ARG_TYPE('stream', 'Writable', stream);
    this.#stream = stream;
    this.#autoCommit = !!options?.autoCommit;
  }

  #queue(fn) {
    if (this.#autoCommit) fn(this.#stream);
    else this.#todo.push(fn);
    return this;
  }

  cursorTo(x, y) {
    return this.#queue((s) => readline.cursorTo(s, x, y));
  }

  moveCursor(dx, dy) {
    return this.#queue((s) => readline.moveCursor(s, dx, dy));
  }

  clearLine(dir) {
    return this.#queue((s) => readline.clearLine(s, dir));
  }

  clearScreenDown() {
    return this.#queue((s) => readline.clearScreenDown(s));
  }

  commit() {
    const todo = this.#todo;
    this.#todo = [];
    for (const fn of todo) fn(this.#stream);
    return Promise.resolve();
  }

  rollback() {
    this.#todo = [];
    return this;
  }
}

module.exports = { Interface, Readline, createInterface };
