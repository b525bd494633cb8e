/**
 * A WorkerLike whose real worker comes from a promise: messages and listeners wait for it, and a
 * terminate before it arrives terminates it on arrival. The python worker is created this way so its
 * `new Worker(new URL(...))` lives in a module imported only from the gated branch: Vite bundles a
 * worker wherever it sees that expression, dead code or not, so a build with the PYTHON gate off would
 * otherwise still contain the worker. A failed load (the chunk cannot be fetched) is an `error` event.
 */

import { messageOf } from '../../core/errors.ts';
import type { WorkerLike } from '../shared/runtime-pool.ts';

type Listener = { type: 'message' | 'error'; listener: (event: never) => void };

/** Adds a listener of either kind (WorkerLike types them as two overloads). */
function listen(worker: WorkerLike, { type, listener }: Listener): void {
  (worker.addEventListener as (type: string, listener: (event: never) => void) => void)(type, listener);
}

export function deferredWorker(load: () => Promise<WorkerLike>): WorkerLike {
  let worker: WorkerLike | undefined;
  let terminated = false;
  const listeners: Listener[] = [];
  const pending: Parameters<WorkerLike['postMessage']>[] = [];
  load().then(
    (w) => {
      if (terminated) {
        w.terminate();
        return;
      }
      worker = w;
      for (const l of listeners) listen(w, l);
      for (const args of pending.splice(0)) w.postMessage(...args);
    },
    (err: unknown) => {
      if (terminated) return;
      const message = `the worker could not be loaded: ${messageOf(err)}`;
      for (const { type, listener } of listeners) if (type === 'error') listener({ message } as never);
    },
  );
  return {
    postMessage(message, transfer) {
      if (terminated) return;
      if (worker) worker.postMessage(message, transfer);
      else pending.push([message, transfer]);
    },
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      listeners.push({ type, listener });
      if (worker) listen(worker, { type, listener });
    },
    terminate() {
      terminated = true;
      pending.length = 0;
      worker?.terminate();
    },
  };
}
