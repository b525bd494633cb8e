/**
 * A real worker thread for the sandbox proxy in Node tests (src/sandbox/testing/node-thread-worker.ts):
 * unlike the in-process worker, a command that blocks its thread leaves the test's thread free, and
 * terminate() ends the thread.
 */
import { nodeThread } from '../../testing/node-thread.ts';
import type { PageToWorker, WorkerToPage } from '../worker/protocol.ts';
import type { SandboxWorkerLike } from '../worker-sandbox.ts';

export function nodeThreadSandboxWorker(): SandboxWorkerLike {
  return nodeThread<PageToWorker, WorkerToPage>({
    entry: new URL('./node-thread-worker.ts', import.meta.url),
  });
}
