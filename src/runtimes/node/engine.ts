/**
 * The Node.js engine: user JavaScript on QuickJS-ng, with Node's module system and built-ins as guest
 * code (guest/lib) over a small set of host functions (host-binding.ts). One engine lives in one worker
 * and keeps its file mirror (MemFs) between runs; each run gets a fresh QuickJS runtime, so nothing a
 * program leaves in memory reaches the next one.
 *
 * The run loop is Node's, simplified: evaluate the entry, run microtasks, then macrotasks (immediates,
 * due timers, child_process replies) one at a time until nothing keeps the process alive, then
 * 'beforeExit' and 'exit'. `process.exit()` stops the program at once (QuickJS's interrupt handler
 * unwinds it, uncatchably). The engine never throws for a program's failure: it prints what Node would
 * and returns an exit code.
 *
 * It runs in a Web Worker in the page and in Node for tests; it touches no DOM and no network.
 */

import variant from '@jitl/quickjs-ng-wasmfile-release-sync';
import picomatch from 'picomatch';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { MemFs } from '../shared/mem-fs.ts';
import type { FileChange, RunRequest } from '../shared/protocol.ts';
import { isDefaultTestFile, NODE_HELP, NodeCliError, type NodePlan, parseNodeArgs } from './cli.ts';
import { GUEST_SOURCES, publicBuiltins } from './guest/sources.ts';
import { installBinding } from './host-binding.ts';
import { moduleLoader } from './module-loader.ts';
import { Resolver } from './resolve.ts';
import { NODE_VERSION } from './version.ts';

/**
 * Stack for guest code. QuickJS's wasm frames also use the host engine's own stack, which is about
 * 1 MB in V8; past about 300 KB of QuickJS stack the host overflows first (and the engine is lost), so
 * the limit stays below that: about 1,600 levels of plain recursion, then a RangeError the program can
 * catch.
 */
const MAX_STACK_BYTES = 256 * 1024;
/** Output and file changes are sent at most this often while a program runs (ms). */
export const FLUSH_INTERVAL_MS = 10;
/** Output kept in the worker before it is sent regardless of time (characters). */
const FLUSH_CHARS = 64 * 1024;

export interface EngineIO {
  output(stream: 'stdout' | 'stderr', text: string): void;
  fsChanges(changes: FileChange[]): void;
  /** Starts a shell command in the sandbox; the answer comes back through `Engine.execDone`. */
  exec(request: {
    id: number;
    command: string;
    cwd: string;
    env: Record<string, string>;
    stdin: string;
  }): void;
}

export interface EngineLoadOptions {
  /** The engine's compiled wasm (compiled once; every run instantiates it afresh). */
  wasmModule?: WebAssembly.Module;
  /** Where the engine's .wasm is, when no compiled module is given. */
  wasmLocation?: string;
}

/** A new QuickJS wasm instance (its own memory). */
export function loadQuickJS(options: EngineLoadOptions = {}): Promise<QuickJSWASMModule> {
  if (options.wasmModule)
    return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: options.wasmModule }));
  return newQuickJSWASMModuleFromVariant(
    options.wasmLocation ? newVariant(variant, { wasmLocation: options.wasmLocation }) : variant,
  );
}

type LoopEvent =
  | { kind: 'timer'; id: number }
  | { kind: 'exec'; id: number; exitCode: number; stdout: string; stderr: string };

/** State of one run; the host binding reads and changes it. */
export class RunState {
  readonly request: RunRequest;
  cwd: string;
  plan: NodePlan | undefined;
  /** `--test`: the files to run, absolute. */
  testFiles: string[] = [];
  /** The program's environment (the command's, plus --env-file entries). */
  env: Record<string, string>;
  exitCode: number | undefined;
  /** process.exit() was called: every further guest instruction is interrupted. */
  exiting = false;
  /** Heap exhausted (QuickJS threw out of memory). */
  outOfMemory = false;
  /** process.nextTick callbacks wait. */
  ticksPending = false;
  /** ES modules (by URL) the loader gave a line of its own before line 1 (see module-loader.ts). */
  readonly prefixedModules = new Set<string>();
  readonly timers = new Map<number, { handle: ReturnType<typeof setTimeout> | undefined; refed: boolean }>();
  readonly immediates: number[] = [];
  readonly pendingExecs = new Set<number>();
  readonly events: LoopEvent[] = [];
  wake: (() => void) | undefined;
  dispatch: QuickJSHandle | undefined;
  private outBuf = { stdout: '', stderr: '' };
  private firstPendingAt = 0;

  constructor(
    request: RunRequest,
    private readonly io: EngineIO,
    readonly fs: MemFs,
  ) {
    this.request = request;
    this.cwd = request.cwd;
    this.env = { ...request.env };
  }

  write(stream: 'stdout' | 'stderr', text: string): void {
    if (!text) return;
    if (!this.outBuf.stdout && !this.outBuf.stderr) this.firstPendingAt = performance.now();
    // Keep order between the streams: switching streams sends what the other one holds.
    const other = stream === 'stdout' ? 'stderr' : 'stdout';
    if (this.outBuf[other]) this.flushOutput();
    this.outBuf[stream] += text;
    if (this.outBuf[stream].length > FLUSH_CHARS) this.flushOutput();
  }

  /** Sends output and file changes now. */
  flush(): void {
    this.flushOutput();
    if (this.fs.hasChanges()) this.io.fsChanges(coalesce(this.fs.takeChanges()));
  }

  /** Sends what waited longer than FLUSH_INTERVAL_MS (called from the interrupt handler too). */
  flushIfDue(): void {
    if (
      (this.outBuf.stdout || this.outBuf.stderr) &&
      performance.now() - this.firstPendingAt >= FLUSH_INTERVAL_MS
    ) {
      this.flush();
    } else if (this.fs.hasChanges() && !this.outBuf.stdout && !this.outBuf.stderr) {
      this.flush();
    }
  }

  private flushOutput(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.outBuf[stream]) {
        this.io.output(stream, this.outBuf[stream]);
        this.outBuf[stream] = '';
      }
    }
  }

  push(event: LoopEvent): void {
    this.events.push(event);
    this.wake?.();
  }

  /** Something still keeps the process alive. */
  hasWork(): boolean {
    if (this.immediates.length > 0 || this.events.length > 0 || this.pendingExecs.size > 0) return true;
    for (const t of this.timers.values()) if (t.refed) return true;
    return false;
  }

  startExec(request: {
    id: number;
    command: string;
    cwd: string;
    env: Record<string, string>;
    stdin: string;
  }): void {
    this.flush();
    this.pendingExecs.add(request.id);
    this.io.exec(request);
  }
}

/**
 * Every run gets its own wasm instance, dropped whole afterwards. Freeing a QuickJS runtime that a
 * program left mid-way (interrupted by process.exit, a top-level await that never settled, an exhausted
 * heap, the host's stack overflowing inside the engine) can abort or corrupt the instance; a fresh one
 * per run (about 6 ms from the compiled module) means no run can harm the next, and nothing a program
 * leaves in memory survives it.
 */
export class NodeEngine {
  readonly fs = new MemFs();
  private current: RunState | undefined;
  /** The instance for the next run, made ahead of time. */
  private next: Promise<QuickJSWASMModule>;

  private constructor(
    first: QuickJSWASMModule,
    private readonly options: EngineLoadOptions,
  ) {
    this.next = Promise.resolve(first);
  }

  static async load(options: EngineLoadOptions = {}): Promise<NodeEngine> {
    return new NodeEngine(await loadQuickJS(options), options);
  }

  /** Stops the running program at its next interrupt check (in-process use; a worker is terminated). */
  stop(): void {
    if (this.current) this.current.exiting = true;
  }

  /** A child_process command finished (the host's answer to `EngineIO.exec`). */
  execDone(id: number, result: { exitCode: number; stdout: string; stderr: string }): void {
    this.current?.push({ kind: 'exec', id, ...result });
  }

  /** Runs one program to its end. Never throws; the result is the exit code. */
  async run(request: RunRequest, io: EngineIO): Promise<number> {
    this.fs.setWritableRoots([request.root, '/tmp']);
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
    const prepared = prepareRun(state, plan);
    if (prepared !== undefined) return finish(state, prepared);
    this.current = state;
    const qjs = await this.next;
    this.next = loadQuickJS(this.options);
    const runtime = qjs.newRuntime();
    runtime.setMemoryLimit(plan.maxOldSpaceMb ? plan.maxOldSpaceMb * 1024 * 1024 : request.memoryLimitBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(() => {
      state.flushIfDue();
      return state.exiting;
    });
    const vm = runtime.newContext();
    const resolver = new Resolver({ fs: this.fs, builtins: new Set(publicBuiltins()) });
    try {
      installBinding(vm, state, resolver);
      const loader = moduleLoader(vm, state, resolver);
      runtime.setModuleLoader(loader.load, loader.normalize);
      const booted = vm.evalCode(BOOTSTRAP, 'node:internal/bootstrap');
      if (booted.error) {
        this.reportEngineError(vm, state, booted.error);
        return finish(state, 70);
      }
      booted.value.dispose();
      if (!state.dispatch) {
        state.write('stderr', 'tabcode: the Node.js runtime did not start (internal error).\n');
        return finish(state, 70);
      }
      this.call(vm, state, 'main');
      await this.loop(vm, runtime, state);
      if (state.outOfMemory) return finish(state, reportOutOfMemory(state));
      return finish(state, state.exitCode ?? 0);
    } catch (err) {
      state.write(
        'stderr',
        `tabcode: the Node.js runtime failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      return finish(state, 70);
    } finally {
      state.dispatch?.dispose();
      state.dispatch = undefined;
      for (const t of state.timers.values()) if (t.handle) clearTimeout(t.handle);
      this.current = undefined;
      try {
        vm.dispose();
        runtime.dispose();
      } catch {
        // A runtime that ran out of memory may not free cleanly; the worker is replaced anyway.
      }
    }
  }

  private async loop(vm: QuickJSContext, runtime: QuickJSRuntime, state: RunState): Promise<void> {
    let beforeExitDone = false;
    while (!state.exiting) {
      this.drain(vm, runtime, state);
      if (state.exiting) break;
      state.flushIfDue();
      const immediate = state.immediates.shift();
      if (immediate !== undefined) {
        this.call(vm, state, 'immediate', immediate);
        continue;
      }
      const event = state.events.shift();
      if (event) {
        if (event.kind === 'timer') {
          if (state.timers.has(event.id)) {
            state.timers.delete(event.id);
            this.call(vm, state, 'timer', event.id);
          }
        } else {
          state.pendingExecs.delete(event.id);
          this.call(vm, state, 'exec', event.id, event.exitCode, event.stdout, event.stderr);
        }
        continue;
      }
      if (!state.hasWork()) {
        if (beforeExitDone) break;
        beforeExitDone = true;
        this.call(vm, state, 'beforeExit');
        this.drain(vm, runtime, state);
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
      this.call(vm, state, 'exit');
      this.drain(vm, runtime, state);
    }
  }

  /**
   * Runs process.nextTick callbacks, then pending promise jobs, until neither is left (Node's order:
   * the tick queue before promise reactions). An exception there is reported like an uncaught one.
   */
  private drain(vm: QuickJSContext, runtime: QuickJSRuntime, state: RunState): void {
    while (!state.exiting) {
      if (state.ticksPending) {
        state.ticksPending = false;
        this.call(vm, state, 'ticks');
        continue;
      }
      if (!runtime.hasPendingJob()) break;
      const result = runtime.executePendingJobs();
      if (result.error) {
        const handle = result.error;
        if (!state.exiting) this.call(vm, state, 'fatal', handle);
        handle.dispose();
      }
    }
  }

  /** Calls the guest's dispatcher: `kind` and plain arguments (numbers, strings, or a handle). */
  private call(
    vm: QuickJSContext,
    state: RunState,
    kind: string,
    ...args: (number | string | QuickJSHandle)[]
  ): void {
    if (!state.dispatch || state.exiting) return;
    const handles = [vm.newString(kind)];
    const owned = [handles[0]];
    for (const a of args) {
      if (typeof a === 'number') {
        const h = vm.newNumber(a);
        handles.push(h);
        owned.push(h);
      } else if (typeof a === 'string') {
        const h = vm.newString(a);
        handles.push(h);
        owned.push(h);
      } else handles.push(a);
    }
    try {
      const result = vm.callFunction(state.dispatch, vm.undefined, ...handles);
      if (result.error) {
        // Interrupted by process.exit(), or something the guest's own handler could not catch.
        if (!state.exiting) this.reportEngineError(vm, state, result.error);
        else result.error.dispose();
      } else result.value.dispose();
    } finally {
      for (const h of owned) h.dispose();
    }
  }

  /** An error the guest could not handle itself (out of memory, a broken bootstrap). */
  private reportEngineError(vm: QuickJSContext, state: RunState, handle: QuickJSHandle): void {
    let text = 'unknown error';
    try {
      const dumped = vm.dump(handle) as { message?: string; stack?: string } | string;
      text = typeof dumped === 'string' ? dumped : `${dumped.message ?? ''}\n${dumped.stack ?? ''}`;
    } catch {
      // Dumping may itself fail when memory is exhausted.
    }
    handle.dispose();
    if (/out of memory/i.test(text)) {
      state.outOfMemory = true;
    } else {
      state.write('stderr', `${text.trim()}\n`);
      state.exitCode ??= 1;
    }
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

/** Consecutive writes of one file collapse into the last (appendFileSync in a loop). */
function coalesce(changes: FileChange[]): FileChange[] {
  const out: FileChange[] = [];
  for (const c of changes) {
    const prev = out[out.length - 1];
    if (c.op === 'file' && prev?.op === 'file' && prev.path === c.path) out[out.length - 1] = c;
    else out.push(c.op === 'file' ? { ...c, data: c.data.slice() } : c);
  }
  return out;
}

/**
 * Evaluated first in every run: loads the guest's bootstrap module, which takes the host binding off the
 * global object and installs Node's globals.
 */
const BOOTSTRAP = `(function () {
  const binding = globalThis.__tabcode_binding;
  delete globalThis.__tabcode_binding;
  const source = binding.builtinSource('internal/bootstrap');
  const fn = binding.compile(source, 'node:internal/bootstrap');
  const module = { exports: {} };
  fn.call(module.exports, module.exports, undefined, module, 'node:internal/bootstrap', '');
  module.exports(binding);
})();`;

export { GUEST_SOURCES };
