/**
 * One tab per session: a Web Lock named after the session is held while a tab has it open, so a second
 * tab opening the same session knows, shows it read-only, and never overwrites what the first one saves.
 * Where the Web Locks API is missing (old browsers, Node) every tab holds the lock.
 */
import { storageName } from '../core/storage-namespace.ts';

/** The name of a session's lock (per origin, shared by every tab of it). */
export const sessionLockName = (id: string) => storageName(`session:${id}`);

export interface SessionLock {
  /** False: another tab holds the session. */
  held: boolean;
  /** Resolves when the other tab lets go (only when not held). */
  available: Promise<void>;
  /** Lets go of the lock (idempotent). */
  release(): void;
}

/** Takes the session's lock if no other tab has it. Never rejects. */
export async function acquireSessionLock(id: string): Promise<SessionLock> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  const never = new Promise<void>(() => {});
  if (!locks) return { held: true, available: never, release() {} };
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = await new Promise<boolean>((resolve) => {
    locks
      .request(sessionLockName(id), { ifAvailable: true }, async (lock) => {
        resolve(lock !== null);
        if (lock) await released;
      })
      .catch(() => resolve(true));
  });
  if (held) return { held, available: never, release };
  // Waits in line for the lock and gives it back at once: the page then opens the session again.
  const available = locks
    .request(sessionLockName(id), { signal: abortOn(released) }, () => undefined)
    .then(
      () => undefined,
      () => never,
    );
  return { held, available, release };
}

function abortOn(done: Promise<void>): AbortSignal {
  const controller = new AbortController();
  void done.then(() => controller.abort());
  return controller.signal;
}
