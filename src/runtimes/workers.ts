/**
 * The runtime workers of the page: each is its own chunk, fetched on the first command that needs it
 * (nothing is loaded before). Where there is no Worker (Node, in tests), there are none: tests pass
 * in-process ones (node/in-process-worker.ts) instead.
 */
import { deferredWorker } from './python/deferred-worker.ts';
import type { RuntimeWorkers } from './sandbox-commands.ts';
import type { WorkerLike } from './shared/runtime-pool.ts';

export function browserRuntimeWorkers(): RuntimeWorkers {
  if (typeof Worker === 'undefined') return {};
  const workers: RuntimeWorkers = {
    node: () =>
      new Worker(new URL('./node/worker.ts', import.meta.url), {
        type: 'module',
        name: 'tabcode-node',
      }) as unknown as WorkerLike,
  };
  // Gate PYTHON: python3 (Pyodide) in its own worker, created from a module loaded only here (see
  // python/deferred-worker.ts for why it is not a `new Worker` in this file).
  if (__FEATURE_PYTHON__) {
    workers.python = () =>
      deferredWorker(() => import('./python/browser-worker.ts').then((m) => m.createPythonWorker()));
  }
  return workers;
}
