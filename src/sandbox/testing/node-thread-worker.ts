/**
 * The sandbox worker's code in a Node worker thread, for tests that need a real second thread: a command
 * that blocks its thread (a loop that never yields) blocks only this one, as in the page's Web Worker.
 * Started by nodeThreadSandboxWorker() with tsx's loader; the features are those of a test build.
 */
import { parentPort } from 'node:worker_threads';
import type { PageToWorker, WorkerToPage } from '../worker/protocol.ts';

const globals = globalThis as Record<string, unknown>;
globals.__FEATURE_PYTHON__ = false;
globals.__FEATURE_LSP__ = false;
globals.__FEATURE_POWERSHELL__ = false;

const { serveSandbox } = await import('../worker/host.ts');
const port = parentPort;
if (port) {
  serveSandbox({
    post: (message: WorkerToPage) => port.postMessage(message),
    onMessage: (listener: (message: PageToWorker) => void) => port.on('message', listener),
  });
}
