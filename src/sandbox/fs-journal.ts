/**
 * The file system's journal: each change to the workspace with the bytes it wrote, reported while the
 * change is made (synchronously, before the command that made it goes on). The sandbox worker sends it
 * to the page, whose copy of the workspace is then current even when the next thing the command does
 * is block the worker's thread for good: a worker the page has to terminate loses nothing it wrote.
 *
 * Reading the file back after the change (as a later task) would miss exactly those last writes.
 */
import { normalizePath } from './sandbox.ts';
import { isInside } from './shared.ts';

/** One change, in the workspace's absolute paths. */
export type JournalEntry =
  /** The file's whole content. */
  | { op: 'file'; path: string; data: Uint8Array }
  /** Bytes added at the end of the file. */
  | { op: 'append'; path: string; data: Uint8Array }
  /** The path and everything under it are gone. */
  | { op: 'remove'; path: string }
  | { op: 'rename'; from: string; to: string }
  /** Changed in a way the journal does not carry (a copy, a link, a mode): read it back. */
  | { op: 'changed'; path: string };

const utf8 = new TextEncoder();

/** The bytes a write of `content` stores, or undefined for an encoding the journal does not follow. */
function bytesOf(content: unknown, options: unknown): Uint8Array | undefined {
  if (content instanceof Uint8Array) return content.slice();
  if (typeof content !== 'string') return undefined;
  const encoding =
    typeof options === 'string'
      ? options
      : options && typeof options === 'object'
        ? (options as { encoding?: unknown }).encoding
        : undefined;
  if (encoding === undefined || encoding === null || encoding === 'utf8' || encoding === 'utf-8')
    return utf8.encode(content);
  if (encoding === 'binary' || encoding === 'latin1') {
    const out = new Uint8Array(content.length);
    for (let i = 0; i < content.length; i++) out[i] = content.charCodeAt(i) & 0xff;
    return out;
  }
  return undefined;
}

/**
 * The journal entries of one successful file-system call (`method` with `args`, as just-bash's file
 * system takes them), keeping only what is inside `root`. Never throws.
 */
export function journalOf(root: string, method: string, args: readonly unknown[]): JournalEntry[] {
  const at = (i: number) => normalizePath(String(args[i]));
  const inside = (p: string) => isInside(root, p);
  switch (method) {
    case 'writeFile':
    case 'appendFile': {
      const path = at(0);
      if (!inside(path)) return [];
      const data = bytesOf(args[1], args[2]);
      if (!data) return [{ op: 'changed', path }];
      return [{ op: method === 'writeFile' ? 'file' : 'append', path, data }];
    }
    case 'rm': {
      const path = at(0);
      return inside(path) ? [{ op: 'remove', path }] : [];
    }
    case 'mv': {
      const from = at(0);
      const to = at(1);
      if (inside(from) && inside(to)) return [{ op: 'rename', from, to }];
      if (inside(from)) return [{ op: 'remove', path: from }];
      return inside(to) ? [{ op: 'changed', path: to }] : [];
    }
    case 'cp':
    case 'symlink':
    case 'link': {
      const path = at(1);
      return inside(path) ? [{ op: 'changed', path }] : [];
    }
    case 'chmod':
    case 'utimes':
    case 'mkdir': {
      const path = at(0);
      return inside(path) ? [{ op: 'changed', path }] : [];
    }
    default:
      return [];
  }
}

/** The journal callback for reportChanges (shared.ts): `sink` gets each entry inside `root`; none without a sink. */
export function journalSink(
  root: string,
  sink: ((entry: JournalEntry) => void) | undefined,
): ((method: string, args: unknown[]) => void) | undefined {
  if (!sink) return undefined;
  return (method, args) => {
    for (const entry of journalOf(root, method, args)) sink(entry);
  };
}
