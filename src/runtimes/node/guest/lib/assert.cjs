'use strict';
// node:assert (legacy mode, with assert.strict). Messages, error properties and argument errors are
// Node's; see internal/assert/assertion-error for how messages are generated. CallTracker is
// provided in its basic form (calls, verify, report, getCalls, reset).

const { AssertionError } = require('internal/assert/assertion-error');
const { failingCallSource } = require('internal/assert/call-site');
const { isDeepEqual, isDeepStrictEqual } = require('internal/util/comparisons');
const { inspect } = require('internal/util/inspect');
const types = require('node:util/types');
const { codes, emitWarning, validateFunction } = require('internal/errors');

const NO_EXCEPTION = Symbol('no exception');
const isError = (value) => types.isNativeError(value) || value instanceof Error;

function innerFail(obj) {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

function innerOk(fn, argLen, value, message) {
  if (value) return;
  let generatedMessage = false;
  let text = message;
  if (argLen === 0) {
    generatedMessage = true;
    text = 'No value argument passed to `assert.ok()`';
  } else if (text == null) {
    generatedMessage = true;
    const source = failingCallSource(fn);
    if (source !== undefined) text = `The expression evaluated to a falsy value:\n\n  ${source}\n`;
  } else if (isError(text)) {
    throw text;
  }
  const err = new AssertionError({
    actual: value,
    expected: true,
    message: text,
    operator: '==',
    stackStartFn: fn,
  });
  err.generatedMessage = generatedMessage;
  throw err;
}

function ok(...args) {
  innerOk(ok, args.length, ...args);
}

const assert = function assert(...args) {
  innerOk(assert, args.length, ...args);
};

let failWarned = false;
function fail(...args) {
  const [actual, expected, message, operator, stackStartFn] = args;
  const argsLen = args.length;
  let internalMessage = false;
  let msg = message;
  let act = actual;
  let op = operator;
  if (actual == null && argsLen <= 1) {
    internalMessage = true;
    msg = 'Failed';
  } else if (argsLen === 1) {
    msg = actual;
    act = undefined;
  } else {
    if (!failWarned) {
      failWarned = true;
      emitWarning(
        'assert.fail() with more than one argument is deprecated. Please use assert.strictEqual() instead or only pass a message.',
        'DeprecationWarning',
        'DEP0094',
      );
    }
    if (argsLen === 2) op = '!=';
  }
  if (msg instanceof Error) throw msg;
  const err = new AssertionError({
    actual: act,
    expected,
    operator: op === undefined ? 'fail' : op,
    stackStartFn: stackStartFn || fail,
    message: msg,
  });
  if (internalMessage) err.generatedMessage = true;
  throw err;
}

function requireTwo(args) {
  if (args.length < 2) throw codes.ERR_MISSING_ARGS('actual', 'expected');
}

const bothNaN = (a, b) => Number.isNaN(a) && Number.isNaN(b);

function equal(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  // biome-ignore lint/suspicious/noDoubleEquals: assert.equal is loose equality
  if (actual != expected && !bothNaN(actual, expected)) {
    innerFail({ actual, expected, message, operator: '==', stackStartFn: equal });
  }
}

function notEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  // biome-ignore lint/suspicious/noDoubleEquals: assert.notEqual is loose inequality
  if (actual == expected || bothNaN(actual, expected)) {
    innerFail({ actual, expected, message, operator: '!=', stackStartFn: notEqual });
  }
}

function deepEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  if (!isDeepEqual(actual, expected))
    innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: deepEqual });
}

function notDeepEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  if (isDeepEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: notDeepEqual });
  }
}

function deepStrictEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  if (!isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: deepStrictEqual });
  }
}

function notDeepStrictEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  if (isDeepStrictEqual(actual, expected)) {
    innerFail({
      actual,
      expected,
      message,
      operator: 'notDeepStrictEqual',
      stackStartFn: notDeepStrictEqual,
    });
  }
}

function strictEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  if (!Object.is(actual, expected))
    innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: strictEqual });
}

function notStrictEqual(...args) {
  requireTwo(args);
  const [actual, expected, message] = args;
  if (Object.is(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: notStrictEqual });
  }
}

class Comparison {
  constructor(obj, keys, actual) {
    for (const key of keys) {
      if (key in obj) {
        if (
          actual !== undefined &&
          typeof actual[key] === 'string' &&
          types.isRegExp(obj[key]) &&
          obj[key].exec(actual[key]) !== null
        ) {
          this[key] = actual[key];
        } else {
          this[key] = obj[key];
        }
      }
    }
  }
}

function compareExceptionKey(actual, expected, key, message, keys, fn) {
  if (!(key in actual) || !isDeepStrictEqual(actual[key], expected[key])) {
    if (!message) {
      const a = new Comparison(actual, keys);
      const b = new Comparison(expected, keys, actual);
      const err = new AssertionError({
        actual: a,
        expected: b,
        operator: 'deepStrictEqual',
        stackStartFn: fn,
      });
      err.actual = actual;
      err.expected = expected;
      err.operator = fn.name;
      throw err;
    }
    innerFail({ actual, expected, message, operator: fn.name, stackStartFn: fn });
  }
}

function expectedException(actual, expected, message, fn) {
  let generatedMessage = false;
  let text = message;
  let throwError = false;
  if (typeof expected !== 'function') {
    if (types.isRegExp(expected)) {
      const str = String(actual);
      if (expected.exec(str) !== null) return;
      if (!text) {
        generatedMessage = true;
        text = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
      }
      throwError = true;
    } else if (typeof actual !== 'object' || actual === null) {
      const err = new AssertionError({
        actual,
        expected,
        message: text,
        operator: 'deepStrictEqual',
        stackStartFn: fn,
      });
      err.operator = fn.name;
      throw err;
    } else {
      const keys = Object.keys(expected);
      if (expected instanceof Error) keys.push('name', 'message');
      else if (keys.length === 0)
        throw codes.ERR_INVALID_ARG_VALUE('error', expected, 'may not be an empty object');
      for (const key of keys) {
        if (
          typeof actual[key] === 'string' &&
          types.isRegExp(expected[key]) &&
          expected[key].exec(actual[key]) !== null
        ) {
          continue;
        }
        compareExceptionKey(actual, expected, key, text, keys, fn);
      }
      return;
    }
  } else if (expected.prototype !== undefined && actual instanceof expected) {
    return;
  } else if (Object.prototype.isPrototypeOf.call(Error, expected)) {
    if (!text) {
      generatedMessage = true;
      text = `The error is expected to be an instance of "${expected.name}". Received `;
      if (isError(actual)) {
        const name = actual.constructor?.name || actual.name;
        text +=
          expected.name === name ? 'an error with identical name but a different prototype.' : `"${name}"`;
        if (actual.message) text += `\n\nError message:\n\n${actual.message}`;
      } else {
        text += `"${inspect(actual, { depth: -1 })}"`;
      }
    }
    throwError = true;
  } else {
    const res = Reflect.apply(expected, {}, [actual]);
    if (res !== true) {
      if (!text) {
        generatedMessage = true;
        const name = expected.name ? `"${expected.name}" ` : '';
        text = `The ${name}validation function is expected to return "true". Received ${inspect(res)}`;
        if (isError(actual)) text += `\n\nCaught error:\n\n${actual}`;
      }
      throwError = true;
    }
  }
  if (throwError) {
    const err = new AssertionError({ actual, expected, message: text, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function getActual(fn) {
  validateFunction(fn, 'fn');
  try {
    fn();
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

function checkIsPromise(obj) {
  return (
    types.isPromise(obj) ||
    (obj !== null &&
      typeof obj === 'object' &&
      typeof obj.then === 'function' &&
      typeof obj.catch === 'function')
  );
}

async function waitForActual(promiseFn) {
  let resultPromise;
  if (typeof promiseFn === 'function') {
    resultPromise = promiseFn();
    if (!checkIsPromise(resultPromise)) {
      throw codes.ERR_INVALID_RETURN_VALUE('instance of Promise', 'promiseFn', resultPromise);
    }
  } else if (checkIsPromise(promiseFn)) {
    resultPromise = promiseFn;
  } else {
    throw codes.ERR_INVALID_ARG_TYPE('promiseFn', ['Function', 'Promise'], promiseFn);
  }
  try {
    await resultPromise;
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

function expectsError(stackStartFn, actual, ...rest) {
  let [error, message] = rest;
  if (typeof error === 'string') {
    if (rest.length === 2)
      throw codes.ERR_INVALID_ARG_TYPE('error', ['Object', 'Error', 'Function', 'RegExp'], error);
    if (typeof actual === 'object' && actual !== null) {
      if (actual.message === error) {
        throw codes.ERR_AMBIGUOUS_ARGUMENT(
          'error/message',
          `The error message "${actual.message}" is identical to the message.`,
        );
      }
    } else if (actual === error) {
      throw codes.ERR_AMBIGUOUS_ARGUMENT(
        'error/message',
        `The error "${actual}" is identical to the message.`,
      );
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw codes.ERR_INVALID_ARG_TYPE('error', ['Object', 'Error', 'Function', 'RegExp'], error);
  }
  if (actual === NO_EXCEPTION) {
    let details = '';
    if (error?.name) details += ` (${error.name})`;
    details += message ? `: ${message}` : '.';
    const fnType = stackStartFn === rejects ? 'rejection' : 'exception';
    innerFail({
      actual: undefined,
      expected: error,
      operator: stackStartFn.name,
      message: `Missing expected ${fnType}${details}`,
      stackStartFn,
    });
  }
  if (!error) return;
  expectedException(actual, error, message, stackStartFn);
}

function hasMatchingError(actual, expected) {
  if (typeof expected !== 'function') {
    if (types.isRegExp(expected)) return expected.exec(String(actual)) !== null;
    throw codes.ERR_INVALID_ARG_TYPE('expected', ['Function', 'RegExp'], expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (Object.prototype.isPrototypeOf.call(Error, expected)) return false;
  return Reflect.apply(expected, {}, [actual]) === true;
}

function expectsNoError(stackStartFn, actual, error, message) {
  if (actual === NO_EXCEPTION) return;
  let expected = error;
  let text = message;
  if (typeof expected === 'string') {
    text = expected;
    expected = undefined;
  }
  if (!expected || hasMatchingError(actual, expected)) {
    const details = text ? `: ${text}` : '.';
    const fnType = stackStartFn === doesNotReject ? 'rejection' : 'exception';
    innerFail({
      actual,
      expected,
      operator: stackStartFn.name,
      message: `Got unwanted ${fnType}${details}\nActual message: "${actual?.message}"`,
      stackStartFn,
    });
  }
  throw actual;
}

function throws(promiseFn, ...args) {
  expectsError(throws, getActual(promiseFn), ...args);
}

async function rejects(promiseFn, ...args) {
  expectsError(rejects, await waitForActual(promiseFn), ...args);
}

function doesNotThrow(fn, ...args) {
  expectsNoError(doesNotThrow, getActual(fn), ...args);
}

async function doesNotReject(fn, ...args) {
  expectsNoError(doesNotReject, await waitForActual(fn), ...args);
}

function ifError(err) {
  if (err === null || err === undefined) return;
  let message = 'ifError got unwanted exception: ';
  if (typeof err === 'object' && typeof err.message === 'string') {
    if (err.message.length === 0 && err.constructor) message += err.constructor.name;
    else message += err.message;
  } else {
    message += inspect(err);
  }
  throw new AssertionError({
    actual: err,
    expected: null,
    operator: 'ifError',
    message,
    stackStartFn: ifError,
  });
}

function internalMatch(string, regexp, message, fn) {
  if (!types.isRegExp(regexp)) throw codes.ERR_INVALID_ARG_TYPE('regexp', 'RegExp', regexp);
  const wantMatch = fn === match;
  if (typeof string !== 'string' || (regexp.exec(string) !== null) !== wantMatch) {
    if (message instanceof Error) throw message;
    const generatedMessage = !message;
    const text =
      message ||
      (typeof string !== 'string'
        ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`
        : `${wantMatch ? 'The input did not match the regular expression ' : 'The input was expected to not match the regular expression '}${inspect(regexp)}. Input:\n\n${inspect(string)}\n`);
    const err = new AssertionError({
      actual: string,
      expected: regexp,
      message: text,
      operator: fn.name,
      stackStartFn: fn,
    });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function match(string, regexp, message) {
  internalMatch(string, regexp, message, match);
}

function doesNotMatch(string, regexp, message) {
  internalMatch(string, regexp, message, doesNotMatch);
}

class CallTracker {
  #calls = [];

  calls(fn = () => {}, exact = 1) {
    validateFunction(fn, 'fn');
    const record = { fn, exact, actual: 0, calls: [], stackTrace: new Error() };
    this.#calls.push(record);
    return function tracked(...args) {
      record.actual++;
      record.calls.push({ thisArg: this, arguments: args });
      return Reflect.apply(fn, this, args);
    };
  }

  getCalls(tracked) {
    return this.#calls.find((r) => r.fn === tracked || r === tracked)?.calls ?? [];
  }

  report() {
    return this.#calls
      .filter((r) => r.actual !== r.exact)
      .map((r) => ({
        message: `Expected the ${r.fn.name || 'fn'} function to be executed ${r.exact} time(s) but was executed ${r.actual} time(s).`,
        actual: r.actual,
        expected: r.exact,
        operator: r.fn.name || 'fn',
        stack: r.stackTrace,
      }));
  }

  reset() {
    for (const r of this.#calls) {
      r.actual = 0;
      r.calls = [];
    }
  }

  verify() {
    const errors = this.report();
    if (errors.length === 0) return;
    const message =
      errors.length === 1 ? errors[0].message : 'Functions were not called the expected number of times';
    throw new AssertionError({ message, details: errors });
  }
}

Object.assign(assert, {
  fail,
  AssertionError,
  ok,
  equal,
  notEqual,
  deepEqual,
  notDeepEqual,
  deepStrictEqual,
  notDeepStrictEqual,
  strictEqual,
  notStrictEqual,
  throws,
  rejects,
  doesNotThrow,
  doesNotReject,
  ifError,
  match,
  doesNotMatch,
  CallTracker,
});

function strict(...args) {
  innerOk(strict, args.length, ...args);
}
Object.assign(strict, assert, {
  equal: strictEqual,
  deepEqual: deepStrictEqual,
  notEqual: notStrictEqual,
  notDeepEqual: notDeepStrictEqual,
});
strict.strict = strict;
assert.strict = strict;

module.exports = assert;
