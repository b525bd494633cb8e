'use strict';
// node:test — test(), describe()/it(), hooks, the test context and mocks, reporting in the format of
// Node 22's `spec` reporter (without colours).
//
// Tests start on a later turn of the event loop, after the file's own code, and run one at a time in
// the order they were declared. In a script (`node file.test.js`) the summary prints when the event
// loop runs dry (process 'beforeExit') and a failure sets process.exitCode = 1. Under `node --test`
// the engine drives the run through internal/test/runner (see there), so all files share one summary.
//
// `only: true` (and test.only / describe.only / it.only) takes effect with `--test-only`; without it
// every test runs and the summary notes that 'only' needs the flag, as Node does.
const { harness, register, registerHook } = require('internal/test/harness');
const { MockTracker } = require('internal/test/mock');

function withVariants(kind) {
  const fn = register(kind);
  fn.skip = register(kind, { skip: true });
  fn.todo = register(kind, { todo: true });
  fn.only = register(kind, { only: true });
  return fn;
}

const test = withVariants('test');
const describe = withVariants('suite');
const it = withVariants('test');

test.test = test;
test.it = it;
test.describe = describe;
test.suite = describe;
test.before = registerHook('before');
test.after = registerHook('after');
test.beforeEach = registerHook('beforeEach');
test.afterEach = registerHook('afterEach');
test.mock = new MockTracker();

/** Node's programmatic run() spawns processes and streams events; this runtime has neither. */
test.run = function run() {
  throw require('internal/errors').codes.ERR_NOT_SUPPORTED_IN_TABCODE("node:test run() (use 'node --test')");
};

// For internal/test/runner and tests of this module; not part of Node's API.
Object.defineProperty(test, Symbol.for('tabcode.test.harness'), { value: harness });

module.exports = test;
