/**
 * The sandbox interface: the only way tools and the UI reach files and processes. Backends
 * (just-bash.ts, webcontainer.ts) implement it; `select.ts` picks one.
 *
 * Paths: absolute (`/home/user/project/src/a.ts`) or relative to the workspace root. Every method
 * rejects a path that resolves outside the workspace with a SandboxError('EOUTSIDE').
 */

export type SandboxKind = 'just-bash' | 'webcontainer';

export type SandboxErrorCode = 'ENOENT' | 'EEXIST' | 'EISDIR' | 'ENOTDIR' | 'ENOTEMPTY' | 'EOUTSIDE' | 'EINVAL' | 'EIO';

/** Every sandbox failure is one of these, with a message fit to show a user or a model. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  readonly path?: string;
  constructor(code: SandboxErrorCode, message: string, path?: string) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
    this.path = path;
  }
}

export interface FileStat {
  type: 'file' | 'directory' | 'symlink';
  size: number;
  /** Last modification, milliseconds since the epoch. */
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink';
}

export interface ExecOptions {
  /** Directory to run in; default: the shell session's current directory. */
  cwd?: string;
  /** Extra environment for this command only. */
  env?: Record<string, string>;
  /** Kill the command after this many milliseconds; what it printed so far is returned. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Output as it arrives (a backend without streaming calls it once at the end). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Killed by `timeoutMs`. */
  timedOut?: boolean;
  /** Stopped by `signal`. */
  aborted?: boolean;
  /** Output was longer than the cap and its middle was cut. */
  truncated?: boolean;
}

export interface ListFilesOptions {
  /** Directory to list under (default: the workspace root). */
  root?: string;
  /** Directory names skipped at any depth (default: node_modules, .git). */
  skipDirs?: string[];
  signal?: AbortSignal;
}

export interface SandboxInfo {
  kind: SandboxKind;
  /** Why this backend runs (e.g. "WebContainer could not boot: page is not cross-origin isolated"). */
  reason: string;
  /** Commands the model can run, for the system prompt. */
  commands: string[];
  /** Whether `node`/`npm` exist. */
  hasNode: boolean;
}

export interface Sandbox {
  readonly kind: SandboxKind;
  /** Absolute path of the workspace (the agent's project directory). */
  readonly root: string;

  readFile(path: string): Promise<string>;
  readFileBytes(path: string): Promise<Uint8Array>;
  /** Creates parent directories as needed. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  stat(path: string): Promise<FileStat>;
  readdir(path: string): Promise<DirEntry[]>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  /** Replaces `to` if it is an existing file. */
  rename(from: string, to: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Every file (not directory) under `root`, as absolute paths, sorted. For Glob and Grep. */
  listFiles(options?: ListFilesOptions): Promise<string[]>;

  /** Runs a shell command. cwd and exported env persist between calls like one shell session. Never throws for a failing command: see exitCode. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** The shell session's current directory. */
  cwd(): string;

  info(): SandboxInfo;
  /** Subscribe to every file change made through this sandbox (writes, renames, removes, exec). */
  onChange(listener: (event: SandboxChange) => void): () => void;
  dispose(): Promise<void>;
}

export interface SandboxChange {
  kind: 'write' | 'remove' | 'rename' | 'mkdir' | 'exec';
  path?: string;
}

const POSIX_SEP = '/';

/** Normalizes an absolute POSIX path: collapses `//`, `.` and `..` (never above `/`). */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split(POSIX_SEP)) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join(POSIX_SEP)}`;
}

/**
 * Resolves `path` against `base` (an absolute directory) and checks it stays inside `root`.
 * Throws SandboxError('EOUTSIDE') otherwise; never touches the file system.
 */
export function resolveInside(root: string, base: string, path: string): string {
  if (typeof path !== 'string' || path.length === 0) throw new SandboxError('EINVAL', 'Path is empty.');
  if (path.includes('\0')) throw new SandboxError('EINVAL', 'Path contains a NUL character.', path);
  const expanded = path === '~' ? root : path.startsWith('~/') ? `${root}/${path.slice(2)}` : path;
  const abs = normalizePath(expanded.startsWith(POSIX_SEP) ? expanded : `${base}/${expanded}`);
  const r = normalizePath(root);
  if (abs !== r && !abs.startsWith(`${r}/`)) {
    throw new SandboxError('EOUTSIDE', `Path ${path} is outside the workspace (${r}); only files under it can be used.`, path);
  }
  return abs;
}

/** `abs` relative to `root` ('' for the root itself). */
export function relativeTo(root: string, abs: string): string {
  const r = normalizePath(root);
  if (abs === r) return '';
  return abs.startsWith(`${r}/`) ? abs.slice(r.length + 1) : abs;
}

/** Cuts the middle of `text` when it is longer than `max` characters, saying how much was cut. */
export function capOutput(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const head = Math.floor(max * 0.6);
  const tail = max - head;
  const cut = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n\n... [${cut} characters of output cut] ...\n\n${text.slice(text.length - tail)}`,
    truncated: true,
  };
}
