/**
 * Yielding to the browser between chunks of work that arrive as a stream of small steps. A reply that
 * is already buffered (a fast connection, a long tool input) is otherwise parsed, reduced and shown in
 * one unbroken chain of promise callbacks: one task of hundreds of milliseconds in which the page
 * cannot paint or answer a key (issue 17: no task over 50 ms).
 */

/** Work allowed between two yields (ms): well under the 50 ms of a long task, with room for a frame. */
export const YIELD_BUDGET_MS = 20;

interface SchedulerWithYield {
  yield(): Promise<void>;
}

/** Resolves in a new task: `scheduler.yield()` where there is one (it keeps the work's priority), else a timer. */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<SchedulerWithYield> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A check to call between steps: it returns a promise to await once `budgetMs` of work ran since the
 * last yield, else undefined (no await, so short bursts keep their speed). Never throws.
 */
export function createYielder(
  budgetMs = YIELD_BUDGET_MS,
  now: () => number = () => performance.now(),
): () => Promise<void> | undefined {
  let since = now();
  return () => {
    if (now() - since < budgetMs) return undefined;
    return yieldToBrowser().then(() => {
      since = now();
    });
  };
}
