'use strict';
// Helpers shared by the node:test modules: clocks, scheduling, failures, call sites, inspection.

/** Failure types, as Node names them (they decide how a failure is counted and printed). */
const kTestCodeFailure = 'testCodeFailure';
const kHookFailure = 'hookFailed';
const kCallbackAndPromisePresent = 'callbackAndPromisePresent';
const kCancelledByParent = 'cancelledByParent';
const kTestTimeoutFailure = 'testTimeoutFailure';
const kSubtestsFailed = 'subtestsFailed';
const kParentAlreadyFinished = 'parentAlreadyFinished';

/** Messages Node prints for failures the runner itself raises. */
const MSG_CANCELLED_BY_PARENT = 'test did not finish before its parent and was cancelled';
const MSG_PENDING_AT_EXIT = 'Promise resolution is still pending but the event loop has already resolved';
const MSG_FILE_FAILED = 'test failed';
const MSG_ONLY_WITHOUT_FLAG = "'only' and 'runOnly' require the --test-only command-line option.";

/**
 * The error a test fails with: Node's ERR_TEST_FAILURE, whose `cause` is what the user threw (or the
 * runner's message) and whose `failureType` says why.
 */
function testFailure(cause, failureType) {
  const err = new Error(
    typeof cause === 'string'
      ? cause
      : cause && cause.message !== undefined
        ? String(cause.message)
        : String(cause),
  );
  err.name = 'Error';
  err.code = 'ERR_TEST_FAILURE';
  err.failureType = failureType;
  err.cause = cause;
  return err;
}

/**
 * Nanoseconds on a monotonic clock, as a number (exact for months). Durations are differences of two
 * readings divided by 1e6, which prints as Node's do (e.g. 0.52345).
 */
function now() {
  const proc = globalThis.process;
  if (proc?.hrtime && typeof proc.hrtime.bigint === 'function') {
    try {
      return Number(proc.hrtime.bigint());
    } catch {
      // fall through to performance.now()
    }
  }
  return Math.round(performance.now() * 1e6);
}

/** Milliseconds between two now() readings; 0 when either is missing. */
function durationMs(start, end) {
  return start === null || end === null ? 0 : (end - start) / 1e6;
}

/** Runs `fn` on a later turn of the event loop (after the current script and its promise jobs). */
function laterTick(fn) {
  if (typeof setImmediate === 'function') return setImmediate(fn);
  if (typeof setTimeout === 'function') return setTimeout(fn, 0);
  return Promise.resolve().then(fn);
}

/** A timer that does not keep the process alive (Node unrefs its test timeouts). */
function unrefTimer(fn, ms) {
  const handle = setTimeout(fn, ms);
  if (handle && typeof handle.unref === 'function') handle.unref();
  return handle;
}

let utilModule;
/** util.inspect as Node's reporters call it (no colors, one line per logical line); never throws. */
function inspect(value) {
  if (utilModule === undefined) {
    try {
      utilModule = require('node:util');
    } catch {
      utilModule = null;
    }
  }
  if (utilModule && typeof utilModule.inspect === 'function') {
    try {
      return utilModule.inspect(value, { colors: false, breakLength: Infinity });
    } catch {
      // fall back below
    }
  }
  if (typeof value === 'string') return `'${value}'`;
  if (value instanceof Error) {
    const head = `${value.name}: ${value.message}`;
    const stack = typeof value.stack === 'string' ? value.stack : '';
    return stack.startsWith(head) ? stack.replace(/\n$/, '') : `${head}\n${stack}`.replace(/\n$/, '');
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Converts a `file://` URL from a stack frame to a path. */
function fileFromFrame(file) {
  if (!file.startsWith('file://')) return file;
  try {
    return decodeURIComponent(file.slice('file://'.length));
  } catch {
    return file.slice('file://'.length);
  }
}

const FRAME = /\(?((?:file:\/\/)?[^()\s]+):(\d+):(\d+)\)?\s*$/;

/**
 * Where the user called test()/it()/describe(): the first stack frame outside the runtime's own
 * builtins (`node:…` and `tabcode:…`). Returns undefined when the stack says nothing usable.
 */
function callSite() {
  const stack = new Error('call site').stack;
  if (typeof stack !== 'string') return undefined;
  for (const line of stack.split('\n')) {
    const m = FRAME.exec(line.trim());
    if (!m) continue;
    const file = m[1];
    if (
      file.startsWith('node:') ||
      file.startsWith('tabcode:') ||
      file === '<anonymous>' ||
      file === 'native'
    )
      continue;
    return { file: fileFromFrame(file), line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}

/** `path.relative(from, to)` for the reporter; never throws. */
function relativePath(from, to) {
  try {
    return require('node:path').relative(from, to);
  } catch {
    const base = from.endsWith('/') ? from : `${from}/`;
    return to.startsWith(base) ? to.slice(base.length) : to;
  }
}

function isPromise(value) {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof value.then === 'function'
  );
}

/** Node's ERR_INVALID_ARG_TYPE (`expected` as Node names types: 'Function', 'string', 'Object'…). */
function invalidArgType(name, expected, actual) {
  return require('internal/errors').codes.ERR_INVALID_ARG_TYPE(name, expected, actual);
}

module.exports = {
  kTestCodeFailure,
  kHookFailure,
  kCallbackAndPromisePresent,
  kCancelledByParent,
  kTestTimeoutFailure,
  kSubtestsFailed,
  kParentAlreadyFinished,
  MSG_CANCELLED_BY_PARENT,
  MSG_PENDING_AT_EXIT,
  MSG_FILE_FAILED,
  MSG_ONLY_WITHOUT_FLAG,
  testFailure,
  now,
  durationMs,
  laterTick,
  unrefTimer,
  inspect,
  callSite,
  relativePath,
  isPromise,
  invalidArgType,
};
