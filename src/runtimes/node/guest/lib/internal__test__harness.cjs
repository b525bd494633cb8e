'use strict';
// The program-wide side of node:test: the root of the test tree, the reporter, the counters, and the
// two ways a run ends.
//
// - Direct mode (`node file.test.js`): the first test() creates the root and listens for process
//   'beforeExit'. Top-level tests start on a later turn of the event loop (after the file's own code),
//   one at a time; when the loop runs dry the summary is printed and process.exitCode set.
// - Runner mode (`node --test`): internal/test/runner calls startRunner() before loading any file and
//   finalize() after the last one, so every file reports into one summary.
//
// The engine must emit process 'beforeExit' whenever its event loop runs dry (again if listeners
// scheduled more work), and route uncaught exceptions and unhandled rejections to process
// 'uncaughtException' / 'unhandledRejection' listeners when there are any, as Node does: a test is
// failed by an error thrown from its timers.
const U = require('internal/test/utils');
const { Test, Suite } = require('internal/test/test');
const { SpecReporter } = require('internal/test/reporter');
const { hookOptions } = require('internal/test/context');

function freshCounters() {
  return { tests: 0, suites: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 0 };
}

const harness = {
  config: { only: false, isTestRunner: false, timeout: Infinity, cwd: undefined, namePatterns: [] },
  root: null,
  reporter: null,
  counters: freshCounters(),
  success: true,
  /** Suites whose body is running now (innermost last): where describe()/it() calls belong. */
  building: [],
  /** Suites whose async body has not settled yet. */
  asyncBuilding: [],
  /** Tests whose function is running (innermost last): where an uncaught error is charged. */
  running: [],
  kickScheduled: false,
  pendingOutput: '',
  flushScheduled: false,
  /** False until the first tests start: an uncaught error before then is the program's own. */
  bootstrapped: false,
  idleWaiters: [],
  finalizing: null,
  /** Lines printed (as "ℹ …") just before the summary. */
  diagnostics: [],
  runStart: null,
  listeners: null,

  emit(type, data) {
    const text = this.reporter.event(type, data);
    if (text) this.queueOutput(text);
  },

  /**
   * Report text is written on the next turn of the event loop, as Node's reporter stream delivers it:
   * console output of tests that run back to back (synchronously or through promise jobs) comes
   * before their result lines, as it does in Node.
   */
  queueOutput(text) {
    this.pendingOutput += text;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    U.laterTick(() => this.flush());
  },

  flush() {
    this.flushScheduled = false;
    const text = this.pendingOutput;
    this.pendingOutput = '';
    if (text) write(text);
  },

  /** Counts a finished test the way Node's summary does. */
  count(test) {
    const c = this.counters;
    if (test.nesting === 0) c.topLevel++;
    if (test.reportedType === 'suite') {
      c.suites++;
      if (!test.passed) this.success = false;
      return;
    }
    c.tests++;
    if (test.cancelled) {
      c.cancelled++;
      this.success = false;
    } else if (test.skipped) c.skipped++;
    else if (test.isTodo) c.todo++;
    else if (test.passed) c.passed++;
    else {
      c.failed++;
      this.success = false;
    }
  },

  childFinished(test) {
    if (test.parent === this.root) this.checkIdle();
  },

  checkIdle() {
    const root = this.root;
    if (!root || root.active > 0 || this.kickScheduled || root.pending.some((t) => !t.finished)) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  },

  /** Resolves once every top-level test registered so far has finished. */
  whenIdle() {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.checkIdle();
    });
  },

  scheduleKick() {
    if (this.kickScheduled) return;
    this.kickScheduled = true;
    U.laterTick(() => {
      this.kickScheduled = false;
      this.bootstrapped = true;
      this.root.processQueue();
      this.checkIdle();
    });
  },

  /** Creates a test or suite under `parent` and queues it; returns the promise test() returns. */
  subtest(parent, kind, name, options, fn, overrides) {
    if (typeof name === 'function') {
      fn = name;
      name = undefined;
      options = undefined;
    } else if (name !== null && typeof name === 'object') {
      fn = options;
      options = name;
      name = undefined;
    } else if (typeof options === 'function') {
      fn = options;
      options = undefined;
    }
    if (fn !== undefined && typeof fn !== 'function') throw U.invalidArgType('fn', 'Function', fn);
    if (options === null || typeof options !== 'object') options = {};
    const o = { ...options, ...overrides };
    if (typeof name !== 'string' || name === '') name = fn?.name || '<anonymous>';
    const Factory = kind === 'suite' ? Suite : Test;
    const test = new Factory({
      name,
      fn,
      parent,
      harness: this,
      loc: U.callSite(),
      skip: o.skip,
      todo: o.todo,
      only: o.only,
      timeout: o.timeout,
      plan: o.plan,
      signal: o.signal,
    });
    // Without --test-only, `only` changes nothing but earns the test Node's reminder.
    if (!this.config.only && (o.only || parent.runOnlySubtests))
      test.diagnostics.push(U.MSG_ONLY_WITHOUT_FLAG);
    parent.subtests.push(test);
    return test.start();
  },

  /** Where a test(), describe() or hook call made now belongs. */
  currentParent() {
    if (this.building.length) return this.building[this.building.length - 1];
    if (this.asyncBuilding.length) return this.asyncBuilding[this.asyncBuilding.length - 1];
    for (let i = this.running.length - 1; i >= 0; i--) if (!this.running[i].finished) return this.running[i];
    return this.getRoot();
  },

  getRoot() {
    if (!this.root) {
      if (!this.config.isTestRunner) this.config = configFromExecArgv();
      this.createRoot();
    }
    return this.root;
  },

  /** Starts the run-wide state: one reporter, one set of counters, one summary. */
  startRun() {
    this.reporter = new SpecReporter({ cwd: this.config.cwd });
    this.counters = freshCounters();
    this.success = true;
    this.finalizing = null;
    this.diagnostics = [];
    this.runStart = U.now();
  },

  /**
   * A fresh root: the whole program in direct mode, one file under `node --test` (so a file's
   * top-level hooks apply to its own tests only, as they do in Node's one process per file).
   */
  createRoot() {
    if (!this.reporter) this.startRun();
    const root = new Test({ name: '<root>', parent: null, harness: this, timeout: this.config.timeout });
    root.startTime = U.now();
    root.started = true;
    root.enqueue = (sub) => {
      root.pending.push(sub);
      this.scheduleKick();
    };
    this.root = root;
    this.listen();
    return root;
  },

  /** Runs a root's own before/after hooks once its tests are done (Node runs them as the file ends). */
  async closeRoot(root) {
    if (root.closed) return;
    root.closed = true;
    if (root.hooks.before.length === 0 && root.hooks.after.length === 0) return;
    try {
      await root.runBeforeOnce();
      await root.runHooks('after', root.context);
    } catch (err) {
      this.success = false;
      writeErr(`${U.inspect(err)}\n`);
    }
  },

  listen() {
    const proc = globalThis.process;
    if (this.listeners || !proc || typeof proc.on !== 'function') return;
    const onUncaught = (err) => this.uncaught(err, 'uncaughtException');
    const onRejection = (err) => this.uncaught(err, 'unhandledRejection');
    const onBeforeExit = () => this.beforeExit();
    const onExit = () => this.flush();
    this.listeners = { onUncaught, onRejection, onBeforeExit, onExit };
    proc.on('uncaughtException', onUncaught);
    proc.on('unhandledRejection', onRejection);
    proc.on('beforeExit', onBeforeExit);
    proc.on('exit', onExit);
  },

  unlisten() {
    const proc = globalThis.process;
    if (!this.listeners || !proc || typeof proc.removeListener !== 'function') return;
    proc.removeListener('uncaughtException', this.listeners.onUncaught);
    proc.removeListener('unhandledRejection', this.listeners.onRejection);
    proc.removeListener('beforeExit', this.listeners.onBeforeExit);
    proc.removeListener('exit', this.listeners.onExit);
    this.listeners = null;
  },

  /**
   * An error nobody caught. Before the first tests start it is fatal, as in Node (the program's own
   * code failed). Then it fails the test that is running: Node charges the test whose async context
   * raised it; without async context tracking, the running test is the best guess. With no test
   * running it becomes a note before the summary and exit code 1.
   */
  uncaught(err, eventName) {
    if (!this.bootstrapped) {
      this.flush();
      throw err;
    }
    const test = this.running.length ? this.running[this.running.length - 1] : null;
    if (!test || test.finished) {
      this.diagnostics.push(
        `Error: A resource generated asynchronous activity after the test ended. This activity created the error "${String(err)}" which triggered an ${eventName} event, caught by the test runner.`,
      );
      if (globalThis.process) process.exitCode = 1;
      return;
    }
    test.fail(U.testFailure(err, eventName));
    test.abort(err);
    test.stop();
  },

  /** The loop ran dry: tests still waiting can never finish. */
  beforeExit() {
    if (this.config.isTestRunner) {
      if (this.onLoadStalled) this.onLoadStalled();
      this.cancelPending();
      return;
    }
    this.finalize();
  },

  cancelPending() {
    const root = this.root;
    if (!root) return;
    root.pending = []; // nothing else starts; queued tests are reported cancelled, unstarted
    for (const sub of root.subtests) {
      if (!sub.finished) sub.cancel(U.testFailure(U.MSG_PENDING_AT_EXIT, U.kCancelledByParent));
    }
    this.checkIdle();
  },

  /** Prepares a `node --test` run: options, the run-wide state, no direct-mode ending. */
  startRunner(options) {
    this.config = {
      only: !!options.only,
      isTestRunner: true,
      timeout: typeof options.timeout === 'number' ? options.timeout : Infinity,
      cwd: options.cwd,
      namePatterns: toRegExps(options.namePatterns ?? [], 'options.namePatterns'),
    };
    this.unlisten();
    this.root = null;
    this.startRun();
  },

  /** Reports a test file that could not be loaded, as Node reports a test file that exited badly. */
  fileFailed(file, startTime) {
    const root = this.root;
    root.closed = true; // the file never finished: its after hooks do not run
    for (const sub of root.subtests) {
      if (sub.started || sub.finished) continue;
      sub.finished = true;
      sub.resolveDone();
    }
    root.pending = root.pending.filter((t) => !t.finished);
    const test = new Test({ name: file, parent: root, harness: this, loc: { file, line: 1, column: 1 } });
    test.startTime = startTime;
    test.fail(U.testFailure(U.MSG_FILE_FAILED, U.kTestCodeFailure));
    root.subtests.push(test);
    test.postRun();
  },

  /** Ends the run once: root 'after' hooks, the summary, process.exitCode. Never rejects. */
  finalize() {
    this.finalizing ??= (async () => {
      const root = this.getRoot();
      this.cancelPending();
      await this.closeRoot(root);
      const c = this.counters;
      for (const message of this.diagnostics) this.emit('test:diagnostic', { nesting: 0, message });
      const lines = [
        `tests ${c.tests}`,
        `suites ${c.suites}`,
        `pass ${c.passed}`,
        `fail ${c.failed}`,
        `cancelled ${c.cancelled}`,
        `skipped ${c.skipped}`,
        `todo ${c.todo}`,
        `duration_ms ${U.durationMs(this.runStart, U.now())}`,
      ];
      for (const message of lines) this.emit('test:diagnostic', { nesting: 0, message });
      this.emit('test:summary', {});
      this.flush();
      this.unlisten();
      if (!this.success && globalThis.process) process.exitCode = 1;
      return { success: this.success, counters: { ...c } };
    })();
    return this.finalizing;
  },
};

/** `--test-name-pattern` values as Node reads them: `/re/flags` or a plain pattern. */
function toRegExps(patterns, name) {
  return (Array.isArray(patterns) ? patterns : [patterns]).map((p) => {
    if (p instanceof RegExp) return p;
    const m = /^\/(?<pattern>.*)\/(?<flags>[a-z]*)$/.exec(String(p));
    try {
      return new RegExp(m?.groups.pattern ?? String(p), m?.groups.flags ?? '');
    } catch (err) {
      throw require('internal/errors').codes.ERR_INVALID_ARG_VALUE(
        name,
        p,
        `is an invalid regular expression. ${err.message}`,
      );
    }
  });
}

/**
 * Direct mode reads Node's flags from process.execArgv: `--test-only`, `--test-timeout=ms` and
 * `--test-name-pattern=re` (each also as two arguments).
 */
function configFromExecArgv() {
  const argv = (globalThis.process && Array.isArray(process.execArgv) && process.execArgv) || [];
  let timeout = Infinity;
  const patterns = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--test-(timeout|name-pattern)(?:=(.*))?$/.exec(argv[i]);
    if (!m) continue;
    const value = m[2] ?? argv[i + 1];
    if (m[1] === 'timeout' && Number(value) > 0) timeout = Number(value);
    if (m[1] === 'name-pattern' && value !== undefined) patterns.push(value);
  }
  return {
    only: argv.includes('--test-only'),
    isTestRunner: false,
    timeout,
    cwd: undefined,
    namePatterns: toRegExps(patterns, '--test-name-pattern'),
  };
}

function write(text) {
  globalThis.process.stdout.write(text);
}

function writeErr(text) {
  globalThis.process.stderr.write(text);
}

/** test(), it(), describe()… as the public module exposes them. */
function register(kind, overrides) {
  return (name, options, fn) => harness.subtest(harness.currentParent(), kind, name, options, fn, overrides);
}

function registerHook(kind) {
  return (fn, options) => {
    harness.currentParent().hooks[kind].push(hookOptions(fn, options));
  };
}

module.exports = { harness, register, registerHook };
