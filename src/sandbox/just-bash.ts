/**
 * The built-in sandbox: just-bash (a simulated bash with an in-memory file system). Works offline and
 * without cross-origin isolation. Loaded lazily so the first paint does not wait for it.
 *
 * just-bash runs every exec() in isolation; this backend keeps the shell session's cwd and env
 * between calls (from the env each exec returns), the way one bash session would. Symlinks are
 * resolved in just-bash-links.ts, command output kept in just-bash-output.ts, the module loaded and
 * configured in just-bash-module.ts.
 */
import { WORKSPACE_ROOT } from '../core/constants.ts';
import { SandboxRuntimes } from '../runtimes/sandbox-commands.ts';
import { browserRuntimeWorkers } from '../runtimes/workers.ts';
import { withSafeBinaryReads } from './binary-reads.ts';
import { journalSink } from './fs-journal.ts';
import { anythingAt, containedPath, realOf } from './just-bash-links.ts';
import {
  type Bash,
  initialEnv,
  type JustBashSandboxOptions,
  loadJustBash,
  MAX_FS_BYTES,
} from './just-bash-module.ts';
import { OutputBuffer } from './just-bash-output.ts';
import { interceptLive, LiveOutputs, type LiveStream, liveScript, liveTransform } from './live-output.ts';
import { platformCommands } from './platform-commands.ts';
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
  resolveInside,
  type Sandbox,
  type SandboxChange,
  SandboxError,
  type SandboxEvent,
  type SandboxInfo,
} from './sandbox.ts';
import {
  ABORT_EXIT_CODE,
  BackgroundTable,
  Emitter,
  EventEmitter,
  isInside,
  keptEnv,
  parentOf,
  reportChanges,
  sandboxError,
  TIMEOUT_EXIT_CODE,
  wrapError,
} from './shared.ts';

export type { JustBashSandboxOptions } from './just-bash-module.ts';
export { ABORT_EXIT_CODE, TIMEOUT_EXIT_CODE } from './shared.ts';

/**
 * just-bash's work limits, raised from its defaults (100,000 loop iterations, which also bound rg's
 * matching, cut's ranges, od, seq...): a 100,000-line log or CSV is ordinary work for a coding agent,
 * and rg -c on one failed with "matching work limit exceeded". A runaway is still stopped, by the
 * command's timeout or Esc (the sandbox runs in a Worker that can be ended); memory stays bounded by
 * just-bash's output and file-system caps.
 */
const WORK_LIMITS = {
  maxLoopIterations: 10_000_000,
  maxAwkIterations: 10_000_000,
  maxSedIterations: 10_000_000,
  maxJqIterations: 10_000_000,
  maxCommandCount: 10_000_000,
  maxWorkUnits: 100_000_000,
} as const;

const ABORT_GRACE_MS = 250; // after abort, how long to wait for just-bash to stop before returning anyway
export async function createJustBashSandbox(options: JustBashSandboxOptions = {}): Promise<Sandbox> {
  const mod = await loadJustBash();
  const root = normalizePath(options.root ?? WORKSPACE_ROOT);
  const files: Record<string, string | Uint8Array> = {};
  for (const [path, content] of Object.entries(options.files ?? {})) {
    files[resolveInside(root, root, path)] = content;
  }
  // Every change to the workspace, by the API or by a command, is reported by the file system itself.
  const changes = new Emitter<SandboxChange>();
  const live = new LiveOutputs();
  let runtimes: SandboxRuntimes | undefined;
  const fs = interceptLive(
    reportChanges(
      withSafeBinaryReads(new mod.InMemoryFs(files, { maxTotalBytes: MAX_FS_BYTES })),
      (change) => {
        // Runtime workers mirror the files: every change (in /tmp too) tells them what to refresh.
        if (change.path) runtimes?.mirror.noteChange(change.path);
        if (change.from) runtimes?.mirror.noteChange(change.from);
        if (change.path && isInside(root, change.path) && (!change.from || isInside(root, change.from)))
          changes.emit(change);
      },
      journalSink(root, options.journal),
    ),
    live,
  );
  runtimes = new SandboxRuntimes(fs, {
    root,
    workers: options.workers ?? browserRuntimeWorkers(),
    live,
    fetch: options.fetch,
  });
  const bash = new mod.Bash({
    fs,
    cwd: root,
    env: initialEnv(root),
    // Ours first: gzip on CompressionStream, clear messages for what the page lacks; node/python3 last.
    customCommands: [...platformCommands(), ...runtimes.commands()],
    executionLimits: WORK_LIMITS,
  });
  bash.registerTransformPlugin(liveTransform());
  await bash.fs.mkdir('/tmp', { recursive: true });
  await bash.fs.mkdir(root, { recursive: true });
  return new JustBashSandbox(
    bash,
    root,
    [...mod.getCommandNames(), ...runtimes.commands().map((c) => c.name)],
    options,
    changes,
    live,
    runtimes,
  );
}

class JustBashSandbox implements Sandbox {
  readonly kind = 'just-bash' as const;
  readonly root: string;
  private readonly bash: Bash;
  private readonly commandNames: string[];
  private readonly maxOutputChars: number;
  private readonly reason: string;
  /** Shell sessions by name: cwd and variables (undefined until a command ran in it). */
  private readonly sessions = new Map<string, { cwd: string; env?: Record<string, string> }>();
  private readonly changes: Emitter<SandboxChange>;
  private readonly live: LiveOutputs;
  private readonly runtimes: SandboxRuntimes;
  private readonly events = new EventEmitter();
  private readonly background = new BackgroundTable();
  private execSeq = 0;
  private readonly initialEnv: Record<string, string>;

  constructor(
    bash: Bash,
    root: string,
    commandNames: string[],
    options: JustBashSandboxOptions,
    changes: Emitter<SandboxChange>,
    live: LiveOutputs,
    runtimes: SandboxRuntimes,
  ) {
    this.bash = bash;
    this.changes = changes;
    this.live = live;
    this.runtimes = runtimes;
    this.root = root;
    this.initialEnv = { ...bash.getEnv(), ...initialEnv(root), PWD: root };
    this.commandNames = [...commandNames].sort();
    this.maxOutputChars = options.maxOutputChars ?? 200_000;
    this.reason = options.reason ?? 'just-bash: the built-in sandbox (works offline)';
  }

  private session(name = 'agent'): { cwd: string; env?: Record<string, string> } {
    let session = this.sessions.get(name);
    if (!session) {
      session = { cwd: this.root };
      this.sessions.set(name, session);
    }
    return session;
  }

  private abs(path: string): string {
    return resolveInside(this.root, this.session().cwd, path);
  }

  /**
   * Resolves `path` like `abs()` and checks that following its symlinks stays inside the workspace
   * (see containedPath): the path to operate on, with its links resolved.
   */
  private contained(path: string, follow: boolean): Promise<string> {
    return containedPath(this.bash.fs, this.root, this.abs(path), follow);
  }

  private emit(change: SandboxChange): void {
    this.changes.emit(change);
  }

  async realpath(path: string): Promise<string> {
    // Absolute paths outside the workspace too (a link in /tmp may lead into it).
    const abs = path.startsWith('/') && !path.includes('\0') ? normalizePath(path) : this.abs(path);
    try {
      return await realOf(this.bash.fs, abs);
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async readFile(path: string): Promise<string> {
    const abs = await this.contained(path, true);
    try {
      const st = await this.bash.fs.stat(abs);
      if (st.isDirectory) throw sandboxError('EISDIR', abs);
      return await this.bash.fs.readFile(abs, 'utf8');
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async readFileBytes(path: string): Promise<Uint8Array> {
    const abs = await this.contained(path, true);
    try {
      return await this.bash.fs.readFileBuffer(abs);
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const abs = await this.contained(path, true);
    try {
      if (await this.bash.fs.exists(abs)) {
        const st = await this.bash.fs.stat(abs);
        if (st.isDirectory) throw sandboxError('EISDIR', abs);
      }
      if (!(await this.bash.fs.exists(parentOf(abs))))
        await this.bash.fs.mkdir(parentOf(abs), { recursive: true });
      await this.bash.fs.writeFile(abs, content);
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async stat(path: string): Promise<FileStat> {
    const abs = await this.contained(path, false);
    try {
      const st = await this.bash.fs.lstat(abs);
      return {
        type: st.isSymbolicLink ? 'symlink' : st.isDirectory ? 'directory' : 'file',
        size: st.size,
        mtimeMs: st.mtime.getTime(),
      };
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async readdir(path: string): Promise<DirEntry[]> {
    const abs = await this.contained(path, true);
    return this.list(abs);
  }

  /** Directory entries of an already-checked directory, sorted by name. */
  private async list(abs: string): Promise<DirEntry[]> {
    try {
      const fs = this.bash.fs;
      if (fs.readdirWithFileTypes) {
        const entries = await fs.readdirWithFileTypes(abs);
        return entries
          .map((e) => ({
            name: e.name,
            type: e.isSymbolicLink
              ? ('symlink' as const)
              : e.isDirectory
                ? ('directory' as const)
                : ('file' as const),
          }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
      const names = (await fs.readdir(abs)).sort();
      return Promise.all(
        names.map(async (name) => ({ name, type: (await this.stat(`${abs}/${name}`)).type })),
      );
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const abs = await this.contained(path, true);
    try {
      await this.bash.fs.mkdir(abs, { recursive: options.recursive ?? false });
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    const abs = await this.contained(path, false);
    if (abs === this.root) throw new SandboxError('EINVAL', 'Refusing to remove the workspace root.', abs);
    try {
      await this.bash.fs.rm(abs, { recursive: options.recursive ?? false, force: options.force ?? false });
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const src = await this.contained(from, false);
    const dest = await this.contained(to, false);
    if (src === this.root) throw new SandboxError('EINVAL', 'Refusing to move the workspace root.', src);
    try {
      const fs = this.bash.fs;
      let srcIsDir = false;
      try {
        srcIsDir = (await fs.lstat(src)).isDirectory;
      } catch {
        throw sandboxError('ENOENT', src);
      }
      if (srcIsDir && isInside(src, dest)) {
        throw new SandboxError('EINVAL', `Cannot move ${src} into itself (${dest}).`, dest);
      }
      if (await fs.exists(dest)) {
        const st = await fs.lstat(dest);
        if (st.isDirectory) throw sandboxError('EISDIR', dest);
        await fs.rm(dest);
      }
      if (!(await fs.exists(parentOf(dest)))) await fs.mkdir(parentOf(dest), { recursive: true });
      await fs.mv(src, dest);
    } catch (err) {
      throw wrapError(err, src);
    }
  }

  existsAnywhere(path: string): Promise<boolean> {
    return anythingAt(this.bash.fs, path);
  }

  async exists(path: string): Promise<boolean> {
    const abs = await this.contained(path, false);
    try {
      await this.bash.fs.lstat(abs);
      return true;
    } catch {
      return false;
    }
  }

  async listFiles(options: ListFilesOptions = {}): Promise<string[]> {
    const start = await this.contained(options.root ?? this.root, true);
    const skip = new Set(options.skipDirs ?? ['node_modules', '.git']);
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (options.signal?.aborted) throw new SandboxError('EIO', 'Listing aborted.');
      let entries: DirEntry[];
      try {
        entries = await this.list(dir);
      } catch (err) {
        if (dir === start) throw err;
        return;
      }
      for (const e of entries) {
        const p = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
        if (e.type === 'directory') {
          if (!skip.has(e.name)) await walk(p);
        } else if (e.type === 'file') out.push(p);
      }
    };
    let st: FileStat;
    try {
      const s = await this.bash.fs.stat(start);
      st = { type: s.isDirectory ? 'directory' : 'file', size: s.size, mtimeMs: s.mtime.getTime() };
    } catch (err) {
      throw wrapError(err, start);
    }
    if (st.type !== 'directory') return [start];
    await walk(start);
    return out.sort();
  }

  cwd(session?: string): string {
    return this.session(session).cwd;
  }

  shellState(session?: string): { cwd: string; env: Record<string, string> } {
    const s = this.session(session);
    return { cwd: s.cwd, env: { ...(s.env ?? this.initialEnv) } };
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const session = this.session(options.session);
    const startCwd = options.cwd ? this.abs(options.cwd) : session.cwd;
    const origin = options.origin ?? 'agent';
    const id = `exec-${++this.execSeq}`;
    if (origin !== 'internal') this.events.emit({ type: 'exec-start', id, command, origin, cwd: startCwd });
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) controller.abort();
    const timer =
      options.timeoutMs !== undefined && options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, options.timeoutMs)
        : undefined;
    // Output arrives command by command (and as a runtime prints) through a live sink; what the line
    // printed outside any sink (the shell's own messages) comes with the result at the end.
    const streamed = {
      stdout: new OutputBuffer(this.maxOutputChars),
      stderr: new OutputBuffer(this.maxOutputChars),
    };
    const deliver = (text: string, stream: LiveStream) => {
      streamed[stream].append(text);
      options.onOutput?.(text, stream);
      if (origin !== 'internal') this.events.emit({ type: 'exec-output', id, chunk: text, stream });
    };
    const token = this.live.open(deliver);
    const baseEnv = session.env;
    const run = this.bash.exec(liveScript(token, command), {
      cwd: startCwd,
      env: { ...(baseEnv ?? {}), ...(options.env ?? {}) },
      replaceEnv: baseEnv !== undefined,
      signal: controller.signal,
      rawScript: true,
    });
    // just-bash stops at the next statement boundary; a command that never reaches one is abandoned
    // (its result ignored) shortly after the abort, so the caller always gets control back.
    const abandoned = new Promise<null>((resolve) => {
      controller.signal.addEventListener('abort', () => setTimeout(() => resolve(null), ABORT_GRACE_MS), {
        once: true,
      });
    });
    let result: ExecResult | undefined;
    try {
      const done = await Promise.race([run, abandoned]);
      this.live.close(token);
      const stopped = controller.signal.aborted;
      const aborted = stopped && !timedOut;
      let stdout = '';
      let stderr = '';
      let exitCode: number;
      if (done === null) {
        exitCode = timedOut ? TIMEOUT_EXIT_CODE : ABORT_EXIT_CODE;
      } else {
        stdout = done.stdout;
        stderr = done.stderr;
        if (!stopped) this.keepSession(session, done.env, options.env, options.cwd === undefined);
        else stderr = stderr.replace(/bash: execution aborted\n?$/, '');
        exitCode = timedOut ? TIMEOUT_EXIT_CODE : aborted ? ABORT_EXIT_CODE : done.exitCode;
      }
      if (timedOut) stderr += `Command timed out after ${options.timeoutMs} ms\n`;
      else if (aborted) stderr += 'Command interrupted\n';
      // The rest is announced like the live part, then everything is returned together.
      if (stdout) deliver(stdout, 'stdout');
      if (stderr) deliver(stderr, 'stderr');
      const out = streamed.stdout.text();
      const err = streamed.stderr.text();
      result = {
        stdout: out.text,
        stderr: err.text,
        exitCode,
        ...(timedOut ? { timedOut: true } : {}),
        ...(aborted ? { aborted: true } : {}),
        ...(out.truncated || err.truncated ? { truncated: true } : {}),
      };
      return result;
    } finally {
      this.live.close(token);
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (origin !== 'internal') {
        this.events.emit({
          type: 'exec-end',
          id,
          exitCode: result?.exitCode ?? 1,
          ...(result?.timedOut ? { timedOut: true } : {}),
          ...(result?.aborted ? { aborted: true } : {}),
        });
      }
      this.emit({ kind: 'exec' });
    }
  }

  /** Keeps the shell's cwd and variables for the next exec; per-command env stays per-command. */
  private keepSession(
    session: { cwd: string; env?: Record<string, string> },
    env: Record<string, string>,
    perCommand: Record<string, string> | undefined,
    keepCwd: boolean,
  ): void {
    const next = keptEnv(env, session.env ?? {}, perCommand);
    delete next['?'];
    const pwd = next.PWD && keepCwd ? normalizePath(next.PWD) : session.cwd;
    session.cwd = isInside(this.root, pwd) ? pwd : this.root;
    next.PWD = session.cwd;
    session.env = next;
  }

  async startBackground(
    command: string,
    options: Pick<ExecOptions, 'cwd' | 'env' | 'origin' | 'session'> = {},
  ): Promise<BackgroundProcess> {
    const session = this.session(options.session);
    const cwd = options.cwd ? this.abs(options.cwd) : session.cwd;
    const controller = new AbortController();
    const baseEnv = session.env;
    const origin = options.origin ?? 'agent';
    let procId: string | undefined;
    const early: string[] = [];
    // Output is kept as it is printed (BashOutput reads it while the command runs; a kill keeps it).
    const token = this.live.open((text, stream) => {
      if (procId === undefined) {
        early.push(text);
        return;
      }
      this.background.append(procId, text);
      if (origin !== 'internal') this.events.emit({ type: 'exec-output', id: procId, chunk: text, stream });
    });
    const run = this.bash.exec(liveScript(token, command), {
      cwd,
      env: { ...(baseEnv ?? {}), ...(options.env ?? {}) },
      replaceEnv: baseEnv !== undefined,
      signal: controller.signal,
      rawScript: true,
    });
    const settled = run.then(
      (r) => r,
      (err: unknown) => ({ stdout: '', stderr: `${String(err)}\n`, exitCode: 1 }),
    );
    const proc = this.background.add(command, cwd, async () => {
      controller.abort();
      await Promise.race([settled, new Promise((r) => setTimeout(r, ABORT_GRACE_MS))]);
    });
    const id = proc.id;
    procId = id;
    if (origin !== 'internal') {
      this.events.emit({ type: 'exec-start', id, command, origin, cwd, background: true });
    }
    for (const text of early) this.background.append(id, text);
    void settled.then((r) => {
      this.live.close(token);
      const rest = r.stdout + r.stderr.replace(/bash: execution aborted\n?$/, '');
      if (rest) {
        this.background.append(id, rest);
        if (origin !== 'internal')
          this.events.emit({ type: 'exec-output', id, chunk: rest, stream: 'stdout' });
      }
      const exitCode = controller.signal.aborted ? ABORT_EXIT_CODE : r.exitCode;
      this.background.finish(id, exitCode);
      if (origin !== 'internal') this.events.emit({ type: 'exec-end', id, exitCode });
      this.emit({ kind: 'exec' });
    });
    return proc;
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

  previews(): PreviewInfo[] {
    return [];
  }

  takeReminders(): string[] {
    return [];
  }

  info(): SandboxInfo {
    return {
      kind: 'just-bash',
      reason: this.reason,
      commands: this.commandNames,
      hasNode: this.runtimes.available().node,
      reportsCommandChanges: true,
    };
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
    await this.background.killAll();
    this.runtimes.dispose();
    this.changes.clear();
    this.events.clear();
  }
}
