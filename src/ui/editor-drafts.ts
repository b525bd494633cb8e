/**
 * Text typed into the Files editor and not saved yet, kept in the tab's sessionStorage by file, so a
 * reload (or a switch to another file and back) opens the editor again on it rather than dropping it.
 * Saving or cancelling lets it go. Never throws: storage refused or full keeps nothing (as before).
 */
import { inEmbedStorage, storageName } from '../core/storage-namespace.ts';
import { readTabValue, writeTabValue } from './tab-session.ts';

const key = () => storageName('editor-drafts', '.');
/** Most characters kept across all files (sessionStorage is small; the viewer's own cap is 200,000). */
const MAX_CHARS = 1_000_000;

function readAll(): Record<string, string> {
  try {
    const raw = globalThis.sessionStorage?.getItem(key());
    const parsed = raw ? (JSON.parse(raw) as unknown) : {};
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

/** The unsaved text of the file at `absPath`, if any. */
export function readEditorDraft(absPath: string): string | undefined {
  if (inEmbedStorage()) return undefined;
  return readAll()[absPath];
}

/** Keeps `text` as the unsaved text of `absPath` (null: lets it go). */
export function writeEditorDraft(absPath: string, text: string | null): void {
  // An embed writes nothing into the host page's storage.
  if (inEmbedStorage()) return;
  try {
    const all = readAll();
    if (text === null) delete all[absPath];
    else all[absPath] = text;
    const entries = Object.entries(all);
    if (entries.length === 0) {
      globalThis.sessionStorage?.removeItem(key());
      return;
    }
    const total = entries.reduce((n, [, t]) => n + t.length, 0);
    if (total > MAX_CHARS) return;
    globalThis.sessionStorage?.setItem(key(), JSON.stringify(all));
  } catch {
    // Refused or full: the draft lives as long as the page.
  }
}

/** The file the Files viewer had open in this tab (absolute path), so a reload opens it again. */
export const readOpenFile = (): string | undefined => readTabValue('open-file');
/** Keeps `absPath` as the file the viewer has open (null: none is). */
export const writeOpenFile = (absPath: string | null): void => writeTabValue('open-file', absPath);
