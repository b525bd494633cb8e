/**
 * What Read recorded about files, and the checks Write and Edit make with it: a file that exists may
 * only be overwritten after it was read in this session and while its content is still what was read.
 * Also the path resolution and file snapshots the three file tools share. Every path goes through the
 * sandbox (`resolveInside` against the workspace root and the agent's cwd).
 */

import type { ToolUseContext } from '../../core/context.ts';
import { messageOf } from '../../core/errors.ts';
import { hashString } from '../../core/hash.ts';
import { resolveInside, SandboxError } from '../../sandbox/sandbox.ts';

/** Claude Code's wording: the file exists but Read was never called on it in this session. */
export const FILE_NOT_READ_ERROR = 'File has not been read yet. Read it first before writing to it.';
/** Claude Code's wording: the file's content changed after it was read. */
export const FILE_MODIFIED_ERROR =
  'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';

/** Most similar names suggested for a missing file. */
const MAX_SUGGESTIONS = 3;

/**
 * The hash recorded for a file's content, plus its length. Equal strings give equal hashes; it only has
 * to notice changes, not resist attacks. SHA-256 through Web Crypto where there is one: the digest runs
 * off the page's thread (core's string hash, in JavaScript, held the page for 59-547 ms over a 5 MB file
 * on a loaded machine); else core's fast 64-bit string hash.
 */
export async function hashContent(content: string): Promise<string> {
  if (!globalThis.crypto?.subtle) return `${hashString(content)}:${content.length}`;
  return hashUtf8(new TextEncoder().encode(content), content.length);
}

/** hashContent of the text whose UTF-8 bytes are `bytes` (`length`: its length in UTF-16 units). */
async function hashUtf8(bytes: Uint8Array, length: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `${hex}:${length}`;
}

/**
 * hashContent of a snapshot's content. Valid UTF-8 is hashed from the bytes that were read (they are what
 * encoding the content gives back; encoding a 5 MB file again held the page for 20 ms); otherwise from the
 * content, replacement characters and all.
 */
export function snapshotHash(snap: FileSnapshot & { kind: 'file' }): Promise<string> {
  return snap.validUtf8 && globalThis.crypto?.subtle
    ? hashUtf8(snap.bytes, snap.content.length)
    : hashContent(snap.content);
}

/** A path resolved inside the workspace, or the model-facing reason it could not be. */
export type ResolvedPath = { ok: true; path: string } | { ok: false; error: string };

/**
 * Resolves a tool's `file_path` (absolute, `~/`-relative to the workspace, or relative to the agent's
 * cwd) to an absolute path inside the workspace. Never throws; never touches the file system.
 */
export function resolveFilePath(ctx: ToolUseContext, filePath: string): ResolvedPath {
  try {
    return { ok: true, path: resolveInside(ctx.sandbox.root, ctx.options.cwd, filePath) };
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}

/** A model-facing message for a sandbox (or any) error. */
export function errorMessage(err: unknown): string {
  if (err instanceof SandboxError) return err.message;
  return messageOf(err);
}

/** What is at a path right now. `content` is the bytes decoded as UTF-8 (a BOM is kept). */
export type FileSnapshot =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | {
      kind: 'file';
      content: string;
      /** The bytes read (`content` decoded from them). */
      bytes: Uint8Array;
      mtimeMs: number;
      size: number;
      /** Contains a NUL byte: not a text file. */
      binary: boolean;
      /** The bytes are valid UTF-8 (else `content` has replacement characters). */
      validUtf8: boolean;
    };

/** Decodes bytes as UTF-8 without dropping a BOM; says whether they were valid UTF-8. */
export function decodeText(bytes: Uint8Array): { content: string; validUtf8: boolean } {
  try {
    return {
      content: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes),
      validUtf8: true,
    };
  } catch {
    return { content: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), validUtf8: false };
  }
}

/**
 * Reads what is at `absPath` (already resolved inside the workspace). Missing paths and directories
 * are results, not errors; other sandbox failures (e.g. a parent that is a file) reject with a
 * SandboxError.
 */
export async function readSnapshot(ctx: ToolUseContext, absPath: string): Promise<FileSnapshot> {
  const sandbox = ctx.sandbox;
  let mtimeMs: number;
  try {
    const st = await sandbox.stat(absPath);
    if (st.type === 'directory') return { kind: 'directory' };
    mtimeMs = st.mtimeMs;
  } catch (err) {
    if (err instanceof SandboxError && (err.code === 'ENOENT' || err.code === 'ENOTDIR'))
      return { kind: 'missing' };
    throw err;
  }
  let bytes: Uint8Array;
  try {
    bytes = await sandbox.readFileBytes(absPath);
  } catch (err) {
    // A symlink to a directory, or a dangling one.
    if (err instanceof SandboxError && err.code === 'EISDIR') return { kind: 'directory' };
    if (err instanceof SandboxError && err.code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  const { content, validUtf8 } = decodeText(bytes);
  return { kind: 'file', content, bytes, mtimeMs, size: bytes.length, binary: bytes.includes(0), validUtf8 };
}

/**
 * Records that `absPath` was read (or written) with this full `content` (or the snapshot it was read
 * as) and modification time.
 * `partial` is true when only some lines were shown (offset/limit); the hash is always of the whole
 * file, so a partial read still lets Write/Edit detect later changes.
 */
export async function recordRead(
  ctx: ToolUseContext,
  absPath: string,
  content: string | (FileSnapshot & { kind: 'file' }),
  mtimeMs: number,
  partial: boolean,
): Promise<void> {
  const readAt = Date.now();
  const contentHash = await (typeof content === 'string' ? hashContent(content) : snapshotHash(content));
  ctx.readFileState.set(absPath, { contentHash, mtimeMs, readAt, partial });
}

/**
 * Whether Write/Edit may replace the file at `absPath`: null when it may (it does not exist, or it was
 * read in this session and its content is unchanged since), else a model-facing error. The content
 * hash decides staleness: a changed mtime with the same content (a `touch`) is fine, and changed
 * content with the same mtime (two writes in one millisecond) is caught. Pass `current` when the
 * caller already took a snapshot, to avoid reading the file twice. Never throws for a missing file;
 * other sandbox failures reject.
 */
export async function checkWritable(
  ctx: ToolUseContext,
  absPath: string,
  current?: FileSnapshot,
): Promise<string | null> {
  const snap = current ?? (await readSnapshot(ctx, absPath));
  if (snap.kind === 'missing') return null;
  if (snap.kind === 'directory') return `${absPath} is a directory, not a file.`;
  if (snap.binary) {
    return `${absPath} is a binary file; it cannot be read, so Write and Edit will not replace it. Use Bash to remove or replace it if that is what you mean.`;
  }
  const record = ctx.readFileState.get(absPath);
  if (!record) return FILE_NOT_READ_ERROR;
  if (record.contentHash !== (await snapshotHash(snap))) return FILE_MODIFIED_ERROR;
  return null;
}

/**
 * For a file about to be created: a model-facing error when an ancestor of `absPath` is a file (so the
 * parent directories cannot be made), else null. Stops at the first ancestor that exists. Never throws.
 */
export async function checkParentDirs(ctx: ToolUseContext, absPath: string): Promise<string | null> {
  let dir = absPath.slice(0, absPath.lastIndexOf('/'));
  while (dir.length > 0) {
    try {
      const st = await ctx.sandbox.stat(dir);
      if (st.type === 'directory') return null;
      return `Cannot create ${absPath}: ${dir} is a file, not a directory.`;
    } catch (err) {
      if (!(err instanceof SandboxError) || err.code === 'EOUTSIDE') return null;
    }
    dir = dir.slice(0, dir.lastIndexOf('/'));
  }
  return null;
}

/** Levenshtein distance, stopping early once it exceeds `max` (returns max + 1 then). */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      best = Math.min(best, row[j]);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
}

/**
 * The model-facing error for a path that does not exist: names the path and the agent's cwd, and
 * suggests up to 3 similar names from the same directory (same name ignoring case or extension, or a
 * small typo). Never throws.
 */
export async function describeMissingFile(ctx: ToolUseContext, absPath: string): Promise<string> {
  const base = `File does not exist: ${absPath}. Current working directory: ${ctx.options.cwd}.`;
  const slash = absPath.lastIndexOf('/');
  const dir = absPath.slice(0, slash) || '/';
  const name = absPath.slice(slash + 1);
  let names: string[];
  try {
    names = (await ctx.sandbox.readdir(dir)).map((e) => e.name);
  } catch {
    return `${base} Its directory ${dir} does not exist either.`;
  }
  const lower = name.toLowerCase();
  const scored = names
    .map((n) => {
      const l = n.toLowerCase();
      const score = l === lower ? 0 : stem(n) === stem(name) ? 1 : editDistance(l, lower, 2) + 1;
      return { n, score };
    })
    .filter((s) => s.score <= 3)
    .sort((a, b) => a.score - b.score || (a.n < b.n ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => (dir === '/' ? `/${s.n}` : `${dir}/${s.n}`));
  return scored.length > 0 ? `${base} Did you mean ${scored.join(', ')}?` : base;
}
