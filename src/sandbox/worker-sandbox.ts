/**
 * The just-bash sandbox in a Web Worker, behind the Sandbox interface: the page stays responsive
 * whatever a command does, and a command that will not stop is ended by terminating the worker.
 *
 * The page keeps what the interface answers synchronously (the shell sessions' cwd and variables, the
 * background table, recent events, the sandbox's info), updated from the worker's messages, and a
 * backup of the workspace's files. After Esc or a timeout the page pings the worker: one that does not
 * answer within HANG_PROBE_MS is blocked by the command (a loop that never yields), and one whose command
 * has not ended within ABORT_GRACE_MS ignores the stop; either way the worker is terminated and a new
 * one starts from that backup with the same sessions: the command returns what it printed so far, and
 * the files and the shell are as they were.
 *
 * Layering: this file imports the worker by URL only; the sandbox code itself runs in the worker.
 */
import { WORKSPACE_ROOT } from '../core/constants.ts';
import { messageOf } from '../core/errors.ts';
import { storageNamespace } from '../core/storage-namespace.ts';
import {
  type BackgroundOutput,
  type BackgroundProcess,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type ListFilesOptions,
  normalizePath,
  type PreviewInfo,
  type Sandbox,
  type SandboxChange,
  SandboxError,
  type SandboxErrorCode,
  type SandboxEvent,
  type SandboxInfo,
} from './sandbox.ts';
import { ABORT_EXIT_CODE, BackgroundTable, Emitter, EventEmitter, TIMEOUT_EXIT_CODE } from './shared.ts';
import { WorkspaceBackup } from './worker/backup.ts';
import type {
  CallMethod,
  InitOptions,
  PageToWorker,
  SessionState,
  WireError,
  WorkerToPage,
} from './worker/protocol.ts';

/** What the proxy needs of a Worker (the page's, or an in-process one in tests). */
export interface SandboxWorkerLike {
  postMessage(message: PageToWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: WorkerToPage }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

/**
 * After Esc or a timeout, how long a command may take to stop before the worker is terminated although
 * it still answers (a command that ignores the stop but yields).
 */
export const ABORT_GRACE_MS = 1_000;
/**
 * After Esc or a timeout, a worker that does not answer a ping within this long has its thread blocked
 * by the command and is terminated (issue 17: a runaway stops within 200 ms).
 */
export const HANG_PROBE_MS = 100;
/** Between two pings while a stopped command winds down. */
const PROBE_GAP_MS = 50;
/**
 * While a command runs, the page pings the worker this often, so that a stop knows at once whether the
 * worker has already been silent for HANG_PROBE_MS (a runaway that has blocked it for a while is ended
 * without waiting for a new probe).
 */
const HEARTBEAT_MS = 50;
/** The page's own timeout comes this much after the worker's (which normally answers first). */
const TIMEOUT_MARGIN_MS = 250;
/** How long the worker may take to start. */
const READY_TIMEOUT_MS = 30_000;

export interface WorkerSandboxOptions {
  files?: Record<string, string | Uint8Array>;
  root?: string;
  reason?: string;
  maxOutputChars?: number;
  /** Starts the worker (default: the page's Web Worker). */
  createWorker?: () => SandboxWorkerLike;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  onOutput?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** The exec's output so far (returned when the worker has to be ended). */
  printed?: { stdout: string; stderr: string };
  timedOut?: boolean;
  session?: string;
}

export function defaultSandboxWorker(): SandboxWorkerLike {
  return new Worker(new URL('./worker/sandbox.worker.ts', import.meta.url), {
    type: 'module',
    name: 'tabcode-sandbox',
  }) as unknown as SandboxWorkerLike;
}

export async function createWorkerSandbox(options: WorkerSandboxOptions = {}): Promise<Sandbox> {
  const sandbox = new WorkerSandbox(options);
  await sandbox.start(options.files ?? {}, []);
  return sandbox;
}

class WorkerSandbox implements Sandbox {
  readonly kind = 'just-bash' as const;
  root = '';
  private worker: SandboxWorkerLike | undefined;
  private infoValue: SandboxInfo | undefined;
  private readonly sessions = new Map<string, SessionState>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly changes = new Emitter<SandboxChange>();
  private readonly events = new EventEmitter();
  private readonly background = new BackgroundTable();
  /** The workspace's files as the worker last reported them (path → bytes). */
  private readonly backup = new WorkspaceBackup();
  private generation = 0;
  private disposed = false;
  private pingSeq = 0;
  /** True from the end of a hung command until its replacement worker is ready. */
  private restarting = false;
  /** Pings in flight: their number → what to do when the pong comes. */
  private readonly pongs = new Map<number, () => void>();
  /** The heartbeat's timer while commands run. */
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** When the heartbeat ping still unanswered was sent (undefined: none is waiting). */
  private silentSince: number | undefined;

  constructor(private readonly options: WorkerSandboxOptions) {}

  /** Starts a worker with `files` and `sessions`; resolves once it is ready. */
  async start(files: Record<string, string | Uint8Array>, sessions: SessionState[]): Promise<void> {
    const generation = ++this.generation;
    this.silentSince = undefined;
    this.pongs.clear();
    const worker = (this.options.createWorker ?? defaultSandboxWorker)();
    this.worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the sandbox worker did not start in time')),
        READY_TIMEOUT_MS,
      );
      worker.addEventListener('message', (event) => {
        if (generation !== this.generation) return;
        const message = event.data;
        if (message.type === 'ready') {
          clearTimeout(timer);
          this.root = message.root;
          this.infoValue = message.info;
          for (const s of message.sessions) this.sessions.set(s.name, s);
          resolve();
        } else if (message.type === 'fatal') {
          clearTimeout(timer);
          reject(new Error(message.message));
        } else this.receive(message);
      });
      worker.addEventListener('error', (event) => {
        clearTimeout(timer);
        reject(new Error(event.message || 'the sandbox worker failed'));
        if (generation === this.generation) this.failAll(`The sandbox worker failed: ${event.message ?? ''}`);
      });
    });
    if (this.backup.size === 0) {
      for (const [path, content] of Object.entries(files)) {
        const abs = path.startsWith('/') ? path : `${this.options.root ?? WORKSPACE_ROOT}/${path}`;
        this.backup.set(normalizePath(abs), toBytes(content));
      }
    }
    const init: InitOptions = {
      files,
      root: this.options.root,
      reason: this.options.reason,
      maxOutputChars: this.options.maxOutputChars,
      sessions,
      // The worker opens storage of its own (npm's tarball cache): under this page's namespace.
      storageNamespace: storageNamespace(),
    };
    worker.postMessage({ type: 'init', options: init });
    await ready;
  }

  // ---- messages from the worker

  private receive(message: WorkerToPage): void {
    switch (message.type) {
      case 'result': {
        const p = this.take(message.id);
        p?.resolve(message.value);
        return;
      }
      case 'exec-result':
      case 'background-started': {
        this.sessions.set(message.session.name, message.session);
        const p = this.take(message.id);
        if (message.type === 'background-started') {
          const proc = message.value;
          this.background.add(proc.command, proc.cwd, () => this.killInWorker(proc.id), proc);
        }
        p?.resolve(message.value);
        return;
      }
      case 'error': {
        const p = this.take(message.id);
        p?.reject(fromWire(message.error));
        return;
      }
      case 'output': {
        const p = this.pending.get(message.id);
        if (p?.printed) p.printed[message.stream] += message.text;
        p?.onOutput?.(message.text, message.stream);
        return;
      }
      case 'change':
        this.changes.emit(message.change);
        return;
      case 'event':
        this.events.emit(message.event);
        return;
      case 'bg-output':
        this.background.append(message.procId, message.text);
        return;
      case 'bg-end':
        this.background.finish(message.procId, message.exitCode);
        return;
      case 'backup':
        this.backup.apply(message.changes);
        return;
      case 'spawn':
        void this.spawnForWorker(message.id);
        return;
      case 'pong':
        this.pongs.get(message.n)?.();
        this.pongs.delete(message.n);
        return;
      default:
        return;
    }
  }

  /** Starts a runtime worker the sandbox worker cannot start itself and hands it a port to it. */
  private async spawnForWorker(id: number): Promise<void> {
    const worker = this.worker;
    try {
      if (!__FEATURE_PYTHON__) throw new Error('python3 is not in this build');
      const { connectPythonWorker } = await import('./worker/spawn-python.ts');
      const port = await connectPythonWorker();
      worker?.postMessage({ type: 'spawned', id, port }, [port]);
    } catch (err) {
      worker?.postMessage({ type: 'spawn-failed', id, message: messageOf(err) });
    }
  }

  private take(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  private failAll(message: string): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new SandboxError('EIO', message));
    }
  }

  // ---- calls

  private request<T>(method: CallMethod, args: unknown[], signal?: AbortSignal): Promise<T> {
    if (this.disposed) return Promise.reject(new SandboxError('EIO', 'The sandbox was closed.'));
    // While a restarted worker starts, reads of the workspace are answered from the page's copy.
    const answered = this.restarting ? this.backup.answer(this.root, method, args) : undefined;
    if (answered)
      return 'value' in answered ? Promise.resolve(answered.value as T) : Promise.reject(answered.error);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker?.postMessage({ type: 'call', id, method, args });
      signal?.addEventListener('abort', () => this.worker?.postMessage({ type: 'abort', id }), {
        once: true,
      });
    });
  }

  readFile(path: string): Promise<string> {
    return this.request('readFile', [path]);
  }
  readFileBytes(path: string): Promise<Uint8Array> {
    return this.request('readFileBytes', [path]);
  }
  writeFile(path: string, content: string | Uint8Array): Promise<void> {
    return this.request('writeFile', [path, content]);
  }
  stat(path: string): Promise<FileStat> {
    return this.request('stat', [path]);
  }
  readdir(path: string): Promise<DirEntry[]> {
    return this.request('readdir', [path]);
  }
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    return this.request('mkdir', [path, options]);
  }
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void> {
    return this.request('rm', [path, options]);
  }
  rename(from: string, to: string): Promise<void> {
    return this.request('rename', [from, to]);
  }
  exists(path: string): Promise<boolean> {
    return this.request('exists', [path]);
  }
  realpath(path: string): Promise<string> {
    return this.request('realpath', [path]);
  }
  listFiles(options: ListFilesOptions = {}): Promise<string[]> {
    const { signal, ...rest } = options;
    return this.request('listFiles', [rest], signal);
  }

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.disposed) return Promise.reject(new SandboxError('EIO', 'The sandbox was closed.'));
    const id = this.nextId++;
    const { signal, onOutput, timeoutMs, ...rest } = options;
    const generation = this.generation;
    return new Promise<ExecResult>((resolve, reject) => {
      const entry: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        onOutput,
        printed: { stdout: '', stderr: '' },
        session: options.session,
      };
      this.pending.set(id, entry);
      this.startHeartbeat();
      let stopping = false;
      // The stop request; a worker that is blocked or ignores it is ended (see watchStop).
      const stop = (timedOut: boolean) => {
        if (!this.pending.has(id) || stopping) return;
        stopping = true;
        entry.timedOut = timedOut;
        this.worker?.postMessage({ type: 'abort', id });
        void this.watchStop(id, generation);
      };
      // The worker stops a timed-out command itself; this is the fallback for one it cannot stop.
      const timeout =
        timeoutMs !== undefined && timeoutMs > 0
          ? setTimeout(() => stop(true), timeoutMs + TIMEOUT_MARGIN_MS)
          : undefined;
      const onAbort = () => stop(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        if (timeout) clearTimeout(timeout);
        signal?.removeEventListener('abort', onAbort);
      };
      entry.resolve = (v) => {
        cleanup();
        resolve(v as ExecResult);
      };
      entry.reject = (e) => {
        cleanup();
        reject(e);
      };
      // The worker enforces the timeout itself too (so a timed-out command reports exit 124 as usual).
      this.worker?.postMessage({
        type: 'exec',
        id,
        command,
        options: { ...rest, ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
        // Always streamed: the page keeps what was printed in case it has to end the worker.
        stream: true,
      });
      if (signal?.aborted) onAbort();
    });
  }

  /**
   * After a stop request: pings the worker until the command ends. No answer within HANG_PROBE_MS means a
   * command blocks the worker's thread; a command still running after ABORT_GRACE_MS ignores the stop.
   * Either way the worker is ended (endHungCommand).
   */
  private async watchStop(id: number, generation: number): Promise<void> {
    const deadline = Date.now() + ABORT_GRACE_MS;
    const running = () => this.pending.has(id) && generation === this.generation && !this.disposed;
    // A pong that came while the page was busy is handled first; then a worker already silent for
    // HANG_PROBE_MS is blocked now, and one silent for less is given the rest of that time.
    await new Promise((r) => setTimeout(r, 0));
    let probe = HANG_PROBE_MS;
    if (this.silentSince !== undefined) probe = Math.max(0, HANG_PROBE_MS - (Date.now() - this.silentSince));
    while (running()) {
      const answered = probe === 0 ? false : await this.ping(probe);
      probe = HANG_PROBE_MS;
      if (!running()) return;
      if (!answered || Date.now() >= deadline) {
        void this.endHungCommand(id, answered ? 'ignored' : 'blocked');
        return;
      }
      await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
    }
  }

  /**
   * Pings the worker every HEARTBEAT_MS while commands run (one ping waiting at a time), keeping
   * `silentSince`; stops by itself once nothing is pending.
   */
  private startHeartbeat(): void {
    if (this.heartbeat !== undefined) return;
    this.heartbeat = setInterval(() => {
      if (this.pending.size === 0 || this.disposed) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
        this.silentSince = undefined;
        return;
      }
      if (this.silentSince !== undefined || this.restarting) return;
      const n = ++this.pingSeq;
      const generation = this.generation;
      this.silentSince = Date.now();
      this.pongs.set(n, () => {
        if (generation === this.generation) this.silentSince = undefined;
      });
      this.worker?.postMessage({ type: 'ping', n });
    }, HEARTBEAT_MS);
  }

  /** True when the worker answers within `withinMs`. Never rejects. */
  private ping(withinMs: number): Promise<boolean> {
    const n = ++this.pingSeq;
    return new Promise<boolean>((resolve) => {
      let answered = false;
      this.pongs.set(n, () => {
        answered = true;
        resolve(true);
      });
      this.worker?.postMessage({ type: 'ping', n });
      // One more turn of the page's event loop before deciding: a pong that arrived while the page itself
      // was busy is still queued when the timer fires.
      setTimeout(
        () =>
          setTimeout(() => {
            this.pongs.delete(n);
            if (!answered) resolve(false);
          }, 0),
        withinMs,
      );
    });
  }

  /**
   * A command that did not stop: the worker is terminated and replaced by one started from the backup;
   * the command returns what it printed, as an interrupted (or timed-out) command does.
   */
  private async endHungCommand(id: number, why: 'blocked' | 'ignored'): Promise<void> {
    const entry = this.take(id);
    const sessions = [...this.sessions.values()];
    let ended = 0;
    for (const proc of this.background.list()) {
      if (proc.status !== 'running') continue;
      this.background.finish(proc.id, ABORT_EXIT_CODE);
      ended++;
    }
    this.restarting = true;
    this.worker?.terminate();
    this.failAll('The sandbox was restarted: a command did not stop.');
    const files = this.backup.snapshot();
    const timedOut = entry?.timedOut === true;
    const cause = why === 'blocked' ? 'it kept the sandbox busy and could not be stopped' : 'it did not stop';
    const lost = ended ? `; ${ended} background command${ended === 1 ? ' was' : 's were'} ended too` : '';
    const note = `${timedOut ? 'Command timed out' : 'Command interrupted'}; ${cause}, so the sandbox was restarted (files and shell state kept${lost})\n`;
    entry?.onOutput?.(note, 'stderr');
    entry?.resolve({
      stdout: entry.printed?.stdout ?? '',
      stderr: `${entry.printed?.stderr ?? ''}${note}`,
      exitCode: timedOut ? TIMEOUT_EXIT_CODE : ABORT_EXIT_CODE,
      ...(timedOut ? { timedOut: true } : { aborted: true }),
    });
    try {
      await this.start(files, sessions);
    } catch (err) {
      this.events.emit({
        type: 'preview-error',
        message: `The sandbox could not restart: ${messageOf(err)}`,
      });
    } finally {
      this.restarting = false;
    }
  }

  cwd(session = 'agent'): string {
    return this.sessions.get(session)?.cwd ?? this.root;
  }

  shellState(session = 'agent'): { cwd: string; env: Record<string, string> } {
    const s = this.sessions.get(session) ?? this.sessions.get('agent');
    return { cwd: s?.cwd ?? this.root, env: { ...(s?.env ?? {}) } };
  }

  async startBackground(
    command: string,
    options: Pick<ExecOptions, 'cwd' | 'env' | 'origin' | 'session'> = {},
  ): Promise<BackgroundProcess> {
    if (this.disposed) throw new SandboxError('EIO', 'The sandbox was closed.');
    const id = this.nextId++;
    return new Promise<BackgroundProcess>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker?.postMessage({ type: 'background', id, command, options });
    });
  }

  listBackground(): BackgroundProcess[] {
    return this.background.list();
  }

  readBackground(id: string, options: { since?: number; raw?: boolean } = {}): BackgroundOutput {
    return this.background.read(id, options.since, options.raw);
  }

  killBackground(id: string): Promise<BackgroundProcess> {
    return this.background.kill(id);
  }

  private async killInWorker(id: string): Promise<void> {
    await this.request('killBackground', [id]).catch(() => undefined);
  }

  previews(): PreviewInfo[] {
    return [];
  }

  takeReminders(): string[] {
    return [];
  }

  info(): SandboxInfo {
    return this.infoValue ?? { kind: 'just-bash', reason: '', commands: [], hasNode: false };
  }

  onChange(listener: (event: SandboxChange) => void): () => void {
    return this.changes.add(listener);
  }

  onEvent(listener: (event: SandboxEvent) => void): () => void {
    return this.events.add(listener);
  }

  recentEvents(): SandboxEvent[] {
    return this.events.log.list();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.heartbeat);
    this.worker?.postMessage({ type: 'dispose' });
    // Give it a moment to stop its processes, then end it.
    await new Promise((r) => setTimeout(r, 50));
    this.worker?.terminate();
    this.failAll('The sandbox was closed.');
    this.changes.clear();
    this.events.clear();
  }
}

function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? new TextEncoder().encode(content) : content;
}

function fromWire(error: WireError): Error {
  if (error.name === 'SandboxError') {
    return new SandboxError((error.code ?? 'EIO') as SandboxErrorCode, error.message, error.path);
  }
  const err = new Error(error.message);
  err.name = error.name;
  return err;
}
