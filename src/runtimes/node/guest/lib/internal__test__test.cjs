'use strict';
// Test and Suite: one node of the test tree, its hooks, its run and its report. The tree's root and
// the program-wide state (reporter, counters, options) live in internal/test/harness, passed in as
// `harness`.
//
// A test runs its subtests one at a time, in the order they were created (Node's default concurrency).
// Results are reported as tests finish; a parent reports after its subtests. Failures carry Node's
// failure types, which decide how they are counted (a timeout or a cancellation is "cancelled", a
// failing todo test is "todo") and printed.
const U = require('internal/test/utils');
const { TestContext, SuiteContext } = require('internal/test/context');

const noop = () => {};
const SKIP_NOT_ONLY = "'only' option not set";
const SKIP_NO_MATCH = 'test name does not match pattern';

function runOnce(fn) {
  let promise;
  return () => {
    promise ??= fn();
    return promise;
  };
}

/**
 * Calls a test or hook function the way Node does: `fn(ctx)` (awaiting a returned promise), or,
 * when it declares two parameters, `fn(ctx, done)` settling when `done(err?)` is called.
 */
function callUserFn(fn, ctx) {
  if (fn.length === 2) {
    let called = false;
    let settle;
    const settled = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    const done = (err) => {
      if (called) return;
      called = true;
      if (err) settle.reject(err);
      else settle.resolve();
    };
    const ret = fn.call(ctx, ctx, done);
    if (U.isPromise(ret)) {
      ret.then(noop, noop);
      settled.catch(noop);
      return Promise.reject(
        U.testFailure('passed a callback but also returned a Promise', U.kCallbackAndPromisePresent),
      );
    }
    return settled;
  }
  const ret = fn.call(ctx, ctx);
  return U.isPromise(ret) ? Promise.resolve(ret) : undefined;
}

/** Races `promise` with a timer that does not keep the process alive; `onTimeout()` gives the error. */
function withTimeout(promise, ms, onTimeout) {
  if (!(ms < Infinity) || promise === undefined) return promise;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = U.unrefTimer(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class Test {
  /**
   * @param {object} o name, fn, parent (null for the root), harness, loc ({ file, line, column }),
   *   and the user's options: skip, todo, only, timeout, plan, signal.
   */
  constructor(o) {
    this.name = o.name;
    this.fn = o.fn ?? noop;
    this.parent = o.parent ?? null;
    this.harness = o.harness;
    this.root = this.parent ? this.parent.root : this;
    this.nesting = this.parent ? this.parent.nesting + 1 : -1;
    this.loc = o.loc ?? {};
    this.reportedType = 'test';
    this.only = o.only === true;
    this.skipped = o.skip !== undefined && o.skip !== false;
    this.isTodo = o.todo !== undefined && o.todo !== false;
    this.message = typeof o.skip === 'string' ? o.skip : typeof o.todo === 'string' ? o.todo : undefined;
    this.timeout = typeof o.timeout === 'number' ? o.timeout : this.parent ? this.parent.timeout : Infinity;
    this.planned = typeof o.plan === 'number' ? o.plan : null;
    this.assertions = 0;
    this.userSignal = o.signal;
    this.runOnlySubtests = this.parent ? false : this.harness.config.only;
    this.hasOnlyDescendant = false;
    this.subtests = [];
    this.pending = [];
    this.active = 0;
    this.acceptsStarts = false;
    this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
    this.diagnostics = [];
    this.error = null;
    this.passed = false;
    this.cancelled = false;
    this.started = false;
    this.finished = false;
    this.reportedStart = false;
    this.startTime = null;
    this.endTime = null;
    this.mockTracker = null;
    this.abortController = null;
    this.context = this.createContext();
    this.runBeforeOnce = runOnce(() => this.runHooks('before', this.context));
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    if (this.only && this.parent) {
      for (let p = this.parent; p; p = p.parent) p.hasOnlyDescendant = true;
    }
  }

  createContext() {
    return new TestContext(this);
  }

  get fullName() {
    const names = [];
    for (let t = this; t?.parent; t = t.parent) names.unshift(t.name);
    return names.join(' > ');
  }

  /** The AbortSignal handed to the test as `t.signal`, made on first use. */
  get signal() {
    if (!this.abortController) {
      this.abortController = new AbortController();
      if (this.userSignal) {
        if (this.userSignal.aborted) this.abortController.abort(this.userSignal.reason);
        else
          this.userSignal.addEventListener('abort', () => this.abortController.abort(this.userSignal.reason));
      }
      if (this.finished) this.abort();
    }
    return this.abortController.signal;
  }

  abort(cause) {
    if (!this.abortController || this.abortController.signal.aborted) return;
    const { AbortError } = require('internal/errors');
    this.abortController.abort(new AbortError(undefined, cause === undefined ? undefined : { cause }));
  }

  get mock() {
    if (!this.mockTracker) {
      const { MockTracker } = require('internal/test/mock');
      this.mockTracker = new MockTracker();
    }
    return this.mockTracker;
  }

  pass() {
    if (this.error !== null) return;
    this.passed = true;
  }

  fail(err) {
    if (this.error !== null) return;
    this.passed = false;
    this.error = err;
  }

  /** Ends the test now with `err` (a timeout or a cancellation); its own code may still be running. */
  cancel(err) {
    if (this.finished) return;
    this.cancelled = true;
    this.fail(err);
    this.abort(err);
    this.postRun(err);
  }

  /** Adds `sub` to the queue; it starts when this test allows (see processQueue). */
  enqueue(sub) {
    this.pending.push(sub);
    if (this.acceptsStarts) this.processQueue();
  }

  /** Starts queued subtests while fewer than one (Node's default concurrency) is running. */
  processQueue() {
    while (this.active < 1 && this.pending.length > 0) {
      const next = this.pending.shift();
      if (next.finished) continue;
      this.active++;
      next.run().catch((err) => next.cancel(U.testFailure(err, U.kTestCodeFailure)));
    }
  }

  /** Queues this test in its parent; the promise fulfils (with undefined) once it has finished. */
  start() {
    if (this.parent.finished) {
      this.fail(
        U.testFailure('test could not be started because its parent finished', U.kParentAlreadyFinished),
      );
      this.postRun();
      return this.done;
    }
    this.parent.enqueue(this);
    return this.done;
  }

  /** Decides, before running, whether `--test-name-pattern` skips this test (suites always run). */
  applyNamePatterns() {
    const patterns = this.harness.config.namePatterns;
    if (!patterns || patterns.length === 0 || this.skipped || this.reportedType === 'suite') return;
    if (!this.matchesPattern(patterns)) {
      this.skipped = true;
      this.message = SKIP_NO_MATCH;
    }
  }

  /** Node's rule: the name or an ancestor's matches, or the names from the top joined by spaces do. */
  matchesPattern(patterns) {
    for (let t = this; t?.parent; t = t.parent) {
      if (patterns.some((re) => re.test(t.name))) return true;
    }
    const names = [];
    for (let t = this; t?.parent; t = t.parent) names.unshift(t.name);
    const joined = names.join(' ').trim();
    return patterns.some((re) => re.test(joined));
  }

  /** Decides, before running, whether `--test-only` skips this test. */
  applyOnly() {
    if (!this.harness.config.only) return;
    if (this.parent?.runOnlySubtests && !this.only && !this.hasOnlyDescendant) {
      this.skipped = true;
      this.message = SKIP_NOT_ONLY;
    }
    if (this.only || this.hasOnlyDescendant) this.runOnlySubtests = this.hasOnlyDescendant;
  }

  ancestors() {
    const list = [];
    for (let p = this.parent; p; p = p.parent) list.unshift(p);
    return list;
  }

  async runHooks(kind, ctx) {
    for (const hook of this.hooks[kind]) {
      await withTimeout(callUserFn(hook.fn, ctx), hook.timeout, () =>
        U.testFailure(`${kind} hook timed out after ${hook.timeout}ms`, U.kHookFailure),
      );
    }
  }

  /** The ancestors' beforeEach (outermost first) or afterEach (innermost first) hooks, if any. */
  eachHookOwners(kind) {
    const chain = this.ancestors().filter((owner) => owner.hooks[kind].length > 0);
    if (kind === 'afterEach') chain.reverse();
    return chain;
  }

  async runEachHooks(owners, kind) {
    for (const owner of owners) await owner.runHooks(kind, this.context);
  }

  /**
   * Ends the running function early (an uncaught error was charged to this test): run() stops
   * waiting for it, as Node does when it aborts a test.
   */
  stop() {
    if (this.resolveStop) this.resolveStop();
  }

  async run() {
    if (this.finished) return;
    this.started = true;
    this.startTime = U.now();
    this.applyOnly();
    this.applyNamePatterns();
    if (this.skipped) {
      this.pass();
      this.postRun();
      return;
    }
    const harness = this.harness;
    const stopped = new Promise((resolve) => {
      this.resolveStop = resolve;
    });
    harness.running.push(this);
    // Hooks are awaited only when there are some, so a synchronous subtest still finishes before a
    // synchronous parent (the order of promise jobs matches Node's).
    const afterEach = runOnce(async () => {
      const owners = this.eachHookOwners('afterEach');
      if (!this.skipped && owners.length > 0) await this.runEachHooks(owners, 'afterEach');
    });
    const after = async () => {
      if (this.hooks.after.length > 0) await this.runHooks('after', this.context);
    };
    try {
      if (this.parent.hooks.before.length > 0) await this.parent.runBeforeOnce();
      const beforeEach = this.eachHookOwners('beforeEach');
      if (beforeEach.length > 0) await this.runEachHooks(beforeEach, 'beforeEach');
      if (this.finished) return;
      this.acceptsStarts = true;
      const running = withTimeout(callUserFn(this.fn, this.context), this.timeout, () => {
        const err = U.testFailure(`test timed out after ${this.timeout}ms`, U.kTestTimeoutFailure);
        this.cancelled = true;
        this.abort(err);
        return err;
      });
      if (running !== undefined) await Promise.race([running, stopped]);
      if (this.finished) return;
      if (this.planned !== null && this.planned !== this.assertions) {
        throw U.testFailure(
          `plan expected ${this.planned} assertions but received ${this.assertions}`,
          U.kTestCodeFailure,
        );
      }
      this.pass();
      await afterEach();
      await after();
    } catch (err) {
      this.fail(err && err.code === 'ERR_TEST_FAILURE' ? err : U.testFailure(err, U.kTestCodeFailure));
      try {
        await afterEach();
        await after();
      } catch {
        // the first failure is the one reported
      }
    } finally {
      const i = harness.running.lastIndexOf(this);
      if (i >= 0) harness.running.splice(i, 1);
    }
    this.postRun();
  }

  /** Ends the test: cancels unfinished subtests, reports, lets the parent start its next subtest. */
  postRun(pendingSubtestsError) {
    if (this.finished) return;
    this.finished = true;
    this.acceptsStarts = false;
    this.pending = []; // queued subtests are cancelled below without starting
    let failed = 0;
    for (const sub of this.subtests) {
      if (!sub.finished) {
        sub.cancel(pendingSubtestsError ?? U.testFailure(U.MSG_CANCELLED_BY_PARENT, U.kCancelledByParent));
      }
      if (!sub.passed && !sub.isTodo) failed++;
    }
    if (this.passed && failed > 0) {
      this.fail(U.testFailure(`${failed} subtest${failed > 1 ? 's' : ''} failed`, U.kSubtestsFailed));
    }
    this.endTime = U.now();
    if (this.mockTracker) this.mockTracker.reset();
    this.abort();
    if (this.parent) {
      if (this.started) this.parent.active--;
      this.report();
      this.parent.processQueue();
      this.harness.childFinished(this);
    }
    this.resolveDone();
  }

  duration() {
    return U.durationMs(this.startTime, this.endTime);
  }

  reportStarted() {
    if (this.reportedStart || this.parent === null) return;
    this.reportedStart = true;
    this.parent.reportStarted();
    this.harness.emit('test:start', { name: this.name, nesting: this.nesting });
  }

  report() {
    this.harness.count(this);
    if (this.subtests.length === 0) this.reportStarted();
    const data = {
      name: this.name,
      nesting: this.nesting,
      file: this.loc.file,
      line: this.loc.line,
      column: this.loc.column,
      details: { duration_ms: this.duration(), type: this.reportedType },
    };
    if (this.skipped) data.skip = this.message ?? true;
    else if (this.isTodo) data.todo = this.message ?? true;
    if (this.passed) {
      this.harness.emit('test:pass', data);
    } else {
      data.details.error = this.error;
      this.harness.emit('test:fail', data);
    }
    for (const message of this.diagnostics)
      this.harness.emit('test:diagnostic', { nesting: this.nesting, message });
  }
}

class Suite extends Test {
  /** Runs the suite's body at once (as Node does) so its tests and hooks are registered now. */
  constructor(o) {
    super(o);
    this.reportedType = 'suite';
    this.buildPromise = undefined;
    if (this.skipped) return;
    const harness = this.harness;
    harness.building.push(this);
    try {
      const ret = this.fn.call(this.context, this.context);
      if (U.isPromise(ret)) {
        harness.asyncBuilding.push(this);
        this.buildPromise = Promise.resolve(ret)
          .then(
            () => {},
            (err) => this.fail(U.testFailure(err, U.kTestCodeFailure)),
          )
          .finally(() => {
            const i = harness.asyncBuilding.indexOf(this);
            if (i >= 0) harness.asyncBuilding.splice(i, 1);
          });
      }
    } catch (err) {
      this.fail(U.testFailure(err, U.kTestCodeFailure));
    } finally {
      harness.building.pop();
    }
  }

  createContext() {
    return new SuiteContext(this);
  }

  async run() {
    if (this.finished) return;
    this.started = true;
    this.startTime = U.now();
    if (this.buildPromise) await this.buildPromise;
    this.applyOnly();
    if (this.skipped) {
      // A skipped suite reports as one line; what its body declared is dropped unreported.
      for (const sub of this.subtests) {
        sub.finished = true;
        sub.resolveDone();
      }
      this.subtests = [];
      this.pending = [];
      this.pass();
      this.postRun();
      return;
    }
    try {
      if (this.parent.hooks.before.length > 0) await this.parent.runBeforeOnce();
      if (this.hooks.before.length > 0) await this.runBeforeOnce();
      this.acceptsStarts = true;
      this.processQueue();
      await Promise.all(this.subtests.map((sub) => sub.done));
      if (this.hooks.after.length > 0) await this.runHooks('after', this.context);
      this.pass();
    } catch (err) {
      this.fail(err && err.code === 'ERR_TEST_FAILURE' ? err : U.testFailure(err, U.kHookFailure));
    }
    this.postRun();
  }
}

module.exports = { Test, Suite, callUserFn };
