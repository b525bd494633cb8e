/**
 * The state of one node program run, shared by the engine's loop, the host binding and the module
 * loader: the request and plan, cwd and env, exit status, the event loop's queues (timers, immediates,
 * child_process replies), unhandled rejections, and the output and file changes waiting to be sent.
 */
import type { JSValueHandle } from 'quickjs-wasi';
import type { MemFs } from '../shared/mem-fs.ts';
import type { FileChange, RunRequest } from '../shared/protocol.ts';
import type { NodePlan } from './cli.ts';

/** Output and file changes are sent at most this often while a program runs (ms). */
export const FLUSH_INTERVAL_MS = 10;
/** Output kept in the worker before it is sent regardless of time (characters). */
const FLUSH_CHARS = 64 * 1024;

export interface EngineIO {
  output(stream: 'stdout' | 'stderr', text: string): void;
  fsChanges(changes: FileChange[]): void;
  /** Starts a shell command in the sandbox; the answer comes back through `NodeEngine.execDone`. */
  exec(request: {
    id: number;
    command: string;
    cwd: string;
    env: Record<string, string>;
    stdin: string;
  }): void;
}

export type LoopEvent =
  | { kind: 'timer'; id: number }
  | { kind: 'exec'; id: number; exitCode: number; stdout: string; stderr: string };

/** A rejected promise nobody handled yet (reported after the microtask queue drains, as Node does). */
export interface PendingRejection {
  promise: JSValueHandle;
  reason: JSValueHandle;
}

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
  /** Heap exhausted. */
  outOfMemory = false;
  /** process.nextTick callbacks wait. */
  ticksPending = false;
  /** ES modules (by URL) the loader gave a line of its own before line 1 (see module-loader.ts). */
  readonly prefixedModules = new Set<string>();
  readonly timers = new Map<number, { handle: ReturnType<typeof setTimeout> | undefined; refed: boolean }>();
  readonly immediates: number[] = [];
  readonly pendingExecs = new Set<number>();
  readonly events: LoopEvent[] = [];
  /** Unhandled rejections by promise identity. */
  readonly rejections = new Map<number, PendingRejection>();
  wake: (() => void) | undefined;
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

  /** Ends the run's timers (the run is over). */
  clearTimers(): void {
    for (const t of this.timers.values()) if (t.handle) clearTimeout(t.handle);
    this.timers.clear();
  }
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
