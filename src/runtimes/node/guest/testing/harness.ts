/**
 * A test harness for the guest's built-in modules: a real QuickJS-ng context (the engine user code runs
 * on) with the guest's CommonJS module system for builtins and nothing else (no file system).
 * `process` is a small stand-in (cwd, env, platform); `console.log`/`console.error` (util.format of their
 * arguments) and `globalThis.__print(text)` collect output. The host lends the promise-state hook that
 * internal/host documents, as the engine does.
 *
 * Timers are a deterministic virtual event loop (event-loop.ts): `setTimeout`, `setInterval`,
 * `setImmediate` never wait for real time, and `process` gets `on`/`emit` for 'beforeExit', 'exit' and
 * 'uncaughtException'. `runToExit()` runs the loop the way Node ends a program; `evalAsync` runs timers
 * while its promise is pending.
 *
 * Use it to check a guest module in the engine it ships for, e.g. against Node's own module:
 *   const h = await GuestHarness.create();
 *   expect(h.eval("require('node:path').join('a', '..', 'b')")).toBe(require('node:path').join('a', '..', 'b'));
 */
import { JSValueHandle as HandleClass, JSException, type JSValueHandle, QuickJS } from 'quickjs-wasi';
import { compiledEngine } from '../../testing/run-node.ts';
import { GUEST_SOURCES, VENDOR_ALIASES } from '../sources.ts';
import { EVENT_LOOP_SOURCE } from './event-loop.ts';

const LOADER = `(function () {
  const cache = Object.create(null);
  const aliases = ${JSON.stringify(VENDOR_ALIASES)};
  function load(name) {
    let key = name.startsWith('node:') ? name.slice(5) : name;
    if (aliases[key]) key = aliases[key];
    if (cache[key]) return cache[key].exports;
    const source = __hostSource(key);
    if (source === undefined) {
      const err = new Error("Cannot find module '" + name + "'");
      err.code = 'MODULE_NOT_FOUND';
      throw err;
    }
    const module = { exports: {}, id: key, loaded: false };
    cache[key] = module;
    const fn = __hostCompile(source, 'node:' + key);
    fn.call(module.exports, module.exports, load, module, 'node:' + key, '');
    module.loaded = true;
    return module.exports;
  }
  globalThis.require = load;
  const hostNow = __hostNow;
  delete globalThis.__hostNow;
  // quickjs-wasi's performance.now is fixed and counts whole milliseconds: a finer one, from the host.
  const origin = performance.timeOrigin;
  Object.defineProperty(globalThis, 'performance', {
    value: { now: () => hostNow(), timeOrigin: origin, toJSON: () => ({ timeOrigin: origin }) },
    configurable: true, writable: true, enumerable: true,
  });
  globalThis.process = {
    cwd: () => '/home/user/project',
    env: { HOME: '/home/user/project', PATH: '/usr/bin:/bin' },
    platform: 'linux',
    arch: 'x64',
    argv: ['/usr/local/bin/node'],
    version: 'v22.12.0',
    versions: { node: '22.12.0' },
    nextTick: (fn, ...args) => queueMicrotask(() => fn(...args)),
    stdout: { write: (s) => { __print(String(s)); return true; }, isTTY: false },
    stderr: { write: (s) => { __print(String(s)); return true; }, isTTY: false },
    exitCode: undefined,
  };
  let format;
  const fmt = (args) => {
    try { format ??= load('util').format; } catch { format = (...a) => a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' '); }
    return format(...args) + '\\n';
  };
  globalThis.console = { log: (...a) => __print(fmt(a)), error: (...a) => __print(fmt(a)), warn: (...a) => __print(fmt(a)) };
  globalThis.__tabcodeHost = { promiseState: __hostPromiseState };
  delete globalThis.__hostPromiseState;
  load('internal/error-compat');
  try { load('internal/globals'); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }
})();`;

export class GuestHarness {
  /** Everything printed since the last `takeOutput()`. */
  private output = '';

  private constructor(private readonly vm: QuickJS) {}

  static async create(sources: Readonly<Record<string, string>> = GUEST_SOURCES): Promise<GuestHarness> {
    let harness: GuestHarness | undefined;
    const vm = await QuickJS.create({
      wasm: await compiledEngine(),
      memoryLimit: 256 * 1024 * 1024,
      maxStackSize: 512 * 1024,
    });
    harness = new GuestHarness(vm);
    const define = (name: string, fn: (...args: JSValueHandle[]) => JSValueHandle) => {
      const handle = vm.newFunction(name, fn);
      vm.setProp(vm.global, name, handle);
      handle.dispose();
    };
    define('__hostSource', (nameHandle) => {
      const source = sources[nameHandle.toString()];
      return source === undefined ? vm.undefined : vm.newString(source);
    });
    define('__hostCompile', (sourceHandle, fileHandle) => {
      const wrapped = `(function (exports, require, module, __filename, __dirname) {${sourceHandle.toString()}\n})`;
      return vm.evalCode(wrapped, fileHandle.toString());
    });
    // The promise-state hook internal/host describes: null for a non-promise, else [state, value?].
    define('__hostPromiseState', (handle) => {
      if (!handle.isObject || handle.promiseState < 0) return vm.null;
      const state = handle.promiseState;
      const result = vm.newArray();
      const name = vm.newString(state === 0 ? 'pending' : state === 1 ? 'fulfilled' : 'rejected');
      result.setProp('0', name);
      name.dispose();
      if (state !== 0) {
        const value = promiseResult(vm, handle);
        result.setProp('1', value);
        value.dispose();
      }
      return result;
    });
    // quickjs-wasi's performance.now() counts whole milliseconds; the engine lends the host's clock.
    define('__hostNow', () => vm.newNumber(performance.now()));
    define('__print', (textHandle) => {
      if (harness) harness.output += textHandle.toString();
      return vm.undefined;
    });
    harness.check(() => vm.evalCode(LOADER, 'tabcode:harness'));
    harness.check(() => vm.evalCode(EVENT_LOOP_SOURCE, 'tabcode:event-loop'));
    return harness;
  }

  /**
   * Evaluates `code` (a script named `filename`; its completion value is the result) and returns the value as JSON
   * allows (strings, numbers, booleans, null, arrays, plain objects). Pending promise jobs are run
   * afterwards. A guest exception is rethrown as an Error with the guest's name, message and stack.
   */
  eval(code: string, filename = '/home/user/project/test.js'): unknown {
    const value = this.check(() => this.vm.evalCode(code, filename));
    this.drain();
    return value;
  }

  /**
   * Evaluates `code` whose completion value is a promise, runs jobs until it settles, returns its
   * value (as `eval` does) or rethrows its rejection.
   */
  evalAsync(code: string): unknown {
    let promise: JSValueHandle;
    try {
      promise = this.vm.evalCode(code, '/home/user/project/test.js');
    } catch (err) {
      this.rethrow(err);
    }
    try {
      for (let i = 0; i < 10_000; i++) {
        const state = promise.isObject ? promise.promiseState : -1;
        if (state < 0) return this.vm.dump(promise);
        if (state === 1) return this.settled(promise, false);
        if (state === 2) this.settled(promise, true);
        this.drain();
        if (promise.promiseState === 0 && !this.step()) {
          throw new Error('guest promise never settled (no pending jobs or timers left)');
        }
      }
      throw new Error('guest promise never settled (no timers in the harness)');
    } finally {
      promise.dispose();
    }
  }

  /**
   * Runs the event loop the way Node ends a program: promise jobs and timers until nothing is left,
   * then process 'beforeExit' (again while its listeners schedule more work), then 'exit'. Returns
   * `process.exitCode` (0 when unset). An exception escaping a callback is rethrown (after
   * 'uncaughtException' listeners, if any, declined it by not existing). Throws when the loop is still
   * busy after `maxSteps` callbacks (a runaway interval).
   */
  runToExit(maxSteps = 100_000): number {
    for (let i = 0; i < maxSteps; i++) {
      this.drain();
      if (this.step()) continue;
      this.eval('__loop.emit("beforeExit", process.exitCode === undefined ? 0 : process.exitCode)');
      if (this.eval('__loop.alive()')) continue;
      this.eval('__loop.emit("exit", process.exitCode === undefined ? 0 : process.exitCode)');
      return Number(this.eval('process.exitCode === undefined ? 0 : process.exitCode'));
    }
    throw new Error(`guest event loop still busy after ${maxSteps} callbacks`);
  }

  takeOutput(): string {
    const out = this.output;
    this.output = '';
    return out;
  }

  dispose(): void {
    this.vm.dispose();
  }

  /** Runs one timer or immediate callback (then its promise jobs); false when none is pending. */
  private step(): boolean {
    return this.eval('__loop.step()') === true;
  }

  /** Runs process.nextTick callbacks, then promise jobs, until neither is left (Node's order). */
  private drain(): void {
    for (;;) {
      let ran: number;
      let jobs: number;
      try {
        ran = this.vm
          .evalCode('globalThis.__ticks ? __ticks.run() : 0', 'tabcode:ticks')
          .consume((v) => v.toNumber());
        jobs = this.vm.executePendingJobs();
      } catch (err) {
        this.rethrow(err);
      }
      if (ran === 0 && jobs === 0) return;
    }
  }

  /** The value of a settled promise (dumped), or its rejection rethrown. */
  private settled(promise: JSValueHandle, rejected: boolean): unknown {
    const value = promiseResult(this.vm, promise);
    if (rejected) this.rethrowValue(value);
    try {
      return this.vm.dump(value);
    } finally {
      value.dispose();
    }
  }

  private check(run: () => JSValueHandle): unknown {
    let handle: JSValueHandle;
    try {
      handle = run();
    } catch (err) {
      this.rethrow(err);
    }
    try {
      return this.vm.dump(handle);
    } finally {
      handle.dispose();
    }
  }

  /** A guest exception (JSException) as a host Error with the guest's name, message and stack. */
  private rethrow(err: unknown): never {
    if (err instanceof JSException) {
      const e = new Error(err.message);
      e.name = err.name;
      e.stack = `${err.name}: ${err.message}\n${err.stack ?? ''}`;
      err.dispose();
      throw e;
    }
    throw err;
  }

  private rethrowValue(handle: JSValueHandle): never {
    const dumped = this.vm.dump(handle) as { name?: string; message?: string; stack?: string } | string;
    handle.dispose();
    if (typeof dumped === 'object' && dumped !== null) {
      const err = new Error(dumped.message ?? String(dumped));
      err.name = dumped.name ?? 'Error';
      err.stack = `${err.name}: ${err.message}\n${dumped.stack ?? ''}`;
      throw err;
    }
    throw new Error(`guest threw ${JSON.stringify(dumped)}`);
  }
}

/** A settled promise's value, read with quickjs-wasi's own export (as its resolvePromise does). */
function promiseResult(vm: QuickJS, promise: JSValueHandle): JSValueHandle {
  const exports = (vm as unknown as { exports: { qjs_promise_result(ptr: number): number } }).exports;
  return new HandleClass(vm, exports.qjs_promise_result(promise.ptr));
}
