/**
 * The WebContainer backend: a Node.js VM in the page (@webcontainer/api). Files go through `wc.fs`
 * (paths relative to the workdir, which is the workspace root); commands through `spawn('jsh', ['-c',
 * script])` on a pseudo-terminal. What the API lacks is derived here:
 *
 * - stat / exists: the entry's type comes from its parent's `readdir(withFileTypes)` (cached briefly),
 *   its size from reading it, its mtime from what this backend saw (writes, the file watcher).
 * - symlinks: an entry that is neither file nor directory is a link; a path through one is checked by
 *   resolving it with `node` (rare, cached).
 * - shell session: each exec is a fresh `jsh` (webcontainer-exec.ts); its exit status, `$PWD` and,
 *   when it may change variables, its environment come back after a marker, and the next exec starts
 *   there.
 *
 * Booting (once per page) lives in webcontainer-boot.ts; this module never boots.
 */
import type { WebContainer, WebContainerProcess } from '@webcontainer/api';
import { messageOf } from '../core/errors.ts';
import {
  type BackgroundOutput,
  type BackgroundProcess,
  capOutput,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type InteractiveShell,
  type ListFilesOptions,
  normalizePath,
  type PreviewInfo,
  relativeTo,
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
  baseName,
  Emitter,
  EventEmitter,
  isInside,
  keptEnv,
  parentOf,
  sandboxError,
  wrapError,
} from './shared.ts';
import { KILL_GRACE_MS, pump, runShellCommand, sleep } from './webcontainer-exec.ts';
import { anythingAt, containedPath, type LinkLookup, resolveRealPath } from './webcontainer-paths.ts';
import {
  binCommands,
  interactiveShell,
  JSH_FALLBACK_COMMANDS,
  previewErrorText,
  probePath,
  resolveLink,
  toFileSystemTree,
} from './webcontainer-process.ts';

/** The part of the WebContainer API this backend uses (typed by the package, so changes break the build). */
export type WebContainerApi = Pick<WebContainer, 'fs' | 'spawn' | 'on' | 'mount' | 'workdir'>;

/**
 * `files`: mounted before use (relative to the workspace root); `reason`: why this backend runs (shown in
 * the UI); `maxOutputChars`: cap per result (the middle is cut); `terminal`: the size commands run with
 * (wide, so tools do not wrap lines for the model).
 */
export interface WebContainerSandboxOptions {
  files?: Record<string, string | Uint8Array>;
  reason?: string;
  maxOutputChars?: number;
  terminal?: { cols: number; rows: number };
}

/** How long a cached directory listing is trusted when no change was seen. */
const DIR_CACHE_MS = 1_000;

type EntryType = 'file' | 'directory' | 'symlink';

/** Mounts `options.files` and returns a Sandbox over `wc`. Never boots. */
export async function createWebContainerSandbox(
  wc: WebContainerApi,
  options: WebContainerSandboxOptions = {},
): Promise<Sandbox> {
  if (options.files && Object.keys(options.files).length) await wc.mount(toFileSystemTree(options.files));
  const sandbox = new WebContainerSandbox(wc, options);
  await sandbox.init();
  return sandbox;
}

class WebContainerSandbox implements Sandbox {
  readonly kind = 'webcontainer' as const;
  readonly root: string;
  private readonly wc: WebContainerApi;
  private readonly reason: string;
  private readonly maxOutputChars: number;
  private readonly terminal: { cols: number; rows: number };
  private readonly bootTime = Date.now();
  /** Shell sessions by name: cwd and exported variables. */
  private readonly sessions = new Map<string, { cwd: string; env: Record<string, string> }>();
  private readonly changes = new Emitter<SandboxChange>();
  private readonly events = new EventEmitter();
  private readonly background = new BackgroundTable();
  private readonly dirCache = new Map<string, { at: number; entries: Map<string, EntryType> }>();
  private readonly sizes = new Map<string, number>();
  private readonly mtimes = new Map<string, number>();
  private readonly links = new Map<string, string>();
  private readonly servers = new Map<number, string>();
  private reminders: string[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  private readonly shells = new Set<WebContainerProcess>();
  private watching = false;
  private commandNames = JSH_FALLBACK_COMMANDS;
  private execSeq = 0;
  private disposed = false;

  constructor(wc: WebContainerApi, options: WebContainerSandboxOptions) {
    this.wc = wc;
    this.root = normalizePath(wc.workdir);
    this.reason = options.reason ?? 'WebContainer: a Node.js VM in the page';
    this.maxOutputChars = options.maxOutputChars ?? 200_000;
    this.terminal = options.terminal ?? { cols: 200, rows: 50 };
  }

  /** Subscribes to the VM's events and its file watcher; reads the command list. */
  async init(): Promise<void> {
    this.unsubscribe.push(
      this.wc.on('server-ready', (port, url) => {
        this.servers.set(port, url);
        this.events.emit({ type: 'server-ready', port, url });
      }),
      this.wc.on('port', (port, type, url) => {
        if (type === 'open') {
          this.servers.set(port, url);
          return;
        }
        this.servers.delete(port);
        this.events.emit({ type: 'port-closed', port });
      }),
      this.wc.on('preview-message', (message) => {
        const text = previewErrorText(message);
        this.reminders.push(text);
        this.events.emit({ type: 'preview-error', message: text, port: message.port });
      }),
      this.wc.on('error', (error) => {
        const text = `The WebContainer reported an internal error: ${error.message}`;
        this.reminders.push(text);
        this.events.emit({ type: 'preview-error', message: text });
      }),
    );
    try {
      const watcher = this.wc.fs.watch('/', { recursive: true }, (_event, filename) => {
        const name = typeof filename === 'string' ? filename : new TextDecoder().decode(filename);
        this.noteExternalChange(normalizePath(`${this.root}/${name}`));
      });
      this.unsubscribe.push(() => watcher.close());
      this.watching = true;
    } catch {
      this.watching = false;
    }
    const ls = await this.exec('ls /bin', { origin: 'internal', timeoutMs: 5_000 });
    const found = binCommands(ls.stdout);
    if (!ls.timedOut && found.length) this.commandNames = found;
  }

  /** A change the watcher saw (a command or a background process wrote it). */
  private noteExternalChange(abs: string): void {
    this.invalidate(abs);
    this.mtimes.set(abs, Date.now());
    const rel = relativeTo(this.root, abs);
    if (/(^|\/)(node_modules|\.git)(\/|$)/.test(rel)) return;
    this.changes.emit({ kind: 'write', path: abs });
  }

  private invalidate(abs?: string): void {
    this.dirCache.clear();
    this.links.clear();
    if (abs === undefined) this.sizes.clear();
    else for (const key of [...this.sizes.keys()]) if (isInside(abs, key)) this.sizes.delete(key);
  }

  private session(name = 'agent'): { cwd: string; env: Record<string, string> } {
    let session = this.sessions.get(name);
    if (!session) {
      session = { cwd: this.root, env: {} };
      this.sessions.set(name, session);
    }
    return session;
  }

  private abs(path: string): string {
    return resolveInside(this.root, this.session().cwd, path);
  }

  /** The path `wc.fs` takes for `abs`: rooted at the workdir. */
  private fsPath(abs: string): string {
    return `/${relativeTo(this.root, abs)}`;
  }

  /** Entries of directory `dir` by name, from the cache when fresh. Rejects like readdir. */
  private async entries(dir: string): Promise<Map<string, EntryType>> {
    const hit = this.dirCache.get(dir);
    if (hit && Date.now() - hit.at < DIR_CACHE_MS) return hit.entries;
    const list = await this.wc.fs.readdir(this.fsPath(dir), { withFileTypes: true });
    const entries = new Map<string, EntryType>();
    for (const e of list)
      entries.set(e.name, e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'symlink');
    this.dirCache.set(dir, { at: Date.now(), entries });
    return entries;
  }

  /** The type of `abs` (not following a final link), or undefined when it does not exist. */
  private async typeOf(abs: string): Promise<EntryType | undefined> {
    if (abs === this.root) return 'directory';
    try {
      return (await this.entries(parentOf(abs))).get(baseName(abs));
    } catch (err) {
      const code = wrapError(err, abs).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ENOTDIR') throw sandboxError('ENOTDIR', abs);
      throw wrapError(err, abs);
    }
  }

  /** Where the link at `abs` leads (absolute, symlinks resolved), asked of `node`; cached. */
  private async linkTarget(abs: string): Promise<string> {
    const cached = this.links.get(abs);
    if (cached !== undefined) return cached;
    const target = await resolveLink(this.wc, abs, this.terminal);
    this.links.set(abs, target);
    return target;
  }

  /** `path` resolved, refused when a symlink on the way leads outside the workspace (see webcontainer-paths.ts). */
  private contained(path: string, follow: boolean): Promise<string> {
    return containedPath(this.linkLookup(), this.abs(path), follow);
  }

  /** The path with every symlink on the way resolved; components that do not exist are kept as written. */
  realpath(path: string): Promise<string> {
    return resolveRealPath(this.linkLookup(), this.abs(path));
  }

  private linkLookup(): LinkLookup {
    return { root: this.root, typeOf: (abs) => this.typeOf(abs), linkTarget: (abs) => this.linkTarget(abs) };
  }

  private changed(change: SandboxChange): void {
    this.invalidate(change.path);
    if (change.from) this.invalidate(change.from);
    if (change.path) this.mtimes.set(change.path, Date.now());
    this.changes.emit(change);
  }

  async readFile(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readFileBytes(path));
  }

  async readFileBytes(path: string): Promise<Uint8Array> {
    const abs = await this.contained(path, true);
    const type = await this.typeOf(abs);
    if (type === undefined) throw sandboxError('ENOENT', abs);
    if (type === 'directory') throw sandboxError('EISDIR', abs);
    try {
      const bytes = await this.wc.fs.readFile(this.fsPath(abs));
      this.sizes.set(abs, bytes.byteLength);
      return bytes;
    } catch (err) {
      throw wrapError(err, abs);
    }
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const abs = await this.contained(path, true);
    if (abs === this.root || (await this.typeOf(abs).catch(() => undefined)) === 'directory') {
      throw sandboxError('EISDIR', abs);
    }
    try {
      const parent = parentOf(abs);
      if (parent !== this.root) await this.wc.fs.mkdir(this.fsPath(parent), { recursive: true });
      await this.wc.fs.writeFile(this.fsPath(abs), content);
    } catch (err) {
      this.invalidate(abs);
      throw wrapError(err, abs);
    }
    this.changed({ kind: 'write', path: abs });
  }

  async stat(path: string): Promise<FileStat> {
    const abs = await this.contained(path, false);
    const type = await this.typeOf(abs);
    if (type === undefined) throw sandboxError('ENOENT', abs);
    const mtimeMs = this.mtimes.get(abs) ?? this.bootTime;
    if (type !== 'file') return { type, size: 0, mtimeMs };
    let size = this.sizes.get(abs);
    if (size === undefined) {
      try {
        size = (await this.wc.fs.readFile(this.fsPath(abs))).byteLength;
      } catch (err) {
        throw wrapError(err, abs);
      }
      this.sizes.set(abs, size);
    }
    return { type, size, mtimeMs };
  }

  async readdir(path: string): Promise<DirEntry[]> {
    const abs = await this.contained(path, true);
    const type = await this.typeOf(abs);
    if (type === undefined) throw sandboxError('ENOENT', abs);
    if (type === 'file') throw sandboxError('ENOTDIR', abs);
    let entries: Map<string, EntryType>;
    try {
      entries = await this.entries(abs);
    } catch (err) {
      throw wrapError(err, abs);
    }
    return [...entries]
      .map(([name, t]) => ({ name, type: t }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const abs = await this.contained(path, true);
    const type = await this.typeOf(abs).catch(() => undefined);
    if (type !== undefined) {
      if (options.recursive && type === 'directory') return;
      throw sandboxError('EEXIST', abs);
    }
    if (!options.recursive && (await this.typeOf(parentOf(abs)).catch(() => undefined)) !== 'directory') {
      throw sandboxError('ENOENT', parentOf(abs));
    }
    try {
      if (options.recursive) await this.wc.fs.mkdir(this.fsPath(abs), { recursive: true });
      else await this.wc.fs.mkdir(this.fsPath(abs));
    } catch (err) {
      this.invalidate(abs);
      throw wrapError(err, abs);
    }
    this.changed({ kind: 'mkdir', path: abs });
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    const abs = await this.contained(path, false);
    if (abs === this.root) throw new SandboxError('EINVAL', 'Refusing to remove the workspace root.', abs);
    const type = await this.typeOf(abs).catch(() => undefined);
    if (type === undefined) {
      if (options.force) return;
      throw sandboxError('ENOENT', abs);
    }
    if (type === 'directory' && !options.recursive) {
      const inside = await this.entries(abs).catch(() => new Map());
      if (inside.size) throw sandboxError('ENOTEMPTY', abs);
    }
    try {
      await this.wc.fs.rm(this.fsPath(abs), {
        recursive: options.recursive ?? false,
        force: options.force ?? false,
      });
    } catch (err) {
      this.invalidate(abs);
      throw wrapError(err, abs);
    }
    this.changed({ kind: 'remove', path: abs });
  }

  async rename(from: string, to: string): Promise<void> {
    const src = await this.contained(from, false);
    const dest = await this.contained(to, false);
    if (src === this.root) throw new SandboxError('EINVAL', 'Refusing to move the workspace root.', src);
    const srcType = await this.typeOf(src).catch(() => undefined);
    if (srcType === undefined) throw sandboxError('ENOENT', src);
    if (srcType === 'directory' && isInside(src, dest)) {
      throw new SandboxError('EINVAL', `Cannot move ${src} into itself (${dest}).`, dest);
    }
    try {
      const destType = await this.typeOf(dest).catch(() => undefined);
      if (destType === 'directory') throw sandboxError('EISDIR', dest);
      if (destType !== undefined) await this.wc.fs.rm(this.fsPath(dest));
      const parent = parentOf(dest);
      if (parent !== this.root) await this.wc.fs.mkdir(this.fsPath(parent), { recursive: true });
      await this.wc.fs.rename(this.fsPath(src), this.fsPath(dest));
    } catch (err) {
      this.invalidate();
      throw wrapError(err, src);
    }
    const mtime = this.mtimes.get(src);
    this.changed({ kind: 'rename', path: dest, from: src });
    if (mtime !== undefined) this.mtimes.set(dest, mtime);
  }

  async exists(path: string): Promise<boolean> {
    const abs = await this.contained(path, false);
    try {
      return (await this.typeOf(abs)) !== undefined;
    } catch {
      return false;
    }
  }

  /** Whether anything is at an absolute path, in the workspace or not (webcontainer-paths.ts anythingAt). */
  existsAnywhere(path: string): Promise<boolean> {
    return anythingAt(this.linkLookup(), path, (abs) => probePath(this.wc, abs, this.terminal));
  }

  async listFiles(options: ListFilesOptions = {}): Promise<string[]> {
    const start = await this.contained(options.root ?? this.root, true);
    const skip = new Set(options.skipDirs ?? ['node_modules', '.git']);
    const type = await this.typeOf(start);
    if (type === undefined) throw sandboxError('ENOENT', start);
    if (type !== 'directory') return [start];
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (options.signal?.aborted) throw new SandboxError('EIO', 'Listing aborted.');
      let entries: Map<string, EntryType>;
      try {
        entries = await this.entries(dir);
      } catch (err) {
        if (dir === start) throw wrapError(err, dir);
        return;
      }
      const dirs: string[] = [];
      for (const [name, t] of entries) {
        const p = `${dir}/${name}`;
        if (t === 'file') out.push(p);
        else if (t === 'directory' && !skip.has(name)) dirs.push(p);
      }
      await Promise.all(dirs.map(walk));
    };
    await walk(start);
    return out.sort();
  }

  cwd(session?: string): string {
    return this.session(session).cwd;
  }

  shellState(session?: string): { cwd: string; env: Record<string, string> } {
    const s = this.session(session);
    return { cwd: s.cwd, env: { ...s.env } };
  }

  /** Spawns `jsh -c script` in `cwd`; rejects when the VM cannot start it. */
  private spawnShell(script: string, cwd: string, env: Record<string, string>): Promise<WebContainerProcess> {
    const rel = relativeTo(this.root, cwd);
    return this.wc.spawn('jsh', ['-c', script], {
      ...(rel ? { cwd: rel } : {}),
      env,
      terminal: this.terminal,
    });
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const session = this.session(options.session);
    const cwd = options.cwd ? this.abs(options.cwd) : session.cwd;
    const origin = options.origin ?? 'agent';
    const id = `exec-${++this.execSeq}`;
    const announce = origin !== 'internal';
    if (announce) this.events.emit({ type: 'exec-start', id, command, origin, cwd });
    let result: ExecResult | undefined;
    try {
      const run = await runShellCommand({
        spawn: (script) => this.spawnShell(script, cwd, { ...session.env, ...(options.env ?? {}) }),
        command,
        options,
        onRaw: announce
          ? (chunk, stream) => this.events.emit({ type: 'exec-output', id, chunk, stream })
          : undefined,
      });
      if (run.pwd?.startsWith('/') && !options.cwd) {
        const next = normalizePath(run.pwd);
        session.cwd = isInside(this.root, next) ? next : this.root;
      }
      if (run.env) session.env = keptEnv(run.env, session.env, options.env);
      const stdout = capOutput(run.stdout, this.maxOutputChars);
      const stderr = capOutput(run.stderr, this.maxOutputChars);
      result = {
        stdout: stdout.text,
        stderr: stderr.text,
        exitCode: run.exitCode,
        ...(run.timedOut ? { timedOut: true } : {}),
        ...(run.aborted ? { aborted: true } : {}),
        ...(stdout.truncated || stderr.truncated ? { truncated: true } : {}),
      };
      return result;
    } finally {
      if (announce) {
        this.events.emit({
          type: 'exec-end',
          id,
          exitCode: result?.exitCode ?? 1,
          ...(result?.timedOut ? { timedOut: true } : {}),
          ...(result?.aborted ? { aborted: true } : {}),
        });
      }
      this.invalidate();
      this.changes.emit({ kind: 'exec' });
    }
  }

  async startBackground(
    command: string,
    options: Pick<ExecOptions, 'cwd' | 'env' | 'origin' | 'session'> = {},
  ): Promise<BackgroundProcess> {
    const session = this.session(options.session);
    const cwd = options.cwd ? this.abs(options.cwd) : session.cwd;
    let proc: WebContainerProcess;
    try {
      proc = await this.spawnShell(command, cwd, { ...session.env, ...(options.env ?? {}) });
    } catch (err) {
      throw new SandboxError('EIO', `Could not start ${command}: ${messageOf(err)}`);
    }
    const info = this.background.add(command, cwd, async () => {
      proc.kill();
      await Promise.race([proc.exit.catch(() => undefined), sleep(KILL_GRACE_MS)]);
    });
    const origin = options.origin ?? 'agent';
    if (origin !== 'internal') {
      this.events.emit({ type: 'exec-start', id: info.id, command, origin, cwd, background: true });
    }
    const output = pump(proc, (chunk) => this.background.append(info.id, chunk));
    void proc.exit
      .catch(() => ABORT_EXIT_CODE)
      .then(async (code) => {
        await Promise.race([output.done, sleep(KILL_GRACE_MS)]);
        this.background.finish(info.id, code);
        if (origin !== 'internal') this.events.emit({ type: 'exec-end', id: info.id, exitCode: code });
        this.invalidate();
        if (!this.disposed) this.changes.emit({ kind: 'exec' });
      });
    return info;
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

  async openShell(size: { cols: number; rows: number }): Promise<InteractiveShell> {
    const { cwd, env } = this.session();
    const rel = relativeTo(this.root, cwd);
    const proc = await this.wc.spawn('jsh', { ...(rel ? { cwd: rel } : {}), env, terminal: size });
    this.shells.add(proc);
    void proc.exit.finally(() => this.shells.delete(proc)).catch(() => undefined);
    return interactiveShell(proc);
  }

  previews(): PreviewInfo[] {
    return [...this.servers].map(([port, url]) => ({ port, url })).sort((a, b) => a.port - b.port);
  }

  takeReminders(): string[] {
    const out = this.reminders;
    this.reminders = [];
    return out;
  }

  info(): SandboxInfo {
    return {
      kind: 'webcontainer',
      reason: this.reason,
      commands: this.commandNames,
      hasNode: true,
      ptyOutput: true,
      reportsCommandChanges: this.watching,
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
    this.disposed = true;
    for (const shell of this.shells) shell.kill();
    await this.background.killAll();
    for (const off of this.unsubscribe.splice(0)) off();
    this.changes.clear();
    this.events.clear();
  }
}
