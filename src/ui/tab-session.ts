/**
 * What this tab keeps in its sessionStorage so a reload shows it again: the session it has open (the
 * settings store's current session is the page's, the last one any tab opened for writing: after another
 * tab opened a session of its own, a reload here would otherwise open that one, read-only, in place of
 * what this tab showed), and small values of the same kind (the file the Files viewer has open). An embed
 * keeps none: it writes nothing into the host page's storage. Never throws (storage refused or full: the
 * value is not kept).
 */
import { inEmbedStorage, storageName } from '../core/storage-namespace.ts';

/** The tab's value `name`, if kept. */
export function readTabValue(name: string): string | undefined {
  if (inEmbedStorage()) return undefined;
  try {
    return globalThis.sessionStorage?.getItem(storageName(name, '.')) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `value` as the tab's value `name` (null: lets it go). */
export function writeTabValue(name: string, value: string | null): void {
  if (inEmbedStorage()) return;
  try {
    if (value === null) globalThis.sessionStorage?.removeItem(storageName(name, '.'));
    else globalThis.sessionStorage?.setItem(storageName(name, '.'), value);
  } catch {
    // Refused or full: a reload does without it.
  }
}

export const readTabSession = (): string | undefined => readTabValue('tab-session');
export const writeTabSession = (id: string): void => writeTabValue('tab-session', id);
