/**
 * The sandbox worker's code run in the same thread, for tests in Node (no Web Workers there): the same
 * host and the same page-side proxy, with messages cloned and delivered asynchronously as a worker's
 * are. `terminate()` stops delivery (a real worker's would end its thread too).
 */
import type { JustBashSandboxOptions } from '../just-bash.ts';
import { createJustBashSandbox } from '../just-bash.ts';
import type { SandboxWorkerLike } from '../worker-sandbox.ts';
import { serveSandbox } from './host.ts';
import type { PageToWorker, WorkerToPage } from './protocol.ts';

export function createInProcessSandboxWorker(
  create: (
    options: JustBashSandboxOptions,
  ) => ReturnType<typeof createJustBashSandbox> = createJustBashSandbox,
): SandboxWorkerLike {
  const toPage: ((event: { data: WorkerToPage }) => void)[] = [];
  let toWorker: ((message: PageToWorker) => void) | undefined;
  let terminated = false;
  serveSandbox(
    {
      post: (message) => {
        const data = structuredClone(message);
        setTimeout(() => {
          if (!terminated) for (const l of toPage) l({ data });
        }, 0);
      },
      onMessage: (listener) => {
        toWorker = listener;
      },
    },
    create,
  );
  return {
    postMessage(message) {
      const data = structuredClone(message);
      setTimeout(() => {
        if (!terminated) toWorker?.(data);
      }, 0);
    },
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      if (type === 'message') toPage.push(listener as (event: { data: WorkerToPage }) => void);
    },
    terminate() {
      terminated = true;
    },
  };
}
