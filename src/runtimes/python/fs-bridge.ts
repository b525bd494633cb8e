/**
 * The python worker's side of the file mirror: Pyodide's in-memory file system (emscripten's FS) holds
 * the sandbox's workspace and /tmp. `apply` writes what the host sent; while a program runs, every
 * FS operation that changes something under those roots (emscripten's FS calls, which Python's file
 * functions all end in) marks its path, and `takeChanges` reports the current state of each marked
 * path: its content, a directory, a link, or its removal.
 *
 * Why hook the operations rather than diff the tree after a run: a diff needs a walk of the whole
 * workspace (node_modules included) before and after every run and misses a rewrite with the same size
 * within the clock's resolution; the hooks cost nothing when nothing is written, report changes while
 * the program still runs, and see every write whatever the size or time. Reporting state (not the
 * sequence of operations) makes the result independent of how the program got there.
 */
import type { FileChange } from '../shared/protocol.ts';

/** The part of emscripten's FS this module uses. */
export interface EmscriptenFs {
  lstat(path: string): { mode: number; mtime: Date | number };
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  readlink(path: string): string;
  writeFile(path: string, data: Uint8Array, opts?: { canOwn?: boolean }): void;
  mkdir(path: string, mode?: number): unknown;
  mkdirTree(path: string, mode?: number): void;
  rmdir(path: string): void;
  unlink(path: string): void;
  symlink(target: string, path: string): unknown;
  chmod(path: string, mode: number): void;
  utime(path: string, atime: number, mtime: number): void;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  isLink(mode: number): boolean;
  cwd(): string;
  chdir(path: string): void;
  getPath(node: unknown): string;
  getStream(fd: number): { path?: string } | null;
}

type Fn = (...args: never[]) => unknown;

const O_CREAT = 0o100;
const O_TRUNC = 0o1000;

export class PyodideFiles {
  private readonly dirty = new Set<string>();
  /** Marked paths whose whole subtree is reported (the target of a rename). */
  private readonly whole = new Set<string>();
  private tracking = false;
  /** The mirrored roots (the workspace and /tmp): learned from the runs and from full syncs. */
  private roots: string[] = [];

  constructor(private readonly fs: EmscriptenFs) {
    this.hook();
  }

  /** The roots whose changes are reported (a run's workspace root and /tmp). */
  setRoots(roots: string[]): void {
    for (const root of roots) {
      if (!this.roots.includes(root)) this.roots.push(root);
      this.fs.mkdirTree(root);
    }
  }

  /**
   * Applies the host's sync (not reported back). `full`: the whole mirrored tree; the roots (those known
   * and the top directories of the sync) are emptied first. Paths of the interpreter itself (/lib, /dev,
   * /proc) are never written.
   */
  apply(changes: FileChange[], full: boolean): void {
    const was = this.tracking;
    this.tracking = false;
    // Emscripten refuses to remove the current directory; every run sets its own cwd anyway.
    this.fs.chdir('/');
    try {
      if (full) {
        const paths = new Set(changes.map((c) => (c.op === 'rename' ? c.to : c.path)));
        const tops: string[] = [];
        for (const c of changes) if (c.op === 'dir' && !paths.has(parentOf(c.path))) tops.push(c.path);
        for (const root of new Set([...this.roots, ...tops])) {
          if (isProtected(root)) continue;
          this.remove(root);
          this.fs.mkdirTree(root);
        }
      }
      for (const c of changes) {
        if (c.op === 'rename') continue;
        if (isProtected(c.path)) continue;
        if (c.op === 'remove') {
          this.remove(c.path);
        } else if (c.op === 'dir') {
          if (this.kind(c.path) !== 'dir') this.remove(c.path);
          this.fs.mkdirTree(c.path);
          if (c.mode !== undefined) this.fs.chmod(c.path, c.mode & 0o7777);
        } else if (c.op === 'link') {
          this.remove(c.path);
          this.fs.mkdirTree(parentOf(c.path));
          this.fs.symlink(c.target, c.path);
        } else {
          if (this.kind(c.path) !== 'file') this.remove(c.path);
          this.fs.mkdirTree(parentOf(c.path));
          this.fs.writeFile(c.path, c.data, { canOwn: true });
          if (c.mode !== undefined) this.fs.chmod(c.path, c.mode & 0o7777);
          if (c.mtimeMs !== undefined) this.fs.utime(c.path, c.mtimeMs, c.mtimeMs);
        }
      }
    } finally {
      this.tracking = was;
    }
  }

  /** From now on, changes under the roots are recorded (until `stopTracking`). */
  startTracking(): void {
    this.dirty.clear();
    this.whole.clear();
    this.tracking = true;
  }

  stopTracking(): void {
    this.tracking = false;
  }

  hasChanges(): boolean {
    return this.dirty.size > 0;
  }

  /** The current state of every path changed since the last call, parents first. */
  takeChanges(): FileChange[] {
    const paths = [...this.dirty].sort();
    const whole = new Set(this.whole);
    this.dirty.clear();
    this.whole.clear();
    const out: FileChange[] = [];
    const covered: string[] = [];
    for (const path of paths) {
      if (covered.some((c) => path.startsWith(`${c}/`))) continue;
      if (whole.has(path)) {
        covered.push(path);
        this.collect(path, out, true);
      } else this.collect(path, out, false);
    }
    return out;
  }

  private collect(path: string, out: FileChange[], deep: boolean): void {
    let st: { mode: number; mtime: Date | number };
    try {
      st = this.fs.lstat(path);
    } catch {
      out.push({ op: 'remove', path });
      return;
    }
    if (this.fs.isLink(st.mode)) {
      out.push({ op: 'remove', path }, { op: 'link', path, target: this.fs.readlink(path) });
    } else if (this.fs.isDir(st.mode)) {
      if (deep) out.push({ op: 'remove', path });
      out.push({ op: 'dir', path, mode: st.mode & 0o7777 });
      if (!deep) return;
      for (const name of this.fs.readdir(path)) {
        if (name !== '.' && name !== '..') this.collect(`${path}/${name}`, out, true);
      }
    } else if (this.fs.isFile(st.mode)) {
      const mtime = st.mtime instanceof Date ? st.mtime.getTime() : Number(st.mtime);
      out.push({ op: 'file', path, data: this.fs.readFile(path), mode: st.mode & 0o7777, mtimeMs: mtime });
    }
  }

  private kind(path: string): 'file' | 'dir' | 'link' | 'other' | undefined {
    try {
      const { mode } = this.fs.lstat(path);
      if (this.fs.isLink(mode)) return 'link';
      if (this.fs.isDir(mode)) return 'dir';
      return this.fs.isFile(mode) ? 'file' : 'other';
    } catch {
      return undefined;
    }
  }

  /** Removes a path and everything under it; a missing path is fine. */
  private remove(path: string): void {
    const kind = this.kind(path);
    if (kind === undefined) return;
    if (kind === 'dir') {
      for (const name of this.fs.readdir(path)) {
        if (name !== '.' && name !== '..') this.remove(`${path}/${name}`);
      }
      this.fs.rmdir(path);
    } else this.fs.unlink(path);
  }

  private inRoots(path: string): boolean {
    return this.roots.some((r) => path === r || path.startsWith(`${r}/`));
  }

  private mark(path: string | undefined, whole = false): void {
    if (!this.tracking || !path) return;
    const abs = normalize(path.startsWith('/') ? path : `${this.fs.cwd()}/${path}`);
    if (!this.inRoots(abs)) return;
    this.dirty.add(abs);
    if (whole) this.whole.add(abs);
  }

  /** Wraps the FS operations that change the tree so each marks its path (after it succeeded). */
  private hook(): void {
    const fs = this.fs as unknown as Record<string, Fn>;
    const wrap = (name: string, paths: (args: unknown[], result: unknown) => void) => {
      const original = fs[name];
      if (typeof original !== 'function') return;
      fs[name] = function (this: unknown, ...args: never[]) {
        const result = original.apply(this, args);
        paths(args, result);
        return result;
      } as Fn;
    };
    const streamPath = (s: unknown) => (s as { path?: string } | null)?.path;
    wrap('write', ([stream]) => this.mark(streamPath(stream)));
    wrap('msync', ([stream]) => this.mark(streamPath(stream)));
    wrap('mknod', ([path]) => this.mark(path as string));
    wrap('open', ([path, flags], stream) => {
      const writes =
        typeof flags === 'string' ? /[wa]/.test(flags) : ((flags as number) & (O_CREAT | O_TRUNC)) !== 0;
      if (writes) this.mark(typeof path === 'string' ? path : streamPath(stream));
    });
    wrap('unlink', ([path]) => this.mark(path as string));
    wrap('rmdir', ([path]) => this.mark(path as string));
    wrap('rename', ([from, to]) => {
      this.mark(from as string);
      this.mark(to as string, true);
    });
    wrap('symlink', ([, path]) => this.mark(path as string));
    wrap('chmod', ([path]) => this.mark(typeof path === 'string' ? path : this.fs.getPath(path)));
    wrap('truncate', ([path]) => this.mark(typeof path === 'string' ? path : this.fs.getPath(path)));
    wrap('ftruncate', ([fd]) => this.mark(streamPath(this.fs.getStream(fd as number))));
    wrap('utime', ([path]) => this.mark(path as string));
  }
}

/** The interpreter's own files: a sync never touches them. */
const PROTECTED = ['/lib', '/dev', '/proc'];

function isProtected(path: string): boolean {
  return path === '/' || PROTECTED.some((p) => path === p || path.startsWith(`${p}/`));
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Resolves `.` and `..` and repeated slashes (no links). */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}
