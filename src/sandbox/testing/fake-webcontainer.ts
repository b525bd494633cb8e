/**
 * A fake of the @webcontainer/api surface tabcode uses (`WebContainerApi`), typed with the package's own
 * types so an API change breaks the build. It behaves like the real one where the backend depends on
 * it, over a just-bash shell and file system:
 *
 * - `fs` is scoped to the workdir like the real API (`/a` and `a` are `<workdir>/a`), throws errors
 *   that carry only a Node-style message (as Comlink delivers them), lists symlinks as neither file nor
 *   directory, and `watch` reports changes made by commands too.
 * - `spawn` runs on a pseudo-terminal: stdout and stderr merged into `output`, `\n` sent as `\r\n`, in
 *   small chunks; `kill()` stops the command and keeps what it printed. `jsh -c script` runs the
 *   script; `jsh` alone is an interactive shell with line editing; `node -e code` runs JavaScript with
 *   a minimal `process` and `require('fs').promises` / `require('path')`.
 * - `on('server-ready' | 'port' | 'preview-message' | 'error')` listeners are driven by `emit*` helpers.
 *
 * Test-only: nothing in the app imports it.
 */
import type {
  BufferEncoding,
  CodeListener,
  DirEnt,
  ErrorListener,
  FileSystemAPI,
  FileSystemTree,
  FSWatchCallback,
  FSWatchOptions,
  IFSWatcher,
  LoadFilesOptions,
  OpenListener,
  PortListener,
  PreviewMessage,
  PreviewMessageListener,
  ServerReadyListener,
  SpawnOptions,
  Unsubscribe,
  WebContainerProcess,
} from '@webcontainer/api';
import { Bash, defineCommand, InMemoryFs } from 'just-bash/browser';
import { messageOf } from '../../core/errors.ts';
import { normalizePath } from '../sandbox.ts';
import type { WebContainerApi } from '../webcontainer.ts';

type JustBashFs = InstanceType<typeof InMemoryFs>;
type FsEvent = 'rename' | 'change';

export interface FakeWebContainerOptions {
  /** Default `/home/project`. */
  workdir?: string;
  /** Characters per output chunk (small chunks exercise the reader's joining). Default 48. */
  chunkSize?: number;
  /** Make `spawn` reject (a VM that cannot start processes). */
  spawnError?: string;
}

const MUTATORS: Record<string, (args: unknown[]) => [string, FsEvent][]> = {
  writeFile: (a) => [[a[0] as string, 'change']],
  appendFile: (a) => [[a[0] as string, 'change']],
  mkdir: (a) => [[a[0] as string, 'rename']],
  rm: (a) => [[a[0] as string, 'rename']],
  cp: (a) => [[a[1] as string, 'rename']],
  mv: (a) => [
    [a[0] as string, 'rename'],
    [a[1] as string, 'rename'],
  ],
  symlink: (a) => [[a[1] as string, 'rename']],
  link: (a) => [[a[1] as string, 'rename']],
  chmod: (a) => [[a[0] as string, 'change']],
  utimes: (a) => [[a[0] as string, 'change']],
};

/** An InMemoryFs whose mutations (by the API or by commands) are reported to `notify`. */
function watchedFs(inner: JustBashFs, notify: (abs: string, event: FsEvent) => void): JustBashFs {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const name = String(prop);
      const paths = MUTATORS[name];
      if (!paths) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        for (const [p, event] of paths(args)) notify(normalizePath(p), event);
        return result;
      };
    },
  });
}

/** A Node-style error carrying only its message, as errors arrive from the real API. */
const plain = (err: unknown): Error => new Error(messageOf(err));

class FakeDirEnt<T extends string | Uint8Array> implements DirEnt<T> {
  constructor(
    readonly name: T,
    private readonly kind: 'file' | 'directory' | 'symlink',
  ) {}
  isFile(): boolean {
    return this.kind === 'file';
  }
  isDirectory(): boolean {
    return this.kind === 'directory';
  }
}

interface Watcher {
  dir: string;
  recursive: boolean;
  listener?: FSWatchCallback;
}

class FakeFileSystem implements FileSystemAPI {
  readonly watchers = new Set<Watcher>();

  constructor(
    private readonly fs: JustBashFs,
    private readonly workdir: string,
  ) {}

  /** `<workdir>/<path>`, never above the workdir (the API is scoped to it). */
  abs(path: string): string {
    const p = normalizePath(`/${path}`);
    return p === '/' ? this.workdir : `${this.workdir}${p}`;
  }

  notify(abs: string, event: FsEvent): void {
    for (const w of this.watchers) {
      if (!w.listener || (abs !== w.dir && !abs.startsWith(`${w.dir}/`))) continue;
      const rel = abs === w.dir ? '' : abs.slice(w.dir.length + 1);
      if (!w.recursive && rel.includes('/')) continue;
      w.listener(event, rel);
    }
  }

  readdir(
    path: string,
    options: 'buffer' | { encoding: 'buffer'; withFileTypes?: false },
  ): Promise<Uint8Array[]>;
  readdir(
    path: string,
    options?: { encoding?: BufferEncoding | null; withFileTypes?: false } | BufferEncoding | null,
  ): Promise<string[]>;
  readdir(path: string, options: { encoding: 'buffer'; withFileTypes: true }): Promise<DirEnt<Uint8Array>[]>;
  readdir(
    path: string,
    options: { encoding?: BufferEncoding | null; withFileTypes: true },
  ): Promise<DirEnt<string>[]>;
  async readdir(
    path: string,
    options?: string | null | { encoding?: string | null; withFileTypes?: boolean },
  ): Promise<Uint8Array[] | string[] | DirEnt<Uint8Array>[] | DirEnt<string>[]> {
    const abs = this.abs(path);
    let entries: { name: string; isFile: boolean; isDirectory: boolean }[];
    try {
      const st = await this.fs.stat(abs);
      if (!st.isDirectory) throw new Error(`ENOTDIR: not a directory, scandir '${abs}'`);
      entries = (await this.fs.readdirWithFileTypes(abs)).map((e) => ({
        name: e.name,
        isFile: e.isFile && !e.isSymbolicLink,
        isDirectory: e.isDirectory && !e.isSymbolicLink,
      }));
    } catch (err) {
      throw plain(err);
    }
    const buffer = options === 'buffer' || (typeof options === 'object' && options?.encoding === 'buffer');
    const withTypes = typeof options === 'object' && options?.withFileTypes === true;
    const enc = new TextEncoder();
    const kind = (e: (typeof entries)[number]) =>
      e.isFile ? 'file' : e.isDirectory ? 'directory' : 'symlink';
    if (withTypes && buffer) return entries.map((e) => new FakeDirEnt(enc.encode(e.name), kind(e)));
    if (withTypes) return entries.map((e) => new FakeDirEnt(e.name, kind(e)));
    if (buffer) return entries.map((e) => enc.encode(e.name));
    return entries.map((e) => e.name);
  }

  readFile(path: string, encoding?: null): Promise<Uint8Array>;
  readFile(path: string, encoding: BufferEncoding): Promise<string>;
  async readFile(path: string, encoding?: BufferEncoding | null): Promise<Uint8Array | string> {
    const abs = this.abs(path);
    try {
      const st = await this.fs.stat(abs);
      if (st.isDirectory) throw new Error(`EISDIR: illegal operation on a directory, read '${abs}'`);
      const bytes = await this.fs.readFileBuffer(abs);
      return encoding ? new TextDecoder().decode(bytes) : new Uint8Array(bytes);
    } catch (err) {
      throw plain(err);
    }
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const abs = this.abs(path);
    try {
      const parent = abs.slice(0, abs.lastIndexOf('/')) || '/';
      if (!(await this.fs.exists(parent)))
        throw new Error(`ENOENT: no such file or directory, open '${abs}'`);
      await this.fs.writeFile(abs, typeof data === 'string' ? data : new Uint8Array(data));
    } catch (err) {
      throw plain(err);
    }
  }

  mkdir(path: string, options?: { recursive?: false }): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string>;
  // biome-ignore lint/suspicious/noConfusingVoidType: the API's overloads return void or string
  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void | string> {
    const abs = this.abs(path);
    try {
      await this.fs.mkdir(abs, { recursive: options?.recursive ?? false });
    } catch (err) {
      throw plain(err);
    }
    return options?.recursive ? abs : undefined;
  }

  async rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void> {
    try {
      await this.fs.rm(this.abs(path), {
        force: options?.force ?? false,
        recursive: options?.recursive ?? false,
      });
    } catch (err) {
      throw plain(err);
    }
  }

  async rename(oldPath: string, newPath: string): Promise<void> {
    try {
      await this.fs.mv(this.abs(oldPath), this.abs(newPath));
    } catch (err) {
      throw plain(err);
    }
  }

  watch(filename: string, options?: FSWatchOptions, listener?: FSWatchCallback): IFSWatcher;
  watch(filename: string, listener?: FSWatchCallback): IFSWatcher;
  watch(
    filename: string,
    optionsOrListener?: FSWatchOptions | FSWatchCallback,
    maybeListener?: FSWatchCallback,
  ): IFSWatcher {
    const listener = typeof optionsOrListener === 'function' ? optionsOrListener : maybeListener;
    const options = typeof optionsOrListener === 'object' && optionsOrListener ? optionsOrListener : {};
    const watcher: Watcher = { dir: this.abs(filename), recursive: options.recursive === true, listener };
    this.watchers.add(watcher);
    return { close: () => this.watchers.delete(watcher) };
  }
}

const ESC = '\x1b';
const PROMPT = `${ESC}[35m❯${ESC}[0m `;

/** Single-quotes `s` for the shell. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

class FakeProcess implements WebContainerProcess {
  readonly exit: Promise<number>;
  readonly input: WritableStream<string>;
  readonly output: ReadableStream<string>;
  killed = false;
  size: { cols: number; rows: number };
  private controller!: ReadableStreamDefaultController<string>;
  private closed = false;
  private resolveExit!: (code: number) => void;
  private readonly onKill: () => void;

  constructor(
    private readonly chunkSize: number,
    onInput: (data: string) => void,
    onKill: () => void,
    size: { cols: number; rows: number },
  ) {
    this.size = size;
    this.onKill = onKill;
    this.output = new ReadableStream<string>({
      start: (controller) => {
        this.controller = controller;
      },
    });
    this.input = new WritableStream<string>({ write: (data) => onInput(data) });
    this.exit = new Promise<number>((resolve) => {
      this.resolveExit = resolve;
    });
  }

  /** Sends `text` as a PTY would: `\n` as `\r\n`, in chunks. */
  write(text: string): void {
    if (this.closed || !text) return;
    const pty = text.replace(/\r?\n/g, '\r\n');
    for (let i = 0; i < pty.length; i += this.chunkSize)
      this.controller.enqueue(pty.slice(i, i + this.chunkSize));
  }

  end(code: number): void {
    if (this.closed) return;
    this.closed = true;
    this.controller.close();
    this.resolveExit(code);
  }

  kill(): void {
    if (this.closed) return;
    this.killed = true;
    this.onKill();
  }

  resize(dimensions: { cols: number; rows: number }): void {
    this.size = dimensions;
  }
}

/** The fake `node`: `-e code [args]` runs `code` with a minimal `process` and `require`. */
function fakeNode() {
  return defineCommand('node', async (args, ctx) => {
    if (args[0] === '--version' || args[0] === '-v') return { stdout: 'v20.0.0\n', stderr: '', exitCode: 0 };
    if (args[0] !== '-e' || args[1] === undefined) {
      return { stdout: '', stderr: 'node (fake): only `node -e CODE` is supported\n', exitCode: 9 };
    }
    let stdout = '';
    let stderr = '';
    const pending = new Set<Promise<unknown>>();
    const track = <T>(p: Promise<T>): Promise<T> => {
      pending.add(p);
      p.finally(() => pending.delete(p)).catch(() => undefined);
      return p;
    };
    const resolve = (...parts: string[]) =>
      normalizePath(parts.reduce((acc, part) => (part.startsWith('/') ? part : `${acc}/${part}`), ctx.cwd));
    const path = {
      resolve,
      join: (...parts: string[]) => normalizePath(parts.join('/')),
      dirname: (p: string) => p.slice(0, p.lastIndexOf('/')) || '/',
      basename: (p: string) => p.slice(p.lastIndexOf('/') + 1),
    };
    const fsPromises = {
      realpath: (p: string) => track(ctx.fs.realpath(resolve(p))),
      readlink: (p: string) => track(ctx.fs.readlink(resolve(p))),
      lstat: (p: string) => track(ctx.fs.lstat(resolve(p))),
      readFile: (p: string, enc?: string) =>
        track<string | Uint8Array>(enc ? ctx.fs.readFile(resolve(p)) : ctx.fs.readFileBuffer(resolve(p))),
      writeFile: (p: string, data: string) => track(ctx.fs.writeFile(resolve(p), data)),
      symlink: (target: string, p: string) => track(ctx.fs.symlink(target, resolve(p))),
    };
    const modules: Record<string, unknown> = { fs: { promises: fsPromises }, path };
    class Exit {
      constructor(readonly code: number) {}
    }
    const process = {
      env: { ...(ctx.exportedEnv ?? Object.fromEntries(ctx.env)) },
      argv: ['/usr/local/bin/node', ...args.slice(2)],
      cwd: () => ctx.cwd,
      stdout: {
        write: (s: string) => {
          stdout += s;
          return true;
        },
      },
      stderr: {
        write: (s: string) => {
          stderr += s;
          return true;
        },
      },
      exit: (code = 0) => {
        throw new Exit(code);
      },
    };
    const require = (name: string) => {
      const mod = modules[name.replace(/^node:/, '')];
      if (!mod) throw new Error(`Cannot find module '${name}' (fake node)`);
      return mod;
    };
    try {
      new Function('require', 'process', args[1])(require, process);
      // Let promise chains the code started run to their end.
      for (let i = 0; i < 100; i++) {
        if (pending.size) await Promise.allSettled([...pending]);
        await new Promise((r) => setTimeout(r, 0));
        if (!pending.size) break;
      }
    } catch (err) {
      if (err instanceof Exit) return { stdout, stderr, exitCode: err.code };
      return { stdout, stderr: `${stderr}${err instanceof Error ? err.stack : String(err)}\n`, exitCode: 1 };
    }
    return { stdout, stderr, exitCode: 0 };
  });
}

/** A fake WebContainer over just-bash (see the module comment). */
export class FakeWebContainer implements WebContainerApi {
  readonly workdir: string;
  readonly fs: FakeFileSystem;
  /** Every process spawned, in order (tests check kills and terminal sizes). */
  readonly spawned: { command: string; args: string[]; options?: SpawnOptions; process: FakeProcess }[] = [];
  private readonly bash: InstanceType<typeof Bash>;
  private readonly chunkSize: number;
  private readonly spawnError?: string;
  private readonly listeners = new Map<string, Set<(...args: never[]) => void>>();

  constructor(options: FakeWebContainerOptions = {}) {
    this.workdir = normalizePath(options.workdir ?? '/home/project');
    this.chunkSize = options.chunkSize ?? 48;
    this.spawnError = options.spawnError;
    const inner = new InMemoryFs();
    let fsApi: FakeFileSystem | undefined;
    const fs = watchedFs(inner, (abs, event) => fsApi?.notify(abs, event));
    this.bash = new Bash({
      fs,
      cwd: this.workdir,
      env: { HOME: this.workdir, PATH: '/usr/local/bin:/usr/bin:/bin', TERM: 'xterm-256color' },
      customCommands: [fakeNode()],
    });
    fsApi = new FakeFileSystem(fs, this.workdir);
    this.fs = fsApi;
    inner.mkdirSync(this.workdir, { recursive: true });
    inner.mkdirSync('/tmp', { recursive: true });
  }

  async mount(
    snapshotOrTree: FileSystemTree | Uint8Array | ArrayBuffer,
    options?: LoadFilesOptions,
  ): Promise<void> {
    if (snapshotOrTree instanceof Uint8Array || snapshotOrTree instanceof ArrayBuffer) {
      throw new Error('The fake WebContainer does not read binary snapshots.');
    }
    const base = options?.mountPoint ? this.fs.abs(options.mountPoint) : this.workdir;
    const put = async (dir: string, tree: FileSystemTree): Promise<void> => {
      await this.bash.fs.mkdir(dir, { recursive: true });
      for (const [name, node] of Object.entries(tree)) {
        const p = `${dir}/${name}`;
        if ('directory' in node) await put(p, node.directory);
        else if ('symlink' in node.file) await this.bash.fs.symlink(node.file.symlink, p);
        else await this.bash.fs.writeFile(p, node.file.contents);
      }
    };
    await put(base, snapshotOrTree);
  }

  spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
  spawn(command: string, options?: SpawnOptions): Promise<WebContainerProcess>;
  async spawn(
    command: string,
    argsOrOptions?: string[] | SpawnOptions,
    maybeOptions?: SpawnOptions,
  ): Promise<WebContainerProcess> {
    const args = Array.isArray(argsOrOptions) ? argsOrOptions : [];
    const options = Array.isArray(argsOrOptions) ? maybeOptions : argsOrOptions;
    if (this.spawnError) throw new Error(this.spawnError);
    const cwd = options?.cwd ? this.fs.abs(options.cwd) : this.workdir;
    if (!(await this.bash.fs.exists(cwd)))
      throw new Error(`ENOENT: no such file or directory, chdir '${cwd}'`);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options?.env ?? {})) env[k] = String(v);
    const size = options?.terminal ?? { cols: 80, rows: 24 };
    const name = command.replace(/^\/bin\//, '');
    let proc: FakeProcess;
    if (name === 'jsh' && args[0] !== '-c') proc = this.interactive(cwd, env, size);
    else {
      const script = name === 'jsh' ? (args[1] ?? '') : [command, ...args].map(quote).join(' ');
      proc = this.runScript(script, cwd, env, size);
    }
    this.spawned.push({ command, args, options, process: proc });
    return proc;
  }

  private runScript(
    script: string,
    cwd: string,
    env: Record<string, string>,
    size: FakeProcess['size'],
  ): FakeProcess {
    const controller = new AbortController();
    const proc = new FakeProcess(
      this.chunkSize,
      () => undefined,
      () => controller.abort(),
      size,
    );
    void this.bash.exec(`{\n${script}\n}`, { cwd, env, signal: controller.signal, rawScript: true }).then(
      (r) => {
        proc.write(r.stdout);
        proc.write(r.stderr.replace(/bash: execution aborted\n?$/, ''));
        proc.end(proc.killed ? 130 : r.exitCode);
      },
      (err: unknown) => {
        proc.write(`${String(err)}\n`);
        proc.end(1);
      },
    );
    return proc;
  }

  /** `jsh` with no `-c`: echoes keys, edits the line, runs it on Enter, prints a prompt. */
  private interactive(cwd: string, env: Record<string, string>, size: FakeProcess['size']): FakeProcess {
    let line = '';
    let shellCwd = cwd;
    let shellEnv = env;
    let running: AbortController | undefined;
    const proc: FakeProcess = new FakeProcess(
      this.chunkSize,
      (data) => {
        for (const ch of data) {
          if (running) {
            if (ch === '\x03') running.abort();
            continue;
          }
          if (ch === '\r' || ch === '\n') {
            proc.write('\n');
            const command = line;
            line = '';
            if (command.trim() === 'exit') {
              proc.end(0);
              return;
            }
            if (!command.trim()) {
              proc.write(PROMPT);
              continue;
            }
            running = new AbortController();
            void this.bash
              .exec(`{\n${command}\n}`, {
                cwd: shellCwd,
                env: shellEnv,
                signal: running.signal,
                rawScript: true,
              })
              .then((r) => {
                proc.write(r.stdout);
                proc.write(r.stderr.replace(/bash: execution aborted\n?$/, '^C\n'));
                if (r.env?.PWD?.startsWith('/')) shellCwd = r.env.PWD;
                shellEnv = { ...r.env };
                running = undefined;
                proc.write(PROMPT);
              });
          } else if (ch === '\x7f' || ch === '\b') {
            if (line) {
              line = line.slice(0, -1);
              proc.write('\b \b');
            }
          } else if (ch === '\x03') {
            line = '';
            proc.write(`^C\n${PROMPT}`);
          } else if (ch >= ' ') {
            line += ch;
            proc.write(ch);
          }
        }
      },
      () => {
        running?.abort();
        proc.end(130);
      },
      size,
    );
    queueMicrotask(() => proc.write(PROMPT));
    return proc;
  }

  on(event: 'port', listener: PortListener): Unsubscribe;
  on(event: 'server-ready', listener: ServerReadyListener): Unsubscribe;
  on(event: 'preview-message', listener: PreviewMessageListener): Unsubscribe;
  on(event: 'error', listener: ErrorListener): Unsubscribe;
  on(event: 'xdg-open', listener: OpenListener): Unsubscribe;
  on(event: 'code', listener: CodeListener): Unsubscribe;
  on(event: string, listener: (...args: never[]) => void): Unsubscribe {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => void)(...args);
  }

  /** A server started listening (the real VM sends `port` open, then `server-ready`). */
  emitServerReady(port: number, url: string): void {
    this.fire('port', port, 'open', url);
    this.fire('server-ready', port, url);
  }

  emitPortClosed(port: number, url: string): void {
    this.fire('port', port, 'close', url);
  }

  emitPreviewMessage(message: PreviewMessage): void {
    this.fire('preview-message', message);
  }

  emitError(message: string): void {
    this.fire('error', { message });
  }

  /** Number of listeners still subscribed (a disposed sandbox leaves none). */
  listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n + this.fs.watchers.size;
  }
}
