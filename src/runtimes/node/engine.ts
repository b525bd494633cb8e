/**
 * The Node.js engine: user JavaScript on QuickJS-ng (the `quickjs-wasi` build), with Node's module
 * system and built-ins as guest code (guest/lib) over a small set of host functions (host-binding.ts).
 * One engine lives in one worker and keeps its file mirror (MemFs) between runs.
 *
 * Boot once, restore per run: the engine starts a VM, loads the runtime and the common built-ins into
 * it, and takes a snapshot. Each run restores a fresh VM from that snapshot (a few milliseconds), so a
 * program starts with Node ready and nothing a previous program did survives it.
 *
 * The run loop is Node's, simplified: run the entry, then process.nextTick callbacks and promise jobs,
 * then unhandled rejections, then macrotasks (immediates, due timers, child_process replies) one at a
 * time until nothing keeps the process alive, then 'beforeExit' and 'exit'. `process.exit()` stops the
 * program at once (the interrupt handler unwinds it, uncatchably). The engine never throws for a
 * program's failure: it prints what Node would and returns an exit code.
 *
 * It runs in a Web Worker in the page and in Node for tests; it touches no DOM and no network.
 */
import picomatch from 'picomatch';
import { JSException, type JSValueHandle, QuickJS, type Snapshot } from 'quickjs-wasi';
import { messageOf } from '../../core/errors.ts';
import { MemFs } from '../shared/mem-fs.ts';
import type { RunRequest } from '../shared/protocol.ts';
import { isDefaultTestFile, NODE_HELP, NodeCliError, type NodePlan, parseNodeArgs } from './cli.ts';
import { publicBuiltins } from './guest/sources.ts';
import { bindHostFunctions, installBinding, type StateHolder } from './host-binding.ts';
import { moduleLoader } from './module-loader.ts';
import { Resolver } from './resolve.ts';
import { type EngineIO, RunState } from './run-state.ts';
import { NODE_VERSION } from './version.ts';

export type { EngineIO } from './run-state.ts';

/** Stack for guest code (QuickJS guards it; deep recursion is a RangeError the program can catch). */
const MAX_STACK_BYTES = 512 * 1024;
/** Heap while booting (the run's own limit applies once it starts). */
const BOOT_MEMORY_BYTES = 256 * 1024 * 1024;
/** Built-ins loaded at boot, so a program finds them ready (the rest load on first require). */
const PRELOADED = [
  'fs',
  'fs/promises',
  'path',
  'util',
  'events',
  'buffer',
  'os',
  'url',
  'assert',
  'assert/strict',
  'crypto',
  'child_process',
  'timers/promises',
  'stream',
  'string_decoder',
  'module',
  'test',
  'internal/main',
];

export interface EngineLoadOptions {
  /** The engine's compiled wasm (quickjs-wasi's quickjs.wasm). */
  wasmModule: WebAssembly.Module;
}

/** A run no request has been made for yet (the boot). */
const BOOT_REQUEST: RunRequest = {
  args: [],
  cwd: '/',
  env: {},
  stdin: new Uint8Array(),
  root: '/',
  memoryLimitBytes: BOOT_MEMORY_BYTES,
};
const SILENT: EngineIO = { output() {}, fsChanges() {}, exec() {} };

export class NodeEngine {
  readonly fs = new MemFs();
  private readonly resolver = new Resolver({ fs: this.fs, builtins: new Set(publicBuiltins()) });
  private current: RunState | undefined;

  private constructor(
    private readonly wasm: WebAssembly.Module,
    private readonly snapshot: Snapshot,
    /** The guest's dispatcher, exported from the boot VM (valid in every VM restored from it). */
    private readonly dispatchToken: number,
  ) {}

  /** Boots the runtime once and keeps its snapshot. Rejects when the engine cannot start. */
  static async load(options: EngineLoadOptions): Promise<NodeEngine> {
    const fs = new MemFs();
    const holder: StateHolder = { state: new RunState(BOOT_REQUEST, SILENT, fs) };
    const resolver = new Resolver({ fs, builtins: new Set(publicBuiltins()) });
    let vm: QuickJS | undefined;
    const loader = moduleLoader(() => vm as QuickJS, holder, resolver);
    vm = await QuickJS.create({
      wasm: options.wasmModule,
      memoryLimit: BOOT_MEMORY_BYTES,
      maxStackSize: MAX_STACK_BYTES,
      moduleLoader: loader,
    });
    try {
      installBinding(vm, holder, resolver);
      const dispatch = vm.evalCode(BOOTSTRAP, 'node:internal/bootstrap');
      const preload = vm.evalCode(
        `(() => { const r = globalThis[Symbol.for('tabcode.internal')].requireBuiltin; for (const n of ${JSON.stringify(PRELOADED)}) { try { r(n); } catch {} } })()`,
        'node:internal/preload',
      );
      preload.dispose();
      vm.executePendingJobs();
      const token = vm.exportHandle(dispatch);
      const snapshot = vm.snapshot();
      dispatch.dispose();
      return new NodeEngine(options.wasmModule, snapshot, token);
    } finally {
      vm.dispose();
    }
  }

  /** A child_process command finished (the host's answer to `EngineIO.exec`). */
  execDone(id: number, result: { exitCode: number; stdout: string; stderr: string }): void {
    this.current?.push({ kind: 'exec', id, ...result });
  }

  /** Stops the running program at its next interrupt check (in-process use; a worker is terminated). */
  stop(): void {
    if (this.current) this.current.exiting = true;
  }

  /** Runs one program to its end. Never throws; the result is the exit code. */
  async run(request: RunRequest, io: EngineIO): Promise<number> {
    this.fs.setWritableRoots([request.root, '/tmp']);
    this.resolver.clearCache();
    const state = new RunState(request, io, this.fs);
    try {
      state.plan = parseNodeArgs(request.args);
    } catch (err) {
      if (!(err instanceof NodeCliError)) throw err;
      state.write('stderr', `${err.message}\n`);
      return finish(state, err.exitCode);
    }
    const plan = state.plan;
    if (plan.mode === 'version') {
      state.write('stdout', `${NODE_VERSION}\n`);
      return finish(state, 0);
    }
    if (plan.mode === 'help') {
      state.write('stdout', NODE_HELP);
      return finish(state, 0);
    }
    const notStarted = prepareRun(state, plan);
    if (notStarted !== undefined) return finish(state, notStarted);
    this.current = state;
    const holder: StateHolder = { state };
    let vm: QuickJS | undefined;
    try {
      const loader = moduleLoader(() => vm as QuickJS, holder, this.resolver);
      vm = await QuickJS.restore(this.snapshot, {
        wasm: this.wasm,
        memoryLimit: plan.maxOldSpaceMb ? plan.maxOldSpaceMb * 1024 * 1024 : request.memoryLimitBytes,
        maxStackSize: MAX_STACK_BYTES,
        interruptHandler: () => {
          state.flushIfDue();
          return state.exiting;
        },
        onUnhandledRejection: (promise, reason, isHandled) => {
          const id = promise.identity;
          if (isHandled) {
            const known = state.rejections.get(id);
            known?.promise.dispose();
            known?.reason.dispose();
            state.rejections.delete(id);
          } else state.rejections.set(id, { promise: promise.dup(), reason: reason.dup() });
        },
        moduleLoader: loader,
      });
      bindHostFunctions(vm, holder, this.resolver);
      const dispatch = vm.importHandle(this.dispatchToken);
      const run = new Run(vm, state, dispatch);
      run.call('main');
      await run.loop();
      if (state.outOfMemory) return finish(state, reportOutOfMemory(state));
      return finish(state, state.exitCode ?? 0);
    } catch (err) {
      const message = messageOf(err);
      state.write('stderr', `tabcode: the Node.js runtime failed: ${message}\n`);
      return finish(state, 70);
    } finally {
      state.clearTimers();
      this.current = undefined;
      try {
        vm?.dispose();
      } catch {
        // A VM left mid-way may not free cleanly; it is dropped either way.
      }
    }
  }
}

/** Driving one restored VM: the dispatcher calls and the event loop. */
class Run {
  constructor(
    private readonly vm: QuickJS,
    private readonly state: RunState,
    private readonly dispatch: JSValueHandle,
  ) {}

  async loop(): Promise<void> {
    const state = this.state;
    let beforeExitDone = false;
    while (!state.exiting) {
      this.drain();
      if (state.exiting) break;
      state.flushIfDue();
      const immediate = state.immediates.shift();
      if (immediate !== undefined) {
        this.call('immediate', immediate);
        continue;
      }
      const event = state.events.shift();
      if (event) {
        if (event.kind === 'timer') {
          if (state.timers.has(event.id)) {
            state.timers.delete(event.id);
            this.call('timer', event.id);
          }
        } else {
          state.pendingExecs.delete(event.id);
          this.call('exec', event.id, event.exitCode, event.stdout, event.stderr);
        }
        continue;
      }
      if (!state.hasWork()) {
        if (beforeExitDone) break;
        beforeExitDone = true;
        this.call('beforeExit');
        this.drain();
        if (!state.hasWork()) break;
        beforeExitDone = false;
        continue;
      }
      state.flush();
      await new Promise<void>((resolve) => {
        state.wake = resolve;
      });
      state.wake = undefined;
    }
    if (!state.exiting) {
      // Natural end: 'exit' listeners run, and may still set process.exitCode.
      this.call('exit');
      this.drain();
    }
  }

  /**
   * Runs process.nextTick callbacks, then promise jobs, until neither is left (Node's order: the tick
   * queue before promise reactions), then reports rejections nobody handled by then.
   */
  private drain(): void {
    const state = this.state;
    for (;;) {
      while (!state.exiting) {
        if (state.ticksPending) {
          state.ticksPending = false;
          this.call('ticks');
          continue;
        }
        if (!this.runJobs()) break;
      }
      if (state.exiting || state.rejections.size === 0) return;
      const [id, rejection] = state.rejections.entries().next().value as [
        number,
        { promise: JSValueHandle; reason: JSValueHandle },
      ];
      state.rejections.delete(id);
      this.call('rejection', rejection.reason, rejection.promise);
      rejection.reason.dispose();
      rejection.promise.dispose();
    }
  }

  /** Runs pending promise jobs; false when there were none. */
  private runJobs(): boolean {
    try {
      return this.vm.executePendingJobs() > 0;
    } catch (err) {
      this.guestFailure(err);
      return !this.state.exiting;
    }
  }

  /** Calls the guest's dispatcher with `kind` and plain arguments (numbers, strings, or handles). */
  call(kind: string, ...args: (number | string | JSValueHandle)[]): void {
    const state = this.state;
    if (state.exiting) return;
    const vm = this.vm;
    const owned: JSValueHandle[] = [vm.newString(kind)];
    const handles: JSValueHandle[] = [owned[0]];
    for (const a of args) {
      if (typeof a === 'number' || typeof a === 'string') {
        const h = typeof a === 'number' ? vm.newNumber(a) : vm.newString(a);
        owned.push(h);
        handles.push(h);
      } else handles.push(a);
    }
    try {
      vm.callFunction(this.dispatch, vm.undefined, ...handles).dispose();
    } catch (err) {
      this.guestFailure(err);
    } finally {
      for (const h of owned) h.dispose();
    }
  }

  /**
   * An exception the guest's own handlers could not take: an interrupt (process.exit, the run stopped),
   * an exhausted heap, or a failure of the runtime itself.
   */
  private guestFailure(err: unknown): void {
    const state = this.state;
    if (state.exiting) return;
    const message = err instanceof JSException ? err.message : messageOf(err);
    if (/out of memory/i.test(message)) {
      state.outOfMemory = true;
    } else if (/interrupted/i.test(message)) {
      // Stopped from outside (stop()).
    } else if (/call stack|stack overflow/i.test(message)) {
      state.write('stderr', '\nRangeError: Maximum call stack size exceeded\n');
      state.exitCode ??= 1;
    } else {
      const stack = err instanceof JSException ? (err.stack ?? '') : '';
      const text = stack.includes(message) ? stack : `${message}\n${stack}`;
      state.write('stderr', `${text.trimEnd()}\n`);
      state.exitCode ??= 1;
    }
    if (err instanceof JSException) err.dispose();
    state.exiting = true;
  }
}

/**
 * What the run needs before the program starts: --env-file variables, the --test file list. Returns an
 * exit code when the run cannot start (a missing env file), else undefined.
 */
function prepareRun(state: RunState, plan: NodePlan): number | undefined {
  for (const file of plan.envFiles) {
    const abs = file.startsWith('/') ? file : `${state.cwd}/${file}`;
    let text: string;
    try {
      text = new TextDecoder().decode(state.fs.readFile(abs));
    } catch {
      state.write('stderr', `node: ${file}: not found\n`);
      return 9;
    }
    for (const [key, value] of Object.entries(parseEnvFile(text))) state.env[key] ??= value;
  }
  if (plan.mode === 'test') state.testFiles = findTestFiles(state.fs, state.cwd, plan.testPatterns);
  return undefined;
}

/** KEY=value lines of a .env file (quotes, `export`, comments), as Node's --env-file reads them. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([\w.-]+)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2];
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length > 1) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replaceAll('\\n', '\n');
    } else value = value.replace(/\s+#.*$/, '');
    out[m[1]] = value;
  }
  return out;
}

/** `node --test [patterns]`: the files, sorted; directories in patterns are searched. */
export function findTestFiles(fs: MemFs, cwd: string, patterns: string[]): string[] {
  const all: string[] = [];
  const walk = (dir: string) => {
    let entries: ReturnType<MemFs['readdir']>;
    try {
      entries = fs.readdir(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      if (e.type === 'dir') {
        if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p);
      } else if (e.type === 'file') all.push(p);
    }
  };
  const rel = (p: string) => (p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p);
  if (patterns.length === 0) {
    walk(cwd);
    return all.filter((p) => isDefaultTestFile(rel(p))).sort();
  }
  const out = new Set<string>();
  for (const pattern of patterns) {
    const abs = pattern.startsWith('/') ? pattern : `${cwd}/${pattern}`;
    try {
      const st = fs.stat(abs);
      if (st.type === 'file') {
        out.add(abs);
        continue;
      }
      if (st.type === 'dir') {
        const before = all.length;
        walk(abs);
        for (const p of all.slice(before)) if (isDefaultTestFile(rel(p))) out.add(p);
        continue;
      }
    } catch {
      // Not a path: a glob pattern.
    }
    if (all.length === 0) walk(cwd);
    const matcher = picomatch(pattern, { dot: false });
    for (const p of all) if (matcher(rel(p))) out.add(p);
  }
  return [...out].sort();
}

/** Node's message for an exhausted heap, and its exit code (134, as after abort()). */
function reportOutOfMemory(state: RunState): number {
  const limit = state.plan?.maxOldSpaceMb
    ? state.plan.maxOldSpaceMb * 1024 * 1024
    : state.request.memoryLimitBytes;
  const mb = Math.round(limit / (1024 * 1024));
  state.write(
    'stderr',
    `\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory (the program used its ${mb} MB; raise it with node --max-old-space-size=<MB>)\n`,
  );
  return 134;
}

function finish(state: RunState, code: number): number {
  state.flush();
  return code;
}

/**
 * Evaluated at boot: loads the guest's bootstrap module, which takes the host binding off the global
 * object and installs Node's globals; its completion value is the dispatcher the engine drives.
 */
const BOOTSTRAP = `(function () {
  const binding = globalThis.__tabcode_binding;
  delete globalThis.__tabcode_binding;
  const source = binding.builtinSource('internal/bootstrap');
  const fn = binding.compile(source, 'node:internal/bootstrap');
  const module = { exports: {} };
  fn.call(module.exports, module.exports, undefined, module, 'node:internal/bootstrap', '');
  return module.exports(binding);
})()`;
