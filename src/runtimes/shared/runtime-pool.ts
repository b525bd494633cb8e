/**
 * Runtime workers on the host side: starts a worker when a program needs one (never before), keeps a
 * few warm ones for the next run, brings each up to date with the sandbox's files before a run, and
 * applies the files a program changes as they arrive. Stopping a run (Esc, a timeout) terminates its
 * worker at once — a busy program cannot ignore it — and keeps what it printed and wrote until then.
 *
 * Works with anything shaped like a Worker (the page's Web Worker, or an in-process one in tests).
 */
import { messageOf } from '../../core/errors.ts';
import type { FileMirror, MirrorClient } from './mirror.ts';
import type { FileChange, HostToWorker, RunRequest, WorkerToHost } from './protocol.ts';

/** What the pool needs of a Worker. */
export interface WorkerLike {
  postMessage(message: HostToWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: WorkerToHost }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

export interface RunIO {
  output(stream: 'stdout' | 'stderr', text: string): void;
  /** Applies a program's file changes to the sandbox (in order). */
  applyChanges(changes: FileChange[]): Promise<void>;
  /** Runs a shell command for child_process. */
  exec(request: { command: string; cwd: string; env: Record<string, string>; stdin: string }): Promise<{
    stdout: string;
    stderr: string;
    exitCode: number;
  }>;
  signal?: AbortSignal;
}

export interface RunOutcome {
  exitCode: number;
  /** Stopped by the signal (the worker was terminated). */
  stopped: boolean;
  /** The worker failed to start or died (message for the user). */
  failure?: string;
  /** The run started a new worker; its load time (ms). */
  coldStartMs?: number;
}

interface Slot {
  worker: WorkerLike;
  client: MirrorClient;
  ready: Promise<number>;
  listener?: (message: WorkerToHost) => void;
  onError?: (message: string) => void;
  dead: boolean;
}

/** Idle workers kept warm. */
const MAX_IDLE = 1;
/** How long a worker may take to load its engine before the run fails (a pool may set its own). */
const READY_TIMEOUT_MS = 60_000;

export class RuntimePool {
  private readonly idle: Slot[] = [];
  private readonly busy = new Set<Slot>();

  constructor(
    private readonly create: () => WorkerLike,
    private readonly mirror: FileMirror,
    private readonly name: string,
    private readonly readyTimeoutMs = READY_TIMEOUT_MS,
  ) {}

  /** Runs one program. Never throws: failures come back as an outcome with `failure`. */
  async run(request: RunRequest, io: RunIO): Promise<RunOutcome> {
    if (io.signal?.aborted) return { exitCode: 130, stopped: true };
    let slot: Slot;
    let coldStartMs: number | undefined;
    let reused = this.idle.pop();
    while (reused?.dead) reused = this.idle.pop();
    try {
      const candidate = reused ?? this.spawn();
      slot = candidate;
      // A prewarmed worker may still be loading its engine: a run posted before it is ready would be
      // lost (its message handler is set once the engine has loaded), so every run waits for `ready`.
      try {
        const loadMs = await withTimeout(
          candidate.ready,
          this.readyTimeoutMs,
          `the ${this.name} engine took too long to load`,
        );
        if (!reused) coldStartMs = loadMs;
      } catch (err) {
        // A worker that is still loading would keep loading for nothing.
        this.kill(candidate);
        throw err;
      }
    } catch (err) {
      return { exitCode: 1, stopped: false, failure: `${this.name}: ${messageOf(err)}` };
    }
    this.busy.add(slot);
    let applying = Promise.resolve();
    const outcome = await new Promise<RunOutcome>((resolve) => {
      let settled = false;
      const settle = (value: RunOutcome) => {
        if (settled) return;
        settled = true;
        io.signal?.removeEventListener('abort', onAbort);
        // Every file change that arrived before the end is in the sandbox before the command returns.
        void applying.then(() => resolve(value));
      };
      const onAbort = () => {
        this.kill(slot);
        // The next run should not pay for the worker this one lost.
        this.prewarm();
        settle({ exitCode: 130, stopped: true, coldStartMs });
      };
      io.signal?.addEventListener('abort', onAbort, { once: true });
      slot.onError = (message) => {
        this.kill(slot);
        settle({ exitCode: 1, stopped: false, failure: `${this.name}: ${message}`, coldStartMs });
      };
      slot.listener = (message) => {
        switch (message.type) {
          case 'output':
            io.output(message.stream, message.text);
            break;
          case 'fs': {
            for (const c of message.changes) {
              if (c.op === 'rename') {
                this.mirror.expectFrom(slot.client, c.from);
                this.mirror.expectFrom(slot.client, c.to);
              } else this.mirror.expectFrom(slot.client, c.path);
            }
            const changes = message.changes;
            applying = applying
              .then(() => io.applyChanges(changes))
              .catch((err) => {
                io.output('stderr', `${this.name}: a file change could not be saved: ${messageOf(err)}\n`);
              });
            break;
          }
          case 'exec': {
            const { id } = message;
            void applying
              .then(() => io.exec(message))
              .catch((err) => ({ stdout: '', stderr: `${messageOf(err)}\n`, exitCode: 1 }))
              .then((result) => {
                if (!slot.dead) slot.worker.postMessage({ type: 'exec-result', id, ...result });
              });
            break;
          }
          case 'exit':
            settle({ exitCode: message.code, stopped: false, coldStartMs });
            break;
          case 'fatal':
            this.kill(slot);
            settle({ exitCode: 1, stopped: false, failure: `${this.name}: ${message.message}`, coldStartMs });
            break;
          default:
            break;
        }
      };
      void this.mirror
        .delta(slot.client)
        .then(({ changes, full }) => {
          if (slot.dead) return;
          slot.worker.postMessage({ type: 'sync', changes, full }, transferables(changes));
          slot.worker.postMessage({ type: 'run', run: request });
        })
        .catch((err) => {
          this.kill(slot);
          settle({
            exitCode: 1,
            stopped: false,
            failure: `${this.name}: could not copy the files: ${messageOf(err)}`,
            coldStartMs,
          });
        });
    });
    this.busy.delete(slot);
    slot.listener = undefined;
    slot.onError = undefined;
    if (!slot.dead) {
      if (this.idle.length < MAX_IDLE) this.idle.push(slot);
      else this.kill(slot);
    }
    return outcome;
  }

  /** Starts a worker now unless one is waiting already (to hide the cold start of the next run). */
  prewarm(): void {
    if (this.idle.length === 0) {
      const slot = this.spawn();
      this.idle.push(slot);
      slot.ready.catch(() => this.kill(slot));
    }
  }

  dispose(): void {
    for (const slot of [...this.idle, ...this.busy]) this.kill(slot);
    this.idle.length = 0;
    this.busy.clear();
  }

  private spawn(): Slot {
    const worker = this.create();
    const slot: Slot = { worker, client: this.mirror.newClient(), ready: Promise.resolve(0), dead: false };
    slot.ready = new Promise<number>((resolve, reject) => {
      worker.addEventListener('message', (event) => {
        const message = event.data;
        if (message.type === 'ready') resolve(message.loadMs);
        else if (message.type === 'fatal' && !slot.listener) reject(new Error(message.message));
        slot.listener?.(message);
      });
      worker.addEventListener('error', (event) => {
        const message = event.message || 'the worker failed';
        reject(new Error(message));
        slot.onError?.(message);
        this.kill(slot);
      });
    });
    return slot;
  }

  private kill(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
    try {
      slot.worker.terminate();
    } catch {
      // Already gone.
    }
  }
}

function transferables(changes: FileChange[]): Transferable[] {
  const out: Transferable[] = [];
  for (const c of changes) if (c.op === 'file' && c.data.byteLength > 0) out.push(c.data.buffer);
  return out;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
