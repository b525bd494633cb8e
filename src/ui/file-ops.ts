/**
 * What the Files panel does to the workspace, through the Sandbox interface only: the tree (files and
 * folders, empty ones included), names checked before anything is made, uploads (picked files, a
 * picked folder, or what was dropped, folders walked), a file's or the project's download (a zip).
 */

import { messageOf } from '../core/errors.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';

/** Largest file an upload takes; larger ones are refused with their size (the workspace lives in memory). */
export const MAX_UPLOAD_FILE_BYTES = 20 * 1024 * 1024;
/** Most bytes one upload takes in all. */
export const MAX_UPLOAD_TOTAL_BYTES = 100 * 1024 * 1024;
/** Most files one upload takes. */
export const MAX_UPLOAD_FILES = 20_000;
/** Folders the tree and the zip leave out (reinstalled, or the VCS's own). */
export const SKIPPED_DIRS = ['node_modules', '.git'];
/** Files from this size on are deflated in the zip; smaller ones are stored. */
const DEFLATE_FROM_BYTES = 1024;
/** Files read and written at once during an upload. */
const UPLOAD_CONCURRENCY = 16;
/** Longest name of one file or folder (bytes, as most file systems). */
const MAX_NAME_BYTES = 255;

/** Why `name` (one path segment) cannot be a file or folder name, or null when it can. */
export function nameProblem(name: string): string | null {
  if (name.trim() === '') return 'A name cannot be empty.';
  if (name === '.' || name === '..') return `"${name}" cannot be a name.`;
  if (name.includes('/')) return 'A name cannot contain "/".';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name))
    return `"${visibleName(name)}" has a control character; names cannot.`;
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES)
    return `A name is at most ${MAX_NAME_BYTES} bytes.`;
  return null;
}

/** Why `path` (relative to the workspace, `/`-separated) cannot be made, or null. */
export function pathProblem(path: string): string | null {
  const parts = path.split('/').filter((p, i, all) => p !== '' || (i > 0 && i < all.length - 1));
  if (parts.length === 0) return 'Give a name.';
  for (const part of parts) {
    const problem = nameProblem(part);
    if (problem) return problem;
  }
  return null;
}

/** A name as shown: control characters spelled out (`\x07`), so a name never hides what it holds. */
export function visibleName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export interface WorkspaceTree {
  /** Relative paths of files, sorted. */
  files: string[];
  /** Relative paths of folders, sorted (empty ones too). */
  dirs: string[];
}

/** Every file and folder of the workspace (relative paths), SKIPPED_DIRS left out. Rejects on a sandbox failure. */
export async function listTree(sandbox: Sandbox, signal?: AbortSignal): Promise<WorkspaceTree> {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    if (signal?.aborted) return;
    for (const entry of await sandbox.readdir(abs)) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.type === 'directory') {
        if (SKIPPED_DIRS.includes(entry.name)) continue;
        dirs.push(childRel);
        await walk(`${abs}/${entry.name}`, childRel);
      } else files.push(childRel);
    }
  };
  await walk(sandbox.root, '');
  return { files: files.sort(), dirs: dirs.sort() };
}

/** A file to upload and where it goes (relative to the folder it is uploaded into). */
export interface UploadEntry {
  path: string;
  file: File;
}

export interface UploadOutcome {
  written: string[];
  refused: Array<{ path: string; reason: string }>;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Writes `entries` under `dir` (relative to the workspace; '' for the root). Files too large, names that
 * cannot be, and what exceeds the upload's limits are refused one by one with the reason; the rest are
 * written. Never rejects: a failed write is a refusal too.
 */
export async function uploadEntries(
  sandbox: Sandbox,
  dir: string,
  entries: readonly UploadEntry[],
  onProgress?: (done: number, total: number) => void,
): Promise<UploadOutcome> {
  const refused = new Map<number, { path: string; reason: string }>();
  const accepted: number[] = [];
  let total = 0;
  // Limits first, in order, so what is refused does not depend on timing.
  for (let i = 0; i < entries.length; i++) {
    const { path, file } = entries[i];
    const problem = pathProblem(path);
    if (problem) refused.set(i, { path, reason: problem });
    else if (i >= MAX_UPLOAD_FILES)
      refused.set(i, { path, reason: `one upload takes at most ${MAX_UPLOAD_FILES} files` });
    else if (file.size > MAX_UPLOAD_FILE_BYTES)
      refused.set(i, {
        path,
        reason: `it is ${mb(file.size)}; files up to ${mb(MAX_UPLOAD_FILE_BYTES)} can be uploaded`,
      });
    else if (total + file.size > MAX_UPLOAD_TOTAL_BYTES)
      refused.set(i, { path, reason: `the upload would pass ${mb(MAX_UPLOAD_TOTAL_BYTES)} in all` });
    else {
      total += file.size;
      accepted.push(i);
    }
  }
  // Reading a file is a round trip to the browser: several at once.
  const written = new Set<number>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < accepted.length) {
      const i = accepted[next++];
      const { path, file } = entries[i];
      const target = dir ? `${dir}/${path}` : path;
      try {
        await sandbox.writeFile(`${sandbox.root}/${target}`, new Uint8Array(await file.arrayBuffer()));
        written.add(i);
      } catch (err) {
        refused.set(i, { path, reason: messageOf(err) });
      }
      done++;
      if (done % 100 === 0) onProgress?.(done, accepted.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, accepted.length) }, worker));
  onProgress?.(accepted.length, accepted.length);
  return {
    written: entries.flatMap((e, i) => (written.has(i) ? [dir ? `${dir}/${e.path}` : e.path] : [])),
    refused: [...refused.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r),
  };
}

/** Files picked with an `<input type="file">` (a folder pick carries each file's path in the folder). */
export function entriesFromFileList(list: FileList | readonly File[]): UploadEntry[] {
  return Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** What was dropped: files, and folders walked to their files (`webkitGetAsEntry`). Never rejects. */
export async function entriesFromDrop(data: DataTransfer): Promise<UploadEntry[]> {
  const roots = Array.from(data.items, (item) => item.webkitGetAsEntry?.() ?? null).filter(
    (e): e is FileSystemEntry => e !== null,
  );
  if (roots.length === 0) return entriesFromFileList(data.files);
  const out: UploadEntry[] = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isFile) {
      const file = await new Promise<File | null>((resolve) =>
        (entry as FileSystemFileEntry).file(resolve, () => resolve(null)),
      );
      if (file) out.push({ path, file });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries returns the folder in batches until an empty one.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve) =>
        reader.readEntries(resolve, () => resolve([])),
      );
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, path);
    }
  };
  for (const root of roots) await walk(root, '');
  return out;
}

/**
 * The project as a zip (jszip, loaded when first asked for): every file of the tree under its relative
 * path. `onProgress` hears how many files are in. Rejects on a sandbox failure.
 */
export async function zipProject(
  sandbox: Sandbox,
  onProgress?: (done: number, total: number) => void,
): Promise<Blob> {
  const [{ default: JSZip }, tree] = await Promise.all([import('jszip'), listTree(sandbox)]);
  const zip = new JSZip();
  for (const dir of tree.dirs) zip.folder(dir);
  for (let i = 0; i < tree.files.length; i++) {
    const path = tree.files[i];
    const bytes = await sandbox.readFileBytes(`${sandbox.root}/${path}`);
    // Small files are stored as they are: deflating them costs time and saves nothing.
    zip.file(path, bytes, { compression: bytes.length < DEFLATE_FROM_BYTES ? 'STORE' : 'DEFLATE' });
    if (i % 200 === 0) {
      onProgress?.(i, tree.files.length);
      // Let the page breathe between batches (a project of thousands of files).
      await new Promise((r) => setTimeout(r, 0));
    }
  }
  onProgress?.(tree.files.length, tree.files.length);
  return zip.generateAsync({ type: 'blob', compressionOptions: { level: 6 } });
}
