/**
 * What tabcode's `npm` and `npx` need from the place they run in. The just-bash sandbox provides it
 * from a custom command's context (see just-bash-host.ts); tests build it the same way.
 *
 * Entry points (`runNpm`, `runNpx`) live in npm.ts; they take a host and return the exit code.
 */

/** What `stat`/`lstat` report (a subset of just-bash's FsStat). */
export interface NpmStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/**
 * The file operations npm uses: a subset of just-bash's `IFileSystem`, so a command's `ctx.fs`
 * satisfies it as it is. Paths are absolute. Methods reject on failure (a missing file, a directory
 * where a file was expected), as `IFileSystem` does.
 */
export interface NpmFs {
  /** The file's text (UTF-8). */
  readFile(path: string): Promise<string>;
  /** The file's bytes. */
  readFileBuffer(path: string): Promise<Uint8Array>;
  /** Creates or replaces a file; the parent folder must exist. */
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  exists(path: string): Promise<boolean>;
  readdir(path: string): Promise<string[]>;
  /** Follows symlinks. */
  stat(path: string): Promise<NpmStat>;
  /** Does not follow a final symlink. */
  lstat(path: string): Promise<NpmStat>;
  /** Moves (renames) a file or folder; the destination must not exist. */
  mv(src: string, dest: string): Promise<void>;
  /** Sets permission bits (just-bash runs a PATH file only when it is executable). */
  chmod(path: string, mode: number): Promise<void>;
}

/** Output of a command run through the host's shell. */
export interface NpmExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * A store of downloaded tarballs, keyed by `dist.integrity` when known, else by the tarball URL.
 * Implementations never throw: a failing store behaves as a miss (get → undefined, put → nothing).
 * Entries are verified against their integrity after `get`, so a damaged entry is refetched.
 */
export interface TarballCache {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

/** Registry documents kept in memory for a short time (see cache.ts `createPackumentCache`). */
export interface PackumentCache {
  /** The document fetched from `url`, if it is still fresh. */
  get(url: string): unknown | undefined;
  set(url: string, doc: unknown): void;
}

export interface NpmHost {
  /** Absolute working directory of the command. */
  cwd: string;
  /** The command's environment (exported variables). */
  env: Record<string, string>;
  fs: NpmFs;
  /**
   * Runs a shell command line (a package script, a `.bin` program) with exactly `env` as its
   * environment and `cwd` as its working directory. Resolves with its output and exit code; should not
   * reject for a failing command (a non-zero exit code is the answer).
   */
  exec(command: string, options: { cwd: string; env: Record<string, string> }): Promise<NpmExecResult>;
  /**
   * Used for the registry only. Absent, or rejecting, means the registry cannot be reached: npm then
   * says plainly that it needs the registry at its URL, and changes nothing.
   */
  fetch?: typeof fetch;
  /** npm's own output, as it happens. */
  stdout(text: string): void;
  stderr(text: string): void;
  /** Esc or a timeout: npm stops at the next await and leaves node_modules as it was. */
  signal?: AbortSignal;
  /** Downloaded tarballs (a second install is then served with no request). */
  cache?: TarballCache;
  /** Packuments kept briefly in memory between commands. */
  packuments?: PackumentCache;
}
