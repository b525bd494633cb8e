'use strict';
// The objects a test or suite function receives: TestContext (`t`) and SuiteContext.
const { validateFunction, validateInteger } = require('internal/errors');

// The assert functions `t.assert` offers (Node 22); each call counts towards `t.plan()`.
const ASSERT_METHODS = [
  'deepEqual',
  'deepStrictEqual',
  'doesNotMatch',
  'doesNotReject',
  'doesNotThrow',
  'equal',
  'fail',
  'ifError',
  'match',
  'notDeepEqual',
  'notDeepStrictEqual',
  'notEqual',
  'notStrictEqual',
  'partialDeepStrictEqual',
  'rejects',
  'strictEqual',
  'throws',
  'ok',
];

function hookOptions(fn, options) {
  validateFunction(fn, 'fn');
  const timeout = options && typeof options.timeout === 'number' ? options.timeout : Infinity;
  return { fn, timeout };
}

class TestContext {
  #test;
  #assert;

  constructor(test) {
    this.#test = test;
  }

  get name() {
    return this.#test.name;
  }

  get fullName() {
    return this.#test.fullName;
  }

  get filePath() {
    return this.#test.loc.file;
  }

  get signal() {
    return this.#test.signal;
  }

  get mock() {
    return this.#test.mock;
  }

  /** assert's functions, each counted for `t.plan()`. */
  get assert() {
    if (!this.#assert) {
      const assert = require('node:assert');
      const test = this.#test;
      const bound = {};
      for (const name of ASSERT_METHODS) {
        if (typeof assert[name] !== 'function') continue;
        bound[name] = function (...args) {
          test.assertions++;
          return assert[name].apply(this, args);
        };
      }
      this.#assert = bound;
    }
    return this.#assert;
  }

  /** Adds a line the reporter prints (as "ℹ message") after this test's result. */
  diagnostic(message) {
    this.#test.diagnostics.push(String(message));
  }

  /** The number of assertions and subtests this test must run; checked when it ends. */
  plan(count) {
    validateInteger(count, 'count', 0);
    if (this.#test.planned !== null) {
      const err = new Error('cannot set plan more than once');
      err.code = 'ERR_TEST_FAILURE';
      throw err;
    }
    this.#test.planned = count;
  }

  /** With --test-only, makes this test run only its subtests that have `only: true`. */
  runOnly(value) {
    this.#test.runOnlySubtests = !!value;
  }

  /** Marks the test skipped (it keeps running; its result is reported as "# SKIP" or the message). */
  skip(message) {
    this.#test.skipped = true;
    this.#test.message = message;
  }

  /** Marks the test todo (a failure then does not fail the run). */
  todo(message) {
    this.#test.isTodo = true;
    this.#test.message = message;
  }

  /** Runs a subtest; the promise fulfils with undefined once it has finished (pass or fail). */
  test(name, options, fn) {
    const test = this.#test;
    test.assertions++;
    return test.harness.subtest(test, 'test', name, options, fn);
  }

  before(fn, options) {
    this.#test.hooks.before.push(hookOptions(fn, options));
  }

  after(fn, options) {
    this.#test.hooks.after.push(hookOptions(fn, options));
  }

  beforeEach(fn, options) {
    this.#test.hooks.beforeEach.push(hookOptions(fn, options));
  }

  afterEach(fn, options) {
    this.#test.hooks.afterEach.push(hookOptions(fn, options));
  }
}

class SuiteContext {
  #suite;

  constructor(suite) {
    this.#suite = suite;
  }

  get name() {
    return this.#suite.name;
  }

  get fullName() {
    return this.#suite.fullName;
  }

  get filePath() {
    return this.#suite.loc.file;
  }

  get signal() {
    return this.#suite.signal;
  }
}

module.exports = { TestContext, SuiteContext, hookOptions };
