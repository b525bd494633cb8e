/**
 * The built-in sandbox: just-bash (a simulated bash with an in-memory file system). Works offline and
 * without cross-origin isolation. Loaded lazily so the first paint does not wait for it.
 *
 * just-bash runs every exec() in isolation; this backend keeps the shell session's cwd and env
 * between calls (from the env each exec returns), the way one bash session would.
 */
import { WORKSPACE_ROOT } from '../core/constants.ts';
import {
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileStat,
  type ListFilesOptions,
  type Sandbox,
  type SandboxChange,
  SandboxError,
  type SandboxErrorCode,
  type SandboxInfo,
  capOutput,
  normalizePath,
  resolveInside,
} from './sandbox.ts';

type JustBashModule = typeof import('just-bash/browser');
type Bash = InstanceType<JustBashModule['Bash']>;

export interface JustBashSandboxOptions {
  /** Initial files, relative to the workspace root (or absolute inside it). */
  files?: Record<string, string | Uint8Array>;
  root?: string;
  /** Cap per output stream, characters (the middle of longer output is cut). */
  maxOutputChars?: number;
  /** Why this backend was chosen (shown in the UI). */
  reason?: string;
}

/** Exit code of a command stopped by its timeout (as GNU timeout). */
export const TIMEOUT_EXIT_CODE = 124;
/** Exit code of a command stopped by the user (128 + SIGINT). */
export const ABORT_EXIT_CODE = 130;
/** After abort, how long to wait for just-bash to stop before returning anyway. */
const ABORT_GRACE_MS = 250;

let modulePromise: Promise<JustBashModule> | undefined;
function loadJustBash(): Promise<JustBashModule> {
  modulePromise ??= import('just-bash/browser');
  return modulePromise;
}

export async function createJustBashSandbox(options: JustBashSandboxOptions = {}): Promise<Sandbox> {
  const mod = await loadJustBash();
  const root = normalizePath(options.root ?? WORKSPACE_ROOT);
  const files: Record<string, string | Uint8Array> = {};
  for (const [path, content] of Object.entries(options.files ?? {})) {
    files[resolveInside(root, root, path)] = content;
  }
  const bash = new mod.Bash({
    cwd: root,
    files,
    env: { HOME: root, USER: 'user', TERM: 'xterm-256color', LANG: 'C.UTF-8' },
  });
  await bash.fs.mkdir('/tmp', { recursive: true });
  await bash.fs.mkdir(root, { recursive: true });
  return new JustBashSandbox(bash, root, mod.getCommandNames(), options);
}

function codeOf(err: unknown): SandboxErrorCode {
  const msg = err instanceof Error ? err.message : String(err);
  const m = /\b(ENOENT|EEXIST|EISDIR|ENOTDIR|ENOTEMPTY|EINVAL)\b/.exec(msg);
  return (m?.[1] as SandboxErrorCode | undefined) ?? 'EIO';
}

const MESSAGES: Record<SandboxErrorCode, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File already exists',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ENOTEMPTY: 'Directory not empty',
  EOUTSIDE: 'Outside the workspace',
  EINVAL: 'Invalid argument',
  EIO: 'I/O error',
};

function wrap(err: unknown, path: string): SandboxError {
  if (err instanceof SandboxError) return err;
  const code = codeOf(err);
  const detail = code === 'EIO' && err instanceof Error ? `: ${err.message}` : '';
  return new SandboxError(code, `${MESSAGES[code]}: ${path}${detail}`, path);
}

class JustBashSandbox implements Sandbox {
  readonly kind = 'just-bash' as const;
  readonly root: string;
  private readonly bash: Bash;
  private readonly commandNames: string[];
  private readonly maxOutputChars: number;
  private readonly reason: string;
  private shellCwd: string;
  private shellEnv: Record<string, string> | undefined;
  private readonly listeners = new Set<(e: SandboxChange) => void>();

  constructor(bash: Bash, root: string, commandNames: string[], options: JustBashSandboxOptions) {
    this.bash = bash;
    this.root = root;
    this.shellCwd = root;
    this.commandNames = [...commandNames].sort();
    this.maxOutputChars = options.maxOutputChars ?? 200_000;
    this.reason = options.reason ?? 'just-bash: the built-in sandbox (works offline, no Node.js)';
  }

  private abs(path: string): string {
    return resolveInside(this.root, this.shellCwd, path);
  }

  private emit(change: SandboxChange): void {
    for (const l of this.listeners) l(change);
  }

  async readFile(path: string): Promise<string> {
    const abs = this.abs(path);
    const st = await this.stat(abs);
    if (st.type === 'directory') throw new SandboxError('EISDIR', `${MESSAGES.EISDIR}: ${abs}`, abs);
    try {
      return await this.bash.fs.readFile(abs, 'utf8');
    } catch (err) {
      throw wrap(err, abs);
    }
  }

  async readFileBytes(path: string): Promise<Uint8Array> {
    const abs = this.abs(path);
    try {
      return await this.bash.fs.readFileBuffer(abs);
    } catch (err) {
      throw wrap(err, abs);
    }
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    const abs = this.abs(path);
    const parent = abs.slice(0, abs.lastIndexOf('/')) || '/';
    try {
      if (await this.bash.fs.exists(abs)) {
        const st = await this.bash.fs.stat(abs);
        if (st.isDirectory) throw new SandboxError('EISDIR', `${MESSAGES.EISDIR}: ${abs}`, abs);
      }
      await this.bash.fs.mkdir(parent, { recursive: true });
      await this.bash.fs.writeFile(abs, content);
    } catch (err) {
      throw wrap(err, abs);
    }
    this.emit({ kind: 'write', path: abs });
  }

  async stat(path: string): Promise<FileStat> {
    const abs = this.abs(path);
    try {
      const st = await this.bash.fs.lstat(abs);
      return {
        type: st.isSymbolicLink ? 'symlink' : st.isDirectory ? 'directory' : 'file',
        size: st.size,
        mtimeMs: st.mtime.getTime(),
      };
    } catch (err) {
      throw wrap(err, abs);
    }
  }

  async readdir(path: string): Promise<DirEntry[]> {
    const abs = this.abs(path);
    try {
      const fs = this.bash.fs;
      if (fs.readdirWithFileTypes) {
        const entries = await fs.readdirWithFileTypes(abs);
        return entries
          .map((e) => ({
            name: e.name,
            type: e.isSymbolicLink ? ('symlink' as const) : e.isDirectory ? ('directory' as const) : ('file' as const),
          }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      }
      const names = (await fs.readdir(abs)).sort();
      return Promise.all(names.map(async (name) => ({ name, type: (await this.stat(`${abs}/${name}`)).type })));
    } catch (err) {
      throw wrap(err, abs);
    }
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const abs = this.abs(path);
    try {
      await this.bash.fs.mkdir(abs, { recursive: options.recursive ?? false });
    } catch (err) {
      throw wrap(err, abs);
    }
    this.emit({ kind: 'mkdir', path: abs });
  }

  async rm(path: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    const abs = this.abs(path);
    if (abs === this.root) throw new SandboxError('EINVAL', 'Refusing to remove the workspace root.', abs);
    try {
      await this.bash.fs.rm(abs, { recursive: options.recursive ?? false, force: options.force ?? false });
    } catch (err) {
      throw wrap(err, abs);
    }
    this.emit({ kind: 'remove', path: abs });
  }

  async rename(from: string, to: string): Promise<void> {
    const src = this.abs(from);
    const dest = this.abs(to);
    try {
      if (!(await this.bash.fs.exists(src))) throw new SandboxError('ENOENT', `${MESSAGES.ENOENT}: ${src}`, src);
      if (await this.bash.fs.exists(dest)) {
        const st = await this.bash.fs.stat(dest);
        if (st.isDirectory) throw new SandboxError('EISDIR', `${MESSAGES.EISDIR}: ${dest}`, dest);
        await this.bash.fs.rm(dest);
      }
      await this.bash.fs.mkdir(dest.slice(0, dest.lastIndexOf('/')) || '/', { recursive: true });
      await this.bash.fs.mv(src, dest);
    } catch (err) {
      throw wrap(err, src);
    }
    this.emit({ kind: 'rename', path: dest });
  }

  async exists(path: string): Promise<boolean> {
    const abs = this.abs(path);
    return this.bash.fs.exists(abs);
  }

  async listFiles(options: ListFilesOptions = {}): Promise<string[]> {
    const start = this.abs(options.root ?? this.root);
    const skip = new Set(options.skipDirs ?? ['node_modules', '.git']);
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (options.signal?.aborted) throw new SandboxError('EIO', 'Listing aborted.');
      let entries: DirEntry[];
      try {
        entries = await this.readdir(dir);
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
    const st = await this.stat(start);
    if (st.type !== 'directory') return [start];
    await walk(start);
    return out.sort();
  }

  cwd(): string {
    return this.shellCwd;
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const startCwd = options.cwd ? this.abs(options.cwd) : this.shellCwd;
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
    const baseEnv = this.shellEnv;
    const run = this.bash.exec(command, {
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
    try {
      const result = await Promise.race([run, abandoned]);
      const stopped = controller.signal.aborted;
      const aborted = stopped && !timedOut;
      if (result === null) {
        const note = timedOut ? `Command timed out after ${options.timeoutMs} ms` : 'Command interrupted';
        return this.finish('', `${note}\n`, timedOut ? TIMEOUT_EXIT_CODE : ABORT_EXIT_CODE, options, { timedOut, aborted });
      }
      let stderr = result.stderr;
      if (!stopped) this.keepSession(result.env, options.env);
      else stderr = stderr.replace(/bash: execution aborted\n?$/, '');
      if (timedOut) stderr += `Command timed out after ${options.timeoutMs} ms\n`;
      else if (aborted) stderr += 'Command interrupted\n';
      const exitCode = timedOut ? TIMEOUT_EXIT_CODE : aborted ? ABORT_EXIT_CODE : result.exitCode;
      return this.finish(result.stdout, stderr, exitCode, options, { timedOut, aborted });
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      this.emit({ kind: 'exec' });
    }
  }

  private finish(
    stdoutRaw: string,
    stderrRaw: string,
    exitCode: number,
    options: ExecOptions,
    flags: { timedOut: boolean; aborted: boolean },
  ): ExecResult {
    const stdout = capOutput(stdoutRaw, this.maxOutputChars);
    const stderr = capOutput(stderrRaw, this.maxOutputChars);
    if (stdout.text) options.onOutput?.(stdout.text, 'stdout');
    if (stderr.text) options.onOutput?.(stderr.text, 'stderr');
    return {
      stdout: stdout.text,
      stderr: stderr.text,
      exitCode,
      ...(flags.timedOut ? { timedOut: true } : {}),
      ...(flags.aborted ? { aborted: true } : {}),
      ...(stdout.truncated || stderr.truncated ? { truncated: true } : {}),
    };
  }

  /** Keeps the shell's cwd and variables for the next exec; per-command env stays per-command. */
  private keepSession(env: Record<string, string>, perCommand: Record<string, string> | undefined): void {
    const next = { ...env };
    for (const key of Object.keys(perCommand ?? {})) {
      if (next[key] === perCommand?.[key]) {
        const before = this.shellEnv?.[key];
        if (before === undefined) delete next[key];
        else next[key] = before;
      }
    }
    delete next['?'];
    const pwd = next.PWD ? normalizePath(next.PWD) : this.shellCwd;
    if (pwd === this.root || pwd.startsWith(`${this.root}/`)) this.shellCwd = pwd;
    else {
      this.shellCwd = this.root;
      next.PWD = this.root;
    }
    this.shellEnv = next;
  }

  info(): SandboxInfo {
    return { kind: 'just-bash', reason: this.reason, commands: this.commandNames, hasNode: false };
  }

  onChange(listener: (event: SandboxChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async dispose(): Promise<void> {
    this.listeners.clear();
  }
}
