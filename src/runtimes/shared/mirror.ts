/**
 * The host side of a worker's file mirror. The sandbox reports every path it changes (`noteChange`);
 * before a run, `delta(worker)` gives the worker what changed since it last synced: the whole tree the
 * first time, afterwards only the touched paths (a touched directory is sent with everything under it,
 * since a rename or `cp -r` reports only the top). Changes the worker itself made and the host applied
 * are not sent back to it.
 *
 * Only the mirrored roots travel (the workspace and /tmp); other paths are not visible to programs.
 */
import type { FileChange } from './protocol.ts';

/** The part of just-bash's IFileSystem the mirror reads. */
export interface MirrorSourceFs {
  lstat(
    path: string,
  ): Promise<{ isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean; mode?: number; mtime?: Date }>;
  readdir(path: string): Promise<string[]>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  readlink(path: string): Promise<string>;
}

/** Journal entries kept before a full resync is cheaper. */
const MAX_JOURNAL = 5_000;

interface JournalEntry {
  seq: number;
  path: string;
  /** The worker whose change this was (it already has it). */
  origin?: number;
}

export interface MirrorClient {
  readonly id: number;
  /** Last journal sequence this client has seen; -1: never synced. */
  syncedSeq: number;
}

export class FileMirror {
  private journal: JournalEntry[] = [];
  private seq = 0;
  /** Oldest sequence still in the journal (older clients need a full sync). */
  private floor = 0;
  /** Paths about to be written on behalf of a worker: their change events belong to it. */
  private readonly expected = new Map<string, number>();
  private nextClient = 1;

  constructor(
    private readonly fs: MirrorSourceFs,
    private readonly roots: string[],
  ) {}

  newClient(): MirrorClient {
    return { id: this.nextClient++, syncedSeq: -1 };
  }

  /** Called for every change the sandbox's file system reports. */
  noteChange(path: string): void {
    if (!this.roots.some((r) => path === r || path.startsWith(`${r}/`))) return;
    const origin = this.expected.get(path);
    if (origin !== undefined) this.expected.delete(path);
    this.journal.push({ seq: ++this.seq, path, origin });
    if (this.journal.length > MAX_JOURNAL) {
      this.journal = [];
      this.floor = this.seq;
    }
  }

  /** The next change event for `path` comes from applying `client`'s own change. */
  expectFrom(client: MirrorClient, path: string): void {
    this.expected.set(path, client.id);
  }

  /**
   * What `client` needs to be current, and marks it current. `full` when the whole tree was sent (the
   * worker should drop what it had).
   */
  async delta(client: MirrorClient): Promise<{ changes: FileChange[]; full: boolean }> {
    const upTo = this.seq;
    if (client.syncedSeq < this.floor) {
      const changes: FileChange[] = [];
      for (const root of this.roots) await this.collect(root, changes);
      client.syncedSeq = upTo;
      return { changes, full: true };
    }
    const paths = new Set<string>();
    for (const entry of this.journal) {
      if (entry.seq > client.syncedSeq && entry.seq <= upTo && entry.origin !== client.id)
        paths.add(entry.path);
    }
    // A path under another touched path is covered by the walk of its ancestor.
    const sorted = [...paths].sort();
    const tops: string[] = [];
    for (const p of sorted) if (!tops.some((t) => p.startsWith(`${t}/`))) tops.push(p);
    const changes: FileChange[] = [];
    for (const p of tops) await this.collect(p, changes, true);
    client.syncedSeq = upTo;
    return { changes, full: false };
  }

  /**
   * `path` and everything under it, as the sandbox has it now (a missing path → remove). A directory at
   * the top of a delta is sent whole after a remove, so entries gone from it go in the worker too.
   */
  private async collect(path: string, out: FileChange[], top = false): Promise<void> {
    let st: Awaited<ReturnType<MirrorSourceFs['lstat']>>;
    try {
      st = await this.fs.lstat(path);
    } catch {
      out.push({ op: 'remove', path });
      return;
    }
    if (st.isSymbolicLink) {
      out.push({ op: 'remove', path }, { op: 'link', path, target: await this.fs.readlink(path) });
    } else if (st.isDirectory) {
      if (top) out.push({ op: 'remove', path });
      out.push({ op: 'dir', path, mode: st.mode });
      let names: string[] = [];
      try {
        names = await this.fs.readdir(path);
      } catch {
        return;
      }
      for (const name of names) await this.collect(path === '/' ? `/${name}` : `${path}/${name}`, out);
    } else {
      const data = (await this.fs.readFileBuffer(path)).slice();
      out.push({ op: 'file', path, data, mode: st.mode, mtimeMs: st.mtime?.getTime() });
    }
  }
}
