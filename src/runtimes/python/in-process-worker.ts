/**
 * The python worker's code run in the same thread, for tests in Node (no Web Workers there): the same
 * message handling and engine as the real worker, Pyodide loaded from node_modules, messages delivered
 * asynchronously as a worker's are. `terminate()` stops delivering. Python runs synchronously, so a
 * program in progress holds this thread until it ends: stopping a runaway (a timeout, Esc) is a page
 * matter, where the pool terminates the real worker (e2e/python.spec.ts).
 *
 * Loading Pyodide takes seconds: tests keep one sandbox (so one warm worker) per file.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { HostToWorker, WorkerToHost } from '../shared/protocol.ts';
import type { WorkerLike } from '../shared/runtime-pool.ts';
import { servePythonWorker } from './worker-main.ts';

/** node_modules/pyodide, where Node's Pyodide finds its wasm and standard library. */
export const PYODIDE_NODE_DIR = `${dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))}/`;

export function createInProcessPythonWorker(): WorkerLike {
  const toHost: ((event: { data: WorkerToHost }) => void)[] = [];
  let toWorker: ((message: HostToWorker) => void) | undefined;
  const backlog: HostToWorker[] = [];
  let terminated = false;
  void servePythonWorker(
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
    {
      load: async (config) => {
        const { loadPyodide } = await import('pyodide');
        return loadPyodide({ ...config, indexURL: PYODIDE_NODE_DIR });
      },
    },
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
