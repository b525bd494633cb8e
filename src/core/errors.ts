/** The message of anything thrown: an Error's message, else its string form. Never throws. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  try {
    return String(err);
  } catch {
    return 'unknown error';
  }
}
