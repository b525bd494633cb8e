/**
 * The python Web Worker: started on the first `python3` command, never before. It loads Pyodide from
 * our own origin — the files the build copies next to this script (see assets-plugin.ts), never a
 * CDN — then locks itself down (no network, no storage) before any program runs.
 */
import type { PyodideAPI } from 'pyodide';
import { lockDown } from '../shared/lockdown.ts';
import type { HostToWorker, WorkerToHost } from '../shared/protocol.ts';
import { PYODIDE_DIR } from './version.ts';
import { servePythonWorker } from './worker-main.ts';

const scope = self as unknown as {
  postMessage(message: WorkerToHost, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HostToWorker>) => void): void;
};

// Next to this script: in a build the worker chunk and the folder are both in the assets folder; in
// `vite dev` the assets plugin serves the folder next to the worker's source.
const indexURL = new URL(`${PYODIDE_DIR}/`, import.meta.url).href;

void servePythonWorker(
  {
    post: (message, transfer) => scope.postMessage(message, transfer ?? []),
    onMessage: (listener) => scope.addEventListener('message', (event) => listener(event.data)),
  },
  {
    load: async (config) => {
      const { loadPyodide } = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as {
        loadPyodide(options: Record<string, unknown>): Promise<PyodideAPI>;
      };
      return loadPyodide({ ...config, indexURL });
    },
    afterLoad: () => lockDown(),
  },
);
