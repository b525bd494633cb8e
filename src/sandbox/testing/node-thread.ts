/**
 * A real worker thread for the sandbox proxy in Node tests (src/sandbox/testing/node-thread-worker.ts):
 * unlike the in-process worker, a command that blocks its thread leaves the test's thread free, and
 * terminate() ends the thread. The thread loads TypeScript through tsx.
 */
import { Worker } from 'node:worker_threads';
import type { PageToWorker, WorkerToPage } from '../worker/protocol.ts';
import type { SandboxWorkerLike } from '../worker-sandbox.ts';

export function nodeThreadSandboxWorker(): SandboxWorkerLike {
  // tsx's loader is registered inside the thread (a loader given in execArgv does not reach workers on
  // Node 20), then the entry is imported through it.
  const entry = new URL('./node-thread-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  const worker = new Worker(boot, { eval: true });
  return {
    postMessage: (message: PageToWorker) => worker.postMessage(message),
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      if (type === 'message')
        worker.on('message', (data: WorkerToPage) =>
          (listener as (e: { data: WorkerToPage }) => void)({ data }),
        );
      else
        worker.on('error', (err: Error) =>
          (listener as (e: { message?: string }) => void)({ message: err.message }),
        );
    },
    terminate: () => void worker.terminate(),
  };
}
