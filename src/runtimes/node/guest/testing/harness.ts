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
import variant from '@jitl/quickjs-ng-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { GUEST_SOURCES, VENDOR_ALIASES } from '../sources.ts';
import { EVENT_LOOP_SOURCE } from './event-loop.ts';

let modulePromise: Promise<QuickJSWASMModule> | undefined;

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
  try { load('internal/globals'); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }
})();`;

export class GuestHarness {
  /** Everything printed since the last `takeOutput()`. */
  private output = '';

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
  ) {}

  static async create(sources: Readonly<Record<string, string>> = GUEST_SOURCES): Promise<GuestHarness> {
    modulePromise ??= newQuickJSWASMModuleFromVariant(variant);
    const qjs = await modulePromise;
    const runtime = qjs.newRuntime();
    runtime.setMemoryLimit(256 * 1024 * 1024);
    runtime.setMaxStackSize(1024 * 1024);
    const vm = runtime.newContext();
    const harness = new GuestHarness(runtime, vm);
    vm.newFunction('__hostSource', (nameHandle) => {
      const source = sources[vm.getString(nameHandle)];
      return source === undefined ? vm.undefined : vm.newString(source);
    }).consume((fn) => vm.setProp(vm.global, '__hostSource', fn));
    vm.newFunction('__hostCompile', (sourceHandle, fileHandle) => {
      const wrapped = `(function (exports, require, module, __filename, __dirname) {${vm.getString(sourceHandle)}\n})`;
      return vm.evalCode(wrapped, vm.getString(fileHandle));
    }).consume((fn) => vm.setProp(vm.global, '__hostCompile', fn));
    // The promise-state hook internal/host describes: null for a non-promise, else [state, value?].
    vm.newFunction('__hostPromiseState', (handle) => {
      const state = vm.getPromiseState(handle);
      if (state.type === 'fulfilled' && state.notAPromise) return vm.null;
      const result = vm.newArray();
      vm.newString(state.type).consume((s) => vm.setProp(result, 0, s));
      if (state.type === 'fulfilled') state.value.consume((v) => vm.setProp(result, 1, v));
      if (state.type === 'rejected') state.error.consume((e) => vm.setProp(result, 1, e));
      return result;
    }).consume((fn) => vm.setProp(vm.global, '__hostPromiseState', fn));
    vm.newFunction('__print', (textHandle) => {
      harness.output += vm.getString(textHandle);
    }).consume((fn) => vm.setProp(vm.global, '__print', fn));
    harness.check(vm.evalCode(LOADER, 'tabcode:harness'));
    harness.check(vm.evalCode(EVENT_LOOP_SOURCE, 'tabcode:event-loop'));
    return harness;
  }

  /**
   * Evaluates `code` (a script named `filename`; its completion value is the result) and returns the value as JSON
   * allows (strings, numbers, booleans, null, arrays, plain objects). Pending promise jobs are run
   * afterwards. A guest exception is rethrown as an Error with the guest's name, message and stack.
   */
  eval(code: string, filename = '/home/user/project/test.js'): unknown {
    const value = this.check(this.vm.evalCode(code, filename));
    this.drain();
    return value;
  }

  /**
   * Evaluates `code` whose completion value is a promise, runs jobs until it settles, returns its
   * value (as `eval` does) or rethrows its rejection.
   */
  evalAsync(code: string): unknown {
    const result = this.vm.evalCode(code, '/home/user/project/test.js');
    if (result.error) this.rethrow(result.error);
    const promise = result.value;
    try {
      for (let i = 0; i < 10_000; i++) {
        const state = this.vm.getPromiseState(promise);
        if (state.type === 'fulfilled') {
          if (state.notAPromise) return this.vm.dump(promise);
          return state.value.consume((v) => this.vm.dump(v));
        }
        if (state.type === 'rejected') state.error.consume((e) => this.rethrow(e));
        this.drain();
        if (this.vm.getPromiseState(promise).type === 'pending' && !this.step()) {
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
    this.runtime.dispose();
  }

  /** Runs one timer or immediate callback (then its promise jobs); false when none is pending. */
  private step(): boolean {
    const ran = this.eval('__loop.step()') === true;
    return ran;
  }

  /** Runs process.nextTick callbacks, then promise jobs, until neither is left (Node's order). */
  private drain(): void {
    for (;;) {
      const ticks = this.vm.evalCode('globalThis.__ticks ? __ticks.run() : 0', 'tabcode:ticks');
      const ran = ticks.error ? this.rethrow(ticks.error) : ticks.value.consume((v) => this.vm.getNumber(v));
      const jobs = this.runtime.executePendingJobs();
      if (jobs.error) jobs.error.consume((e) => this.rethrow(e));
      if (ran === 0 && 'value' in jobs && jobs.value === 0) return;
    }
  }

  private check(result: ReturnType<QuickJSContext['evalCode']>): unknown {
    if (result.error) this.rethrow(result.error);
    const handle = result.value;
    try {
      return this.vm.dump(handle);
    } finally {
      // dump() of a promise disposes the handle itself.
      if (handle.alive) handle.dispose();
    }
  }

  private rethrow(errorHandle: Parameters<QuickJSContext['dump']>[0]): never {
    const dumped = this.vm.dump(errorHandle) as { name?: string; message?: string; stack?: string } | string;
    errorHandle.dispose();
    if (typeof dumped === 'object' && dumped !== null) {
      const err = new Error(dumped.message ?? String(dumped));
      err.name = dumped.name ?? 'Error';
      err.stack = `${err.name}: ${err.message}\n${dumped.stack ?? ''}`;
      throw err;
    }
    throw new Error(`guest threw ${JSON.stringify(dumped)}`);
  }
}
