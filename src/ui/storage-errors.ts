/** Plain words for a failed session save (IndexedDB), naming a full disk plainly. */

/** True for the browser's "storage is full" failures (QuotaExceededError, or a message saying so). */
export function isQuotaError(err: unknown): boolean {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : '';
  const message = err instanceof Error ? err.message : String(err);
  return name === 'QuotaExceededError' || /quota/i.test(message);
}

/** What to tell the user when a session could not be written. Never throws. */
export function storageProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (isQuotaError(err)) {
    return `The browser's storage is full, so this session is not saved (${message}). Nothing is lost yet: it stays in this tab and saving is retried. Free some space, or export the session to keep a copy.`;
  }
  return `This session could not be saved to browser storage (${message}). It stays in this tab and saving is retried; export it to keep a copy.`;
}
