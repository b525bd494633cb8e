/**
 * The sandbox Web Worker: the just-bash sandbox off the page's thread (see worker-sandbox.ts). It keeps
 * the network and storage its own code needs (npm's registry and tarball cache); the programs users run
 * get neither: they run in the node and python3 workers it starts, which lock themselves down.
 */
import { deferredWorker } from '../../runtimes/python/deferred-worker.ts';
import type { RuntimeWorkers } from '../../runtimes/sandbox-commands.ts';
import { browserRuntimeWorkers } from '../../runtimes/workers.ts';
import { createJustBashSandbox } from '../just-bash.ts';
import { serveSandbox } from './host.ts';
import type { PageToWorker, WorkerToPage } from './protocol.ts';

const scope = self as unknown as {
  postMessage(message: WorkerToPage, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<PageToWorker>) => void): void;
};

serveSandbox(
  {
    post: (message, transfer) => scope.postMessage(message, transfer ?? []),
    onMessage: (listener) => scope.addEventListener('message', (event) => listener(event.data)),
  },
  (options, tools) => {
    // node's worker starts from here (a worker in a worker); python3's needs the page (its frame).
    const workers: RuntimeWorkers = { node: browserRuntimeWorkers().node };
    if (__FEATURE_PYTHON__) workers.python = () => deferredWorker(() => tools.spawnViaPage('python'));
    return createJustBashSandbox({ ...options, workers });
  },
);
