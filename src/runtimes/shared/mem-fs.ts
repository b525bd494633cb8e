/**
 * The worker's file system: a synchronous in-memory tree mirroring the sandbox's files, so a program's
 * `fs.readFileSync` needs no round trip. The host fills it with `apply()`; every change the program makes
 * is recorded and taken with `takeChanges()` to be sent back to the sandbox.
 *
 * Errors are `FsError`s shaped like Node's (`code`, `errno`, `syscall`, `path`, and the message
 * "ENOENT: no such file or directory, open '/x'"). Writes are allowed only under the writable roots
 * (the workspace and /tmp): anywhere else is EACCES, as for a user without rights there.
 */
import type { FileChange } from './protocol.ts';

export type FsErrorCode =
  | 'ENOENT'
  | 'EEXIST'
  | 'EISDIR'
  | 'ENOTDIR'
  | 'ENOTEMPTY'
  | 'EACCES'
  | 'EINVAL'
  | 'ELOOP'
  | 'EBADF'
  | 'EFBIG';

const DESCRIPTIONS: Record<FsErrorCode, [number, string]> = {
  ENOENT: [-2, 'no such file or directory'],
  EEXIST: [-17, 'file already exists'],
  EISDIR: [-21, 'illegal operation on a directory'],
  ENOTDIR: [-20, 'not a directory'],
  ENOTEMPTY: [-39, 'directory not empty'],
  EACCES: [-13, 'permission denied'],
  EINVAL: [-22, 'invalid argument'],
  ELOOP: [-40, 'too many symbolic links encountered'],
  EBADF: [-9, 'bad file descriptor'],
  EFBIG: [-27, 'file too large'],
};

export class FsError extends Error {
  readonly code: FsErrorCode;
  readonly errno: number;
  readonly syscall: string;
  readonly path?: string;
  readonly dest?: string;
  constructor(code: FsErrorCode, syscall: string, path?: string, dest?: string) {
    const [errno, text] = DESCRIPTIONS[code];
    const where = path === undefined ? '' : dest === undefined ? ` '${path}'` : ` '${path}' -> '${dest}'`;
    super(`${code}: ${text}, ${syscall}${where}`);
    this.name = 'Error';
    this.code = code;
    this.errno = errno;
    this.syscall = syscall;
    this.path = path;
    this.dest = dest;
  }
}

interface Meta {
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  birthtimeMs: number;
  ino: number;
}
interface FileNode extends Meta {
  kind: 'file';
  data: Uint8Array;
}
interface DirNode extends Meta {
  kind: 'dir';
  children: Map<string, Node>;
}
interface LinkNode extends Meta {
  kind: 'link';
  target: string;
}
type Node = FileNode | DirNode | LinkNode;

export interface StatInfo {
  type: 'file' | 'dir' | 'link';
  size: number;
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  birthtimeMs: number;
  ino: number;
}

/** Most symlinks followed resolving one path. */
const MAX_LINKS = 40;
/** Largest single file a program may write (bytes). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

const encoder = new TextEncoder();

/** Normalizes an absolute POSIX path (`//`, `.`, `..`, never above `/`). */
export function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function splitPath(abs: string): string[] {
  return abs === '/' ? [] : abs.slice(1).split('/');
}

export class MemFs {
  private readonly root: DirNode;
  private nextIno = 1;
  private changes: FileChange[] = [];
  private writableRoots: string[];

  constructor(writableRoots: string[] = ['/']) {
    this.root = this.dirNode(0o755);
    this.writableRoots = writableRoots.map(normalize);
  }

  /** Drops every entry (before a full sync). */
  reset(): void {
    this.root.children.clear();
    this.changes = [];
  }

  setWritableRoots(roots: string[]): void {
    this.writableRoots = roots.map(normalize);
  }

  /** Changes the program made since the last call, oldest first. */
  takeChanges(): FileChange[] {
    const out = this.changes;
    this.changes = [];
    return out;
  }

  hasChanges(): boolean {
    return this.changes.length > 0;
  }

  /** Applies the host's view of some paths (not recorded as the program's changes). */
  apply(changes: FileChange[]): void {
    for (const c of changes) {
      if (c.op === 'remove') {
        const parent = this.lookupParent(normalize(c.path), 'rm', false);
        parent?.dir.children.delete(parent.name);
      } else if (c.op === 'dir') {
        this.mkdirp(normalize(c.path), c.mode ?? 0o755);
      } else if (c.op === 'file') {
        const abs = normalize(c.path);
        const parent = this.mkdirp(parentOf(abs), 0o755);
        const node: FileNode = { ...this.meta(c.mode ?? 0o644), kind: 'file', data: c.data };
        if (c.mtimeMs !== undefined) node.mtimeMs = c.mtimeMs;
        parent.children.set(baseOf(abs), node);
      } else if (c.op === 'link') {
        const abs = normalize(c.path);
        const parent = this.mkdirp(parentOf(abs), 0o755);
        parent.children.set(baseOf(abs), { ...this.meta(0o777), kind: 'link', target: c.target });
      } else if (c.op === 'rename') {
        this.renameNode(normalize(c.from), normalize(c.to), false);
      }
    }
  }

  /** Every entry under `from` (inclusive), as FileChanges: for a full copy. */
  snapshot(from = '/'): FileChange[] {
    const out: FileChange[] = [];
    const walk = (abs: string, node: Node) => {
      if (node.kind === 'dir') {
        if (abs !== '/') out.push({ op: 'dir', path: abs, mode: node.mode });
        for (const [name, child] of node.children) walk(abs === '/' ? `/${name}` : `${abs}/${name}`, child);
      } else if (node.kind === 'file') out.push({ op: 'file', path: abs, data: node.data, mode: node.mode });
      else out.push({ op: 'link', path: abs, target: node.target });
    };
    const node = this.lookup(normalize(from), false, 'scandir');
    walk(normalize(from), node);
    return out;
  }

  // ---- reads

  stat(path: string, follow = true): StatInfo {
    const node = this.lookup(normalize(path), follow, follow ? 'stat' : 'lstat');
    return {
      type: node.kind,
      size: node.kind === 'file' ? node.data.length : node.kind === 'link' ? node.target.length : 4096,
      mode: node.mode | (node.kind === 'dir' ? 0o040000 : node.kind === 'link' ? 0o120000 : 0o100000),
      mtimeMs: node.mtimeMs,
      ctimeMs: node.ctimeMs,
      birthtimeMs: node.birthtimeMs,
      ino: node.ino,
    };
  }

  exists(path: string): boolean {
    try {
      this.lookup(normalize(path), true, 'access');
      return true;
    } catch {
      return false;
    }
  }

  readFile(path: string): Uint8Array {
    const node = this.lookup(normalize(path), true, 'open');
    if (node.kind === 'dir') throw new FsError('EISDIR', 'read');
    return (node as FileNode).data;
  }

  readdir(path: string): { name: string; type: 'file' | 'dir' | 'link' }[] {
    const node = this.lookup(normalize(path), true, 'scandir');
    if (node.kind !== 'dir') throw new FsError('ENOTDIR', 'scandir', path);
    return [...node.children.entries()]
      .map(([name, child]) => ({ name, type: child.kind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  readlink(path: string): string {
    const node = this.lookup(normalize(path), false, 'readlink');
    if (node.kind !== 'link') throw new FsError('EINVAL', 'readlink', path);
    return node.target;
  }

  realpath(path: string): string {
    return this.resolve(normalize(path), true, 'realpath', 0);
  }

  // ---- writes

  writeFile(path: string, data: Uint8Array | string, options: { flag?: string; mode?: number } = {}): void {
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    const flag = options.flag ?? 'w';
    const abs = this.resolve(normalize(path), true, 'open', 0, true);
    this.checkWritable(abs, 'open', path);
    const parent = this.lookupParent(abs, 'open', true);
    if (!parent) throw new FsError('ENOENT', 'open', path);
    const existing = parent.dir.children.get(parent.name);
    if (existing?.kind === 'dir') throw new FsError('EISDIR', 'open', path);
    if (existing && flag.includes('x')) throw new FsError('EEXIST', 'open', path);
    let next = bytes;
    if (existing?.kind === 'file' && flag.startsWith('a')) {
      next = new Uint8Array(existing.data.length + bytes.length);
      next.set(existing.data);
      next.set(bytes, existing.data.length);
    }
    if (next.length > MAX_FILE_BYTES) throw new FsError('EFBIG', 'write', path);
    const now = Date.now();
    if (existing?.kind === 'file') {
      existing.data = next;
      existing.mtimeMs = now;
      existing.ctimeMs = now;
    } else {
      parent.dir.children.set(parent.name, { ...this.meta(options.mode ?? 0o644), kind: 'file', data: next });
    }
    this.record({ op: 'file', path: abs, data: next });
  }

  mkdir(path: string, options: { recursive?: boolean; mode?: number } = {}): string | undefined {
    const abs = normalize(path);
    this.checkWritable(abs, 'mkdir', path);
    if (options.recursive) {
      let first: string | undefined;
      let dir = this.root;
      let at = '';
      for (const part of splitPath(abs)) {
        at = `${at}/${part}`;
        let child = dir.children.get(part);
        if (child?.kind === 'link') {
          const real = this.resolve(at, true, 'mkdir', 0);
          child = this.lookup(real, true, 'mkdir');
        }
        if (!child) {
          child = this.dirNode(options.mode ?? 0o755);
          dir.children.set(part, child);
          first ??= at;
          this.record({ op: 'dir', path: at });
        }
        if (child.kind !== 'dir') throw new FsError('ENOTDIR', 'mkdir', path);
        dir = child;
      }
      return first;
    }
    const parent = this.lookupParent(abs, 'mkdir', true);
    if (!parent) throw new FsError('ENOENT', 'mkdir', path);
    if (parent.dir.children.has(parent.name)) throw new FsError('EEXIST', 'mkdir', path);
    parent.dir.children.set(parent.name, this.dirNode(options.mode ?? 0o755));
    this.record({ op: 'dir', path: abs });
    return undefined;
  }

  /** `rm`, `unlink` and `rmdir` in one: `kind` says which rules apply. */
  remove(
    path: string,
    options: { recursive?: boolean; force?: boolean; kind?: 'rm' | 'unlink' | 'rmdir' } = {},
  ): void {
    const kind = options.kind ?? 'rm';
    const abs = normalize(path);
    const parent = this.lookupParent(abs, kind, true);
    const node = parent?.dir.children.get(parent.name);
    if (!parent || !node) {
      if (options.force) return;
      throw new FsError('ENOENT', kind, path);
    }
    this.checkWritable(abs, kind, path);
    if (node.kind === 'dir') {
      if (kind === 'unlink') throw new FsError('EISDIR', 'unlink', path);
      if (kind === 'rm' && !options.recursive) throw new FsError('EISDIR', 'rm', path);
      if (kind === 'rmdir' && node.children.size > 0 && !options.recursive) {
        throw new FsError('ENOTEMPTY', 'rmdir', path);
      }
    } else if (kind === 'rmdir') throw new FsError('ENOTDIR', 'rmdir', path);
    parent.dir.children.delete(parent.name);
    this.record({ op: 'remove', path: abs });
  }

  rename(from: string, to: string): void {
    this.renameNode(normalize(from), normalize(to), true);
  }

  copyFile(from: string, to: string, exclusive = false): void {
    const data = this.readFile(from);
    this.writeFile(to, data.slice(), { flag: exclusive ? 'wx' : 'w' });
  }

  symlink(target: string, path: string): void {
    const abs = normalize(path);
    this.checkWritable(abs, 'symlink', path);
    const parent = this.lookupParent(abs, 'symlink', true);
    if (!parent) throw new FsError('ENOENT', 'symlink', target, path);
    if (parent.dir.children.has(parent.name)) throw new FsError('EEXIST', 'symlink', target, path);
    parent.dir.children.set(parent.name, { ...this.meta(0o777), kind: 'link', target });
    this.record({ op: 'link', path: abs, target });
  }

  utimes(path: string, mtimeMs: number): void {
    const node = this.lookup(normalize(path), true, 'utime');
    node.mtimeMs = mtimeMs;
  }

  chmod(path: string, mode: number): void {
    const node = this.lookup(normalize(path), true, 'chmod');
    node.mode = mode & 0o7777;
  }

  truncate(path: string, length = 0): void {
    const data = this.readFile(path);
    const next = new Uint8Array(length);
    next.set(data.subarray(0, Math.min(length, data.length)));
    this.writeFile(path, next);
  }

  // ---- internals

  private record(change: FileChange): void {
    this.changes.push(change);
  }

  private meta(mode: number): Meta {
    const now = Date.now();
    return { mode, mtimeMs: now, ctimeMs: now, birthtimeMs: now, ino: this.nextIno++ };
  }

  private dirNode(mode: number): DirNode {
    return { ...this.meta(mode), kind: 'dir', children: new Map() };
  }

  private checkWritable(abs: string, syscall: string, path: string): void {
    const real = this.realOfMaybeMissing(abs, syscall);
    const ok = this.writableRoots.some((r) => r === '/' || real === r || real.startsWith(`${r}/`));
    if (!ok) throw new FsError('EACCES', syscall, path);
  }

  /** Where `abs` would be: its longest existing prefix with links followed, then the rest as written. */
  private realOfMaybeMissing(abs: string, syscall: string): string {
    const parts = splitPath(abs);
    for (let i = parts.length; i > 0; i--) {
      const prefix = `/${parts.slice(0, i).join('/')}`;
      let real: string;
      try {
        real = this.resolve(prefix, i < parts.length, syscall, 0);
      } catch (err) {
        if (err instanceof FsError && err.code === 'ENOENT') continue;
        throw err;
      }
      const rest = parts.slice(i).join('/');
      return rest ? normalize(`${real}/${rest}`) : real;
    }
    return abs;
  }

  /** Creates `abs` and its parents as directories (host syncs; never recorded). */
  private mkdirp(abs: string, mode: number): DirNode {
    let dir = this.root;
    for (const part of splitPath(abs)) {
      let child = dir.children.get(part);
      if (child?.kind !== 'dir') {
        child = this.dirNode(mode);
        dir.children.set(part, child);
      }
      dir = child;
    }
    return dir;
  }

  /**
   * Where `abs` leads once symlinks are followed (the last component too when `followLast`). With
   * `allowMissing`, a missing last component is fine (a path about to be created).
   */
  private resolve(
    abs: string,
    followLast: boolean,
    syscall: string,
    depth: number,
    allowMissing = false,
  ): string {
    if (depth > MAX_LINKS) throw new FsError('ELOOP', syscall, abs);
    const parts = splitPath(abs);
    let dir = this.root;
    let at = '';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const last = i === parts.length - 1;
      const child = dir.children.get(part);
      if (!child) {
        if (last && allowMissing) return `${at}/${part}`;
        throw new FsError('ENOENT', syscall, abs);
      }
      if (child.kind === 'link' && (!last || followLast)) {
        const target = child.target.startsWith('/') ? child.target : `${at}/${child.target}`;
        const rest = parts.slice(i + 1).join('/');
        return this.resolve(
          normalize(rest ? `${target}/${rest}` : target),
          followLast,
          syscall,
          depth + 1,
          allowMissing,
        );
      }
      at = `${at}/${part}`;
      if (last) return at;
      if (child.kind !== 'dir') throw new FsError('ENOTDIR', syscall, abs);
      dir = child;
    }
    return at || '/';
  }

  private lookup(abs: string, follow: boolean, syscall: string): Node {
    const real = this.resolve(abs, follow, syscall, 0);
    let node: Node = this.root;
    for (const part of splitPath(real)) {
      if (node.kind !== 'dir') throw new FsError('ENOTDIR', syscall, abs);
      const child: Node | undefined = node.children.get(part);
      if (!child) throw new FsError('ENOENT', syscall, abs);
      node = child;
    }
    return node;
  }

  /** The directory holding `abs` (its parent's links followed) and the entry's name; undefined when missing. */
  private lookupParent(
    abs: string,
    syscall: string,
    strict: boolean,
  ): { dir: DirNode; name: string } | undefined {
    if (abs === '/') throw new FsError('EACCES', syscall, abs);
    let parent: Node;
    try {
      parent = this.lookup(parentOf(abs), true, syscall);
    } catch (err) {
      if (!strict) return undefined;
      throw err instanceof FsError ? new FsError(err.code, syscall, abs) : err;
    }
    if (parent.kind !== 'dir') {
      if (!strict) return undefined;
      throw new FsError('ENOTDIR', syscall, abs);
    }
    return { dir: parent, name: baseOf(abs) };
  }

  private renameNode(from: string, to: string, record: boolean): void {
    const src = this.lookupParent(from, 'rename', record);
    const node = src?.dir.children.get(src.name);
    if (!src || !node) {
      if (!record) return;
      throw new FsError('ENOENT', 'rename', from, to);
    }
    if (record) {
      this.checkWritable(from, 'rename', from);
      this.checkWritable(to, 'rename', to);
    }
    if (node.kind === 'dir' && (to === from || to.startsWith(`${from}/`))) {
      throw new FsError('EINVAL', 'rename', from, to);
    }
    const dest = this.lookupParent(to, 'rename', true);
    if (!dest) throw new FsError('ENOENT', 'rename', from, to);
    const existing = dest.dir.children.get(dest.name);
    if (existing?.kind === 'dir' && node.kind !== 'dir') throw new FsError('EISDIR', 'rename', from, to);
    if (existing?.kind === 'dir' && existing.children.size > 0)
      throw new FsError('ENOTEMPTY', 'rename', from, to);
    src.dir.children.delete(src.name);
    dest.dir.children.set(dest.name, node);
    if (record) this.record({ op: 'rename', from, to });
  }
}

function parentOf(abs: string): string {
  const i = abs.lastIndexOf('/');
  return i <= 0 ? '/' : abs.slice(0, i);
}

function baseOf(abs: string): string {
  return abs.slice(abs.lastIndexOf('/') + 1);
}
