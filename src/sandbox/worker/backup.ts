/**
 * The page's copy of the workspace's files, kept current from the sandbox worker's backup messages (its
 * file-system journal), so a worker the page has to terminate is replaced by one with the same files.
 * Bytes appended to a file are kept as chunks and joined only when a worker starts from the copy:
 * a command appending line by line costs the page the bytes it appended, not the file's size each time.
 */
import type { BackupChange } from './protocol.ts';

export class WorkspaceBackup {
  /** path → the file's bytes, as chunks in order (most files have one). */
  private readonly files = new Map<string, Uint8Array[]>();

  get size(): number {
    return this.files.size;
  }

  set(path: string, data: Uint8Array): void {
    this.files.set(path, [data]);
  }

  apply(changes: readonly BackupChange[]): void {
    for (const c of changes) {
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

  private remove(path: string): void {
    this.files.delete(path);
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
