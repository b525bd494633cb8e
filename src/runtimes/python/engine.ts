/**
 * Python in the worker: one Pyodide interpreter, loaded once, running programs one at a time through
 * runner.py. Output is sent as it is printed (in batches of at most FLUSH_INTERVAL_MS), file changes
 * every FS_FLUSH_INTERVAL_MS and at the end, before `exit`.
 *
 * Python runs synchronously in the worker's thread, so JavaScript only gets control back through the
 * interpreter's callbacks: the stream writes, and the signal check CPython makes every few dozen
 * bytecodes. The worker hands Pyodide an "interrupt buffer" whose read is that check: it flushes what
 * is due and enforces the memory limit (by raising MemoryError in the program). Stopping a run does
 * not need it: the pool terminates the whole worker.
 */
import type { PyodideAPI } from 'pyodide';
import { messageOf } from '../../core/errors.ts';
import type { FileChange, RunRequest } from '../shared/protocol.ts';
import { parsePythonArgs } from './cli.ts';
import { type EmscriptenFs, PyodideFiles } from './fs-bridge.ts';
import RUNNER_SOURCE from './runner.py?raw';
import { PYODIDE_LOCK_INFO } from './version.ts';

/** Output is sent at most this often while a program runs (ms). */
export const FLUSH_INTERVAL_MS = 10;
/** Output kept in the worker before it is sent regardless of time (characters). */
const FLUSH_CHARS = 64 * 1024;
/** File changes are sent at most this often while a program runs (and always before `exit`), ms. */
export const FS_FLUSH_INTERVAL_MS = 250;
/** The signal the interrupt buffer reports when the memory limit is passed: runner.py raises MemoryError for it. */
const SIGUSR1 = 10;
/** The file name runner.py's frames carry (runner.py strips them from tracebacks by this name). */
const RUNNER_FILENAME = '<tabcode python3>';

/** Loads Pyodide with these options (the worker: from our own origin; tests: from node_modules). */
export type PyodideLoader = (config: Record<string, unknown>) => Promise<PyodideAPI>;

export interface EngineIO {
  output(stream: 'stdout' | 'stderr', text: string): void;
  fsChanges(changes: FileChange[]): void;
}

/** How a run ended. `fatal`: the interpreter cannot be used again (the worker must be replaced). */
export interface RunResult {
  code: number;
  fatal?: string;
}

interface EmscriptenModule {
  HEAP8: Int8Array;
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  /** Address of CPython's `PyImport_Inittab` pointer (the built-in modules' table). */
  _PyImport_Inittab?: number;
  UTF8ToString(ptr: number): string;
  SOCKFS?: { websocket_sock_ops?: Record<string, unknown> };
}

type PyCallable = ((...args: unknown[]) => unknown) & { destroy?(): void };

/** The state of the run in progress. */
class Run {
  private buf = { stdout: '', stderr: '' };
  private firstPendingAt = 0;
  /** When output was last sent (a write after a quiet spell goes out at once). */
  private lastSent = -Infinity;
  private lastFsFlush = performance.now();
  private readonly decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  stdin: Uint8Array;
  stdinPos = 0;
  /** The memory limit was passed (runner.py raised MemoryError in the program for it). */
  outOfMemory = false;

  constructor(
    private readonly io: EngineIO,
    private readonly files: PyodideFiles,
    stdin: Uint8Array,
    readonly memoryLimitBytes: number,
  ) {
    this.stdin = stdin;
  }

  write(stream: 'stdout' | 'stderr', bytes: Uint8Array): void {
    const text = this.decoders[stream].decode(bytes, { stream: true });
    if (!text) return;
    if (!this.buf.stdout && !this.buf.stderr) this.firstPendingAt = performance.now();
    // Keep the order between the streams: switching streams sends what the other one holds.
    const other = stream === 'stdout' ? 'stderr' : 'stdout';
    if (this.buf[other]) this.flushOutput();
    this.buf[stream] += text;
    // A write after a quiet spell goes out at once: the program may now sleep or compute in C code,
    // where no signal check comes to send it. Writes in quick succession are batched.
    if (this.buf[stream].length > FLUSH_CHARS || performance.now() - this.lastSent >= FLUSH_INTERVAL_MS)
      this.flushOutput();
    else this.flushIfDue();
  }

  flushIfDue(): void {
    const now = performance.now();
    if ((this.buf.stdout || this.buf.stderr) && now - this.firstPendingAt >= FLUSH_INTERVAL_MS)
      this.flushOutput();
    if (this.files.hasChanges() && now - this.lastFsFlush >= FS_FLUSH_INTERVAL_MS) this.flushFiles();
  }

  /** Everything now: the decoders' tails, the output, the file changes. */
  flushAll(): void {
    for (const stream of ['stdout', 'stderr'] as const) this.buf[stream] += this.decoders[stream].decode();
    this.flushOutput();
    this.flushFiles();
  }

  private flushOutput(): void {
    this.lastSent = performance.now();
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.buf[stream]) {
        this.io.output(stream, this.buf[stream]);
        this.buf[stream] = '';
      }
    }
  }

  private flushFiles(): void {
    this.lastFsFlush = performance.now();
    if (!this.files.hasChanges()) return;
    // Output printed before the writes goes first, so a reader of both sees them in order.
    this.flushOutput();
    const changes = this.files.takeChanges();
    if (changes.length > 0) this.io.fsChanges(changes);
  }
}

export class PythonEngine {
  private current: Run | undefined;
  private broken: string | undefined;
  /** Wasm memory right after loading: the memory limit counts from here. */
  private readonly baseMemory: number;

  private constructor(
    private readonly pyodide: PyodideAPI,
    readonly files: PyodideFiles,
    private readonly runFn: PyCallable,
  ) {
    this.baseMemory = this.module().HEAP8.buffer.byteLength;
  }

  /**
   * Loads the interpreter and prepares it: streams, stdin, the signal hook, the file bridge for
   * the mirrored files, closed bridges to JavaScript and the network. Throws when Pyodide cannot load.
   */
  static async load(loader: PyodideLoader): Promise<PythonEngine> {
    const pyodide = await loader({
      // No package index: only the standard library exists, and nothing is fetched from a CDN.
      lockFileContents: { info: PYODIDE_LOCK_INFO, packages: {} },
      packageBaseUrl: 'about:blank',
      env: { HOME: '/home/user', PYTHONDONTWRITEBYTECODE: '1' },
      // Startup chatter (there is none unless something is wrong) is not a program's output.
      stdout: () => {},
      stderr: () => {},
      checkAPIVersion: true,
    });
    let engine: PythonEngine | undefined;
    pyodide.setStdout({ write: (b: Uint8Array) => engine?.onWrite('stdout', b) ?? b.length, isatty: false });
    pyodide.setStderr({ write: (b: Uint8Array) => engine?.onWrite('stderr', b) ?? b.length, isatty: false });
    pyodide.setStdin({ read: (b: Uint8Array) => engine?.onRead(b) ?? 0, isatty: false });
    // The interrupt "buffer" is read by CPython's periodic signal check: it is our clock while a
    // program runs. A plain object works (Pyodide only reads [0] and writes 0 back).
    pyodide.setInterruptBuffer({
      get 0() {
        return engine?.onSignalCheck() ?? 0;
      },
      set 0(_value: number) {},
    } as unknown as Int32Array);
    blockSockets(pyodide);
    const removed = removeBuiltinModules(pyodide, UNSAFE_BUILTINS);
    const files = new PyodideFiles(pyodide.FS as unknown as EmscriptenFs);
    // JavaScript modules Python could import to reach the worker's globals: gone before any program.
    for (const name of ['js', 'pyodide_js']) {
      try {
        pyodide.unregisterJsModule(name);
      } catch {
        // Not registered in this version.
      }
    }
    const dict = pyodide.globals.get('dict') as PyCallable;
    const namespace = dict() as { get(name: string): unknown; destroy?(): void };
    dict.destroy?.();
    pyodide.runPython(RUNNER_SOURCE, { globals: namespace as never, filename: RUNNER_FILENAME });
    const setup = namespace.get('setup') as PyCallable;
    setup(JSON.stringify(removed));
    setup.destroy?.();
    const runFn = namespace.get('run') as PyCallable;
    namespace.destroy?.();
    engine = new PythonEngine(pyodide, files, runFn);
    return engine;
  }

  /** Runs one `python3` command line. Never throws; a crashed interpreter comes back as `fatal`. */
  run(request: RunRequest, io: EngineIO): RunResult {
    if (this.broken) return { code: 1, fatal: this.broken };
    const plan = parsePythonArgs(request.args, request.env);
    if (plan.kind === 'reply') {
      if (plan.stdout) io.output('stdout', plan.stdout);
      if (plan.stderr) io.output('stderr', plan.stderr);
      return { code: plan.exitCode };
    }
    const { run } = plan;
    let stdin = request.stdin;
    let script: string | undefined;
    if (run.mode === 'stdin') {
      // The program is the whole of stdin; the program itself then reads an empty stdin.
      script = new TextDecoder().decode(stdin);
      stdin = new Uint8Array(0);
    }
    const state = new Run(io, this.files, stdin, request.memoryLimitBytes);
    this.current = state;
    this.files.setRoots([request.root, '/tmp']);
    this.files.startTracking();
    let code: number;
    try {
      const dash = run.mode === 'stdin' && request.args.includes('-');
      const result = this.runFn(
        JSON.stringify({
          ...run,
          script,
          dash,
          env: request.env,
          cwd: request.cwd,
          memoryLimitMb: Math.round(request.memoryLimitBytes / 2 ** 20),
        }),
      );
      code = typeof result === 'number' ? result : 1;
    } catch (err) {
      // Python code cannot get here (runner.py catches everything): the interpreter itself failed.
      const message = messageOf(err);
      this.broken = /Maximum call stack size exceeded/.test(message)
        ? 'RecursionError: the program recursed deeper than the browser allows (past sys.setrecursionlimit); the Python engine restarts for the next run'
        : `the Python engine failed and restarts for the next run: ${message.split('\n').slice(-3).join(' ').trim()}`;
      code = 1;
    } finally {
      state.flushAll();
      this.files.stopTracking();
      this.current = undefined;
    }
    if (state.outOfMemory) {
      this.broken = `the program ran out of memory (the limit is ${Math.round(state.memoryLimitBytes / 2 ** 20)} MB); the Python engine restarts for the next run`;
    }
    if (this.broken) return { code: 1, fatal: this.broken };
    return { code };
  }

  /** Bytes of wasm memory the interpreter holds now. */
  memoryBytes(): number {
    return this.module().HEAP8.buffer.byteLength;
  }

  private module(): EmscriptenModule {
    return (this.pyodide as unknown as { _module: EmscriptenModule })._module;
  }

  private onWrite(stream: 'stdout' | 'stderr', bytes: Uint8Array): number {
    this.current?.write(stream, bytes);
    return bytes.length;
  }

  private onRead(buffer: Uint8Array): number {
    const run = this.current;
    if (!run) return 0;
    const n = Math.min(buffer.length, run.stdin.length - run.stdinPos);
    buffer.set(run.stdin.subarray(run.stdinPos, run.stdinPos + n));
    run.stdinPos += n;
    return n;
  }

  private onSignalCheck(): number {
    const run = this.current;
    if (!run) return 0;
    run.flushIfDue();
    if (!run.outOfMemory && this.memoryBytes() - this.baseMemory > run.memoryLimitBytes) {
      run.outOfMemory = true;
      return SIGUSR1;
    }
    return 0;
  }
}

/**
 * Built-in modules compiled into Pyodide that give a program raw memory and native calls — ctypes
 * (which can call emscripten_run_script, a JavaScript eval) and CPython's C-API test modules. None is
 * loaded when the engine starts.
 */
const UNSAFE_BUILTINS = [
  '_ctypes',
  '_testcapi',
  '_testinternalcapi',
  '_testlimitedcapi',
  '_testbuffer',
  '_testclinic',
  '_testclinic_limited',
  '_testmultiphase',
  '_testsinglephase',
  '_xxtestfuzz',
  '_remote_debugging',
];

/**
 * Takes built-in modules out of CPython's table of built-ins, so no import path (not even `_imp`
 * called directly) can create them: their names in the table (which the interpreter's runtime copy
 * shares) are emptied. Must run before anything imported them. Returns the names removed.
 */
export function removeBuiltinModules(pyodide: PyodideAPI, names: readonly string[]): string[] {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module;
  const table = module._PyImport_Inittab;
  if (table === undefined) return [];
  const wanted = new Set(names);
  const removed: string[] = [];
  // struct _inittab { const char *name; PyObject *(*initfunc)(void); }: two wasm32 pointers.
  for (let entry = module.HEAPU32[table >>> 2]; ; entry += 8) {
    const namePtr = module.HEAPU32[entry >>> 2];
    if (namePtr === 0) break;
    const name = module.UTF8ToString(namePtr);
    if (wanted.has(name)) {
      module.HEAPU8[namePtr] = 0;
      removed.push(name);
    }
  }
  return removed;
}

/**
 * Emscripten's sockets would open WebSockets (or, in Node, real connections). The worker has no
 * WebSocket after lockdown; this makes every socket operation that reaches the network fail with
 * ENETUNREACH as well, whatever the environment.
 */
function blockSockets(pyodide: PyodideAPI): void {
  const module = (pyodide as unknown as { _module: EmscriptenModule })._module;
  const ops = module.SOCKFS?.websocket_sock_ops;
  if (!ops) return;
  const errno = (pyodide as unknown as { ERRNO_CODES: Record<string, number> }).ERRNO_CODES.ENETUNREACH ?? 23;
  const ErrnoError = (pyodide.FS as unknown as { ErrnoError: new (errno: number) => Error }).ErrnoError;
  for (const name of ['connect', 'listen', 'createPeer', 'sendmsg']) {
    ops[name] = () => {
      throw new ErrnoError(errno);
    };
  }
}
