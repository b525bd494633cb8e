/**
 * The page's copy of the workspace's files, kept current from the sandbox worker's backup messages (its
 * file-system journal), so a worker the page has to terminate is replaced by one with the same files.
 * Bytes appended to a file are kept as chunks and joined only when a worker starts from the copy:
 * a command appending line by line costs the page the bytes it appended, not the file's size each time.
 */
import { type DirEntry, type FileStat, normalizePath, SandboxError } from '../sandbox.ts';
import type { BackupChange } from './protocol.ts';

/** The reads a backup answers while a restarted worker starts (see WorkspaceBackup.answer). */
const ANSWERED = new Set(['readFile', 'readFileBytes', 'stat', 'exists', 'readdir']);

export class WorkspaceBackup {
  /** path → the file's bytes, as chunks in order (most files have one). */
  private readonly files = new Map<string, Uint8Array[]>();
  /** path → when the page last heard of a change to it (the mtime a read from the backup reports). */
  private readonly mtimes = new Map<string, number>();

  get size(): number {
    return this.files.size;
  }

  set(path: string, data: Uint8Array): void {
    this.files.set(path, [data]);
    this.mtimes.set(path, Date.now());
  }

  apply(changes: readonly BackupChange[]): void {
    for (const c of changes) {
      if (c.op === 'file' || c.op === 'append') this.mtimes.set(c.path, Date.now());
      if (c.op === 'file') this.files.set(c.path, [c.data]);
      else if (c.op === 'append') {
        const chunks = this.files.get(c.path);
        if (chunks) chunks.push(c.data);
        else this.files.set(c.path, [c.data]);
      } else if (c.op === 'remove') this.remove(c.path);
      else if (c.op === 'rename') this.rename(c.from, c.to);
    }
  }

  /** The files, each joined into one array (what a new worker starts from). */
  snapshot(): Record<string, Uint8Array> {
    const out: Record<string, Uint8Array> = {};
    for (const [path, chunks] of this.files) {
      const joined = chunks.length === 1 ? chunks[0] : join(chunks);
      if (chunks.length > 1) this.files.set(path, [joined]);
      out[path] = joined;
    }
    return out;
  }

  /**
   * Answers a read of the workspace (`root`) from the copy, for the moments no worker can (a restarted one
   * is starting): what the page shows and saves after an Esc need not wait for it. Undefined: not a read
   * the copy answers (another method, or a path outside `root`). Empty directories are not in the copy.
   */
  answer(
    root: string,
    method: string,
    args: readonly unknown[],
  ): { value: unknown } | { error: SandboxError } | undefined {
    const raw = args[0];
    if (!ANSWERED.has(method) || typeof raw !== 'string' || !raw.startsWith('/') || raw.includes('\0'))
      return undefined;
    const path = normalizePath(raw);
    if (path !== root && !path.startsWith(`${root}/`)) return undefined;
    const chunks = this.files.get(path);
    const isDir = !chunks && (path === root || this.hasUnder(path));
    const missing = () => ({ error: new SandboxError('ENOENT', `No such file or directory: ${path}`, path) });
    switch (method) {
      case 'exists':
        return { value: Boolean(chunks) || isDir };
      case 'stat': {
        if (isDir) return { value: { type: 'directory', size: 0, mtimeMs: 0 } satisfies FileStat };
        if (!chunks) return missing();
        const size = chunks.reduce((n, c) => n + c.length, 0);
        return { value: { type: 'file', size, mtimeMs: this.mtimes.get(path) ?? 0 } satisfies FileStat };
      }
      case 'readFileBytes':
      case 'readFile': {
        if (isDir) return { error: new SandboxError('EISDIR', `Is a directory: ${path}`, path) };
        if (!chunks) return missing();
        const bytes = chunks.length === 1 ? chunks[0] : join(chunks);
        return { value: method === 'readFile' ? new TextDecoder().decode(bytes) : bytes.slice() };
      }
      default: {
        if (chunks) return { error: new SandboxError('ENOTDIR', `Not a directory: ${path}`, path) };
        if (!isDir) return missing();
        const entries = new Map<string, DirEntry['type']>();
        const prefix = `${path}/`;
        for (const key of this.files.keys()) {
          if (!key.startsWith(prefix)) continue;
          const rest = key.slice(prefix.length);
          const slash = rest.indexOf('/');
          entries.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? 'file' : 'directory');
        }
        return {
          value: [...entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, type]) => ({ name, type })),
        };
      }
    }
  }

  private hasUnder(path: string): boolean {
    const prefix = `${path}/`;
    for (const key of this.files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  private remove(path: string): void {
    this.files.delete(path);
    this.mtimes.delete(path);
    const prefix = `${path}/`;
    for (const key of [...this.files.keys()]) if (key.startsWith(prefix)) this.files.delete(key);
  }

  /** A file or a directory (everything under it) moves; whatever was at the destination is replaced. */
  private rename(from: string, to: string): void {
    if (from === to) return;
    const moved: [string, Uint8Array[]][] = [];
    const prefix = `${from}/`;
    for (const [key, chunks] of this.files) {
      if (key === from) moved.push([to, chunks]);
      else if (key.startsWith(prefix)) moved.push([`${to}/${key.slice(prefix.length)}`, chunks]);
    }
    this.remove(from);
    this.remove(to);
    for (const [key, chunks] of moved) this.files.set(key, chunks);
  }
}

function join(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
