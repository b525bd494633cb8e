/**
 * The runtime workers of the page: each is its own chunk, fetched on the first command that needs it
 * (nothing is loaded before). Where there is no Worker (Node, in tests), there are none: tests pass
 * in-process ones (node/in-process-worker.ts) instead.
 */
import type { RuntimeWorkers } from './sandbox-commands.ts';
import type { WorkerLike } from './shared/runtime-pool.ts';

export function browserRuntimeWorkers(): RuntimeWorkers {
  if (typeof Worker === 'undefined') return {};
  return {
    node: () =>
      new Worker(new URL('./node/worker.ts', import.meta.url), {
        type: 'module',
        name: 'tabcode-node',
      }) as unknown as WorkerLike,
  };
}
