/**
 * Background command ids after a reload: the new page's sandbox counts from 1 again, so an id alone
 * would name another command than the one the transcript started. Two sandboxes (two page loads) give
 * their first commands different ids, and BashOutput on the old id says why it is gone.
 */
import { expect, it } from 'vitest';
import { createJustBashSandbox } from './just-bash.ts';

it("a reloaded page's background ids never name the commands of the page before", async () => {
  const before = await createJustBashSandbox();
  const after = await createJustBashSandbox();
  try {
    const old = await before.startBackground('sleep 5');
    const fresh = await after.startBackground('sleep 5');
    expect(old.id).toMatch(/^bg-1-[0-9a-z]{4}$/);
    expect(fresh.id).toMatch(/^bg-1-[0-9a-z]{4}$/);
    expect(fresh.id).not.toBe(old.id);
    expect(() => after.readBackground(old.id)).toThrow();
  } finally {
    await before.dispose();
    await after.dispose();
  }
});
