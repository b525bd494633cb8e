/**
 * The node Web Worker: loaded on the first `node` command, never before. It fetches the QuickJS wasm
 * from our own origin, then locks itself down (no network, no storage) before any program runs.
 */
import wasmLocation from 'quickjs-wasi/quickjs.wasm?url';
import { lockDown } from '../shared/lockdown.ts';
import type { HostToWorker, WorkerToHost } from '../shared/protocol.ts';
import { serveNodeWorker } from './worker-main.ts';

const scope = self as unknown as {
  postMessage(message: WorkerToHost, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HostToWorker>) => void): void;
};

void (async () => {
  // Compiled once, before the lockdown takes fetch away; each run instantiates it afresh.
  const wasmModule = await WebAssembly.compileStreaming(fetch(wasmLocation)).catch(async () =>
    WebAssembly.compile(await (await fetch(wasmLocation)).arrayBuffer()),
  );
  await serveNodeWorker(
    {
      post: (message, transfer) => scope.postMessage(message, transfer ?? []),
      onMessage: (listener) => scope.addEventListener('message', (event) => listener(event.data)),
    },
    { wasmModule, afterLoad: () => lockDown() },
  );
})();
