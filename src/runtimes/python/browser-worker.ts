/**
 * Starts the python Web Worker (its own chunk, with Pyodide's files next to it). Imported only from
 * the PYTHON-gated branch of ../workers.ts, on the first python3 command.
 */
import type { WorkerLike } from '../shared/runtime-pool.ts';

export function createPythonWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
    name: 'tabcode-python',
  }) as unknown as WorkerLike;
}
