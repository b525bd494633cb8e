/**
 * The session this tab has open, kept in the tab's sessionStorage so a reload reopens it. The settings
 * store's current session is the page's (the last one any tab opened for writing): after another tab
 * opened a session of its own, a reload here would otherwise open that one, read-only, in place of what
 * this tab showed. Never throws (storage refused or full: the page's current session is used).
 */
import { inEmbedStorage, storageName } from '../core/storage-namespace.ts';

const key = () => storageName('tab-session', '.');

export function readTabSession(): string | undefined {
  if (inEmbedStorage()) return undefined;
  try {
    return globalThis.sessionStorage?.getItem(key()) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeTabSession(id: string): void {
  // An embed's sessions are not kept, and it writes nothing into the host page's storage.
  if (inEmbedStorage()) return;
  try {
    globalThis.sessionStorage?.setItem(key(), id);
  } catch {
    // Refused or full: a reload opens the page's current session.
  }
}
