/**
 * The page's side of a python3 worker for the sandbox worker: the page starts it (its security policy
 * comes from a frame of the page, see runtimes/python/browser-worker.ts) and relays its messages over a
 * MessageChannel whose other port goes to the sandbox worker. Loaded only from the PYTHON-gated branch.
 */
import { createPythonWorker } from '../../runtimes/python/browser-worker.ts';
import type { PortControl } from './protocol.ts';

export async function connectPythonWorker(): Promise<MessagePort> {
  const worker = await createPythonWorker();
  const channel = new MessageChannel();
  const here = channel.port1;
  worker.addEventListener('message', (event) => {
    const data = event.data;
    const transfer: Transferable[] = [];
    if (data.type === 'fs')
      for (const c of data.changes)
        if (c.op === 'file' && c.data.byteLength > 0) transfer.push(c.data.buffer);
    here.postMessage(data, transfer);
  });
  worker.addEventListener('error', (event) => {
    here.postMessage({
      type: '__tabcode_error',
      message: event.message ?? 'the python worker failed',
    } satisfies PortControl);
  });
  here.addEventListener('message', (event) => {
    const data = event.data as { type?: string };
    if (data?.type === '__tabcode_terminate') {
      worker.terminate();
      here.close();
      return;
    }
    worker.postMessage(event.data);
  });
  here.start();
  return channel.port2;
}
