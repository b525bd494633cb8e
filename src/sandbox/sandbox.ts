/**
 * The sandbox interface: the only way tools and the UI reach files and processes. Backends
 * (just-bash.ts, webcontainer.ts) implement it; `select.ts` picks one; `persist.ts` saves its tree.
 *
 * Paths: absolute (`/home/user/project/src/a.ts`) or relative to the workspace root. Every method
 * rejects a path that resolves outside the workspace with a SandboxError('EOUTSIDE'), including a
 * path that reaches outside through a symlink (the link itself can still be stat'ed and removed).
 * One backend's behaviour is pinned by the contract suite (contract-cases.ts), run against both.
 */

export type SandboxKind = 'just-bash' | 'webcontainer';

export type SandboxErrorCode =
  | 'ENOENT'
  | 'EEXIST'
  | 'EISDIR'
  | 'ENOTDIR'
  | 'ENOTEMPTY'
  | 'EOUTSIDE'
  | 'EINVAL'
  | 'EIO';

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
  /** Directory to run this command in (the session's cwd does not follow it); default: the session's cwd. */
  cwd?: string;
  /** Extra environment for this command only. */
  env?: Record<string, string>;
  /** Kill the command after this many milliseconds; what it printed so far is returned. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Output as it arrives (a backend without streaming calls it once at the end). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /**
   * The shell session: cwd and exported variables persist per session (default 'agent'). The terminal
   * uses its own, so a user's `cd` never moves the agent.
   */
  session?: string;
  /**
   * Who runs the command (default 'agent'). 'agent' and 'user' runs are announced to `onEvent`
   * listeners (the terminal shows the agent's); 'internal' runs (the backend's own) are not.
   */
  origin?: ExecOrigin;
}

export type ExecOrigin = 'agent' | 'user' | 'internal';

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
  /**
   * Commands run on a pseudo-terminal: stdout and stderr arrive interleaved in `stdout` (with ANSI
   * escapes removed) and `stderr` only holds the backend's own notes (timeout, interrupt).
   */
  ptyOutput?: boolean;
  /**
   * Every file change a command makes is reported as its own `onChange` event (a file watcher), so
   * listeners need not rescan after an `exec` change.
   */
  reportsCommandChanges?: boolean;
}

/** A command started with `startBackground` (a dev server, a watcher). */
export interface BackgroundProcess {
  id: string;
  command: string;
  cwd: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
  status: 'running' | 'exited' | 'killed';
  exitCode?: number;
}

/** A background process and what it printed. */
export interface BackgroundOutput extends BackgroundProcess {
  /** Output from offset `since` (default 0) on; ANSI escapes removed. */
  output: string;
  /** Offset to pass as `since` next time to get only new output. */
  nextOffset: number;
  /** Characters dropped from the start because the buffer is capped. */
  dropped: number;
}

/** An interactive shell session (raw terminal input and output). */
export interface InteractiveShell {
  /** Raw terminal output (ANSI escapes, `\r\n`) as it arrives. */
  onOutput(listener: (chunk: string) => void): () => void;
  /** Raw terminal input (keys as xterm sends them). */
  write(data: string): void;
  resize(size: { cols: number; rows: number }): void;
  /** Resolves with the exit code when the shell ends. */
  readonly exit: Promise<number>;
  kill(): void;
}

/** A server a process opened inside the sandbox, reachable by the page (shown in an iframe). */
export interface PreviewInfo {
  port: number;
  url: string;
}

/**
 * What a sandbox announces besides file changes: command runs (for the terminal), servers, preview
 * errors. `exec-output` chunks are raw terminal text (ANSI escapes kept; `\n` or `\r\n`).
 */
export type SandboxEvent =
  | {
      type: 'exec-start';
      id: string;
      command: string;
      origin: 'agent' | 'user';
      cwd: string;
      background?: boolean;
    }
  | { type: 'exec-output'; id: string; chunk: string; stream: 'stdout' | 'stderr' }
  | { type: 'exec-end'; id: string; exitCode: number; timedOut?: boolean; aborted?: boolean }
  | { type: 'server-ready'; port: number; url: string }
  | { type: 'port-closed'; port: number }
  | { type: 'preview-error'; message: string; port?: number };

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
  /**
   * Whether anything (a file, a directory, a link) is at an absolute path, inside the workspace or not:
   * for the permission engine, which must know the programs a shell would find on PATH (npm puts every
   * node_modules/.bin up to `/` first). Optional: without it such a path counts as unknown.
   */
  existsAnywhere?(path: string): Promise<boolean>;
  /**
   * Where `path` leads once every symlink on it is followed (absolute). A path that does not exist
   * resolves through its nearest existing parent (`link/new.txt` → `<target>/new.txt`). Unlike the other
   * methods it does not refuse a real path outside the workspace: the permission engine matches deny
   * rules against it. Optional: a backend that cannot tell leaves it out (rules then match as written).
   */
  realpath?(path: string): Promise<string>;
  /** Every file (not directory) under `root`, as absolute paths, sorted. For Glob and Grep. */
  listFiles(options?: ListFilesOptions): Promise<string[]>;

  /** Runs a shell command. cwd and exported env persist between calls like one shell session. Never throws for a failing command: see exitCode. */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** A shell session's current directory (default: the agent's session). */
  cwd(session?: string): string;
  /**
   * A shell session's state as the next command will see it: cwd and the variables it carries between
   * calls (exported ones; HOME, CDPATH and PATH among them). A copy: changing it changes nothing. For
   * the permission analysis, which must resolve `~`, `cd` and `$HOME` the way the shell will.
   */
  shellState(session?: string): { cwd: string; env: Record<string, string> };

  /**
   * Starts a long-running command (a dev server) without waiting for it; its output is kept (capped)
   * for `readBackground`. Runs in the shell session's cwd and env; never changes them.
   */
  startBackground(
    command: string,
    options?: Pick<ExecOptions, 'cwd' | 'env' | 'origin'>,
  ): Promise<BackgroundProcess>;
  /** Every background process of this sandbox, oldest first (finished ones included). */
  listBackground(): BackgroundProcess[];
  /**
   * A background process's state and output (as text: carriage returns, backspaces and escapes applied;
   * `raw`: as printed, for a copy kept elsewhere, which applies them to whole lines: a line read in
   * pieces reads wrong). Throws SandboxError('EINVAL') for an unknown id.
   */
  readBackground(id: string, options?: { since?: number; raw?: boolean }): BackgroundOutput;
  /** Stops a background process (no-op when it already ended). Throws SandboxError('EINVAL') for an unknown id. */
  killBackground(id: string): Promise<BackgroundProcess>;
  /**
   * An interactive shell on a pseudo-terminal (WebContainer: `jsh`), for the terminal view. Absent on
   * backends without one (just-bash: the terminal runs each line through `exec`).
   */
  openShell?(size: { cols: number; rows: number }): Promise<InteractiveShell>;
  /** Servers currently listening (WebContainer `server-ready`), for the preview iframe. */
  previews(): PreviewInfo[];
  /**
   * Notes for the model collected since the last call (e.g. errors a preview page threw), each to be
   * sent inside a `<system-reminder>`; calling it empties the list.
   */
  takeReminders(): string[];

  info(): SandboxInfo;
  /** Subscribe to every file change made through this sandbox (writes, renames, removes, exec). */
  onChange(listener: (event: SandboxChange) => void): () => void;
  /** Subscribe to command runs, servers and preview errors (see SandboxEvent). */
  onEvent(listener: (event: SandboxEvent) => void): () => void;
  /** The events announced so far (output capped, oldest dropped), for a view that subscribes late. */
  recentEvents(): SandboxEvent[];
  /** Stops background processes and drops listeners. The sandbox must not be used afterwards. */
  dispose(): Promise<void>;
}

export interface SandboxChange {
  kind: 'write' | 'remove' | 'rename' | 'mkdir' | 'exec';
  /** The path written, removed or created; for a rename, the destination. */
  path?: string;
  /** For a rename: the source. */
  from?: string;
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
/** Longest path accepted (characters), as Linux's PATH_MAX. */
export const MAX_PATH_CHARS = 4096;
/** Most directory levels a path may have. */
export const MAX_PATH_DEPTH = 256;

export function resolveInside(root: string, base: string, path: string): string {
  if (typeof path !== 'string' || path.length === 0) throw new SandboxError('EINVAL', 'Path is empty.');
  if (path.includes('\0')) throw new SandboxError('EINVAL', 'Path contains a NUL character.', path);
  if (path.length > MAX_PATH_CHARS) {
    throw new SandboxError(
      'EINVAL',
      `Path is too long (${path.length} characters; at most ${MAX_PATH_CHARS}).`,
    );
  }
  const expanded = path === '~' ? root : path.startsWith('~/') ? `${root}/${path.slice(2)}` : path;
  const abs = normalizePath(expanded.startsWith(POSIX_SEP) ? expanded : `${base}/${expanded}`);
  const depth = abs.split(POSIX_SEP).length - 1;
  if (depth > MAX_PATH_DEPTH) {
    throw new SandboxError('EINVAL', `Path is too deep (${depth} levels; at most ${MAX_PATH_DEPTH}).`, path);
  }
  const r = normalizePath(root);
  if (abs !== r && !abs.startsWith(`${r}/`)) {
    throw new SandboxError(
      'EOUTSIDE',
      `Path ${path} is outside the workspace (${r}); only files under it can be used.`,
      path,
    );
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
