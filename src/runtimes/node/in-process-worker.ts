/**
 * The node worker's code run in the same thread, for tests in Node (no Web Workers there): the same
 * message handling and engine as the real worker, with messages delivered asynchronously as a worker's
 * are. `terminate()` stops delivering and interrupts a running program at its next check; a program
 * that never yields cannot be stopped from the same thread — the real worker is terminated instead.
 */
import type { HostToWorker, WorkerToHost } from '../shared/protocol.ts';
import type { WorkerLike } from '../shared/runtime-pool.ts';
import { compiledEngine } from './testing/run-node.ts';
import { serveNodeWorker } from './worker-main.ts';

export function createInProcessNodeWorker(): WorkerLike {
  const toHost: ((event: { data: WorkerToHost }) => void)[] = [];
  let toWorker: ((message: HostToWorker) => void) | undefined;
  const backlog: HostToWorker[] = [];
  let terminated = false;
  void compiledEngine().then((wasmModule) =>
    serveNodeWorker(
      {
        post: (message) => {
          const data = structuredClone(message);
          setTimeout(() => {
            if (!terminated) for (const l of toHost) l({ data });
          }, 0);
        },
        onMessage: (listener) => {
          toWorker = listener;
          for (const m of backlog.splice(0)) listener(m);
        },
      },
      { wasmModule },
    ),
  );
  return {
    postMessage(message) {
      const data = structuredClone(message);
      setTimeout(() => {
        if (terminated) return;
        if (toWorker) toWorker(data);
        else backlog.push(data);
      }, 0);
    },
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      if (type === 'message') toHost.push(listener as (event: { data: WorkerToHost }) => void);
    },
    terminate() {
      terminated = true;
    },
  };
}
