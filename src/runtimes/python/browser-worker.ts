/**
 * Starts the python Web Worker. Imported only from the PYTHON-gated branch of ../workers.ts, on the
 * first python3 command.
 *
 * The worker runs under a Content-Security-Policy that lets it load only our own scripts and Pyodide's
 * files: its scripts may come from the folder of the worker's chunk (in a build: the assets folder,
 * where Pyodide's folder is too; in `vite dev`: this origin), and it may fetch nothing else. Lockdown
 * already removes fetch, sockets and storage once Pyodide is in; the policy also covers what lockdown
 * cannot remove — a dynamic `import()` of another origin's URL, which a program that got past the
 * Python-side blocks to JavaScript could use to send data out. A page cannot give its own worker a
 * policy (that is the server's response header), but a worker started from a blob URL takes the
 * policy of the document that starts it: so a hidden same-origin iframe carries the policy in a
 * <meta> tag and starts the worker; it is removed with the worker. (Messages from a worker the frame
 * started are the frame's objects: they are cloned into this page's realm as they arrive.)
 */
import type { WorkerToHost } from '../shared/protocol.ts';
import type { WorkerLike } from '../shared/runtime-pool.ts';
import workerUrl from './worker.ts?worker&url';

/** How long the policy's iframe may take to load before the worker start fails (ms). */
const FRAME_LOAD_TIMEOUT_MS = 10_000;

/** The python worker's policy: scripts and fetches only from `base` (a folder URL or an origin). */
export function pythonWorkerPolicy(base: string): string {
  return [
    "default-src 'none'",
    // Pyodide compiles its wasm and evaluates its own generated glue code.
    `script-src ${base} blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
    // The worker's own chunk is a static import of its blob script: fetched as a worker script.
    `worker-src ${base} blob:`,
    `connect-src ${base}`,
  ].join('; ');
}

/**
 * A message from the worker as this page's own objects. The worker belongs to the frame's realm, so its
 * messages arrive as the frame's objects (a Uint8Array that is not this realm's Uint8Array); a
 * structured clone made here, moving the file buffers, makes them ours.
 */
function inThisRealm(data: WorkerToHost): WorkerToHost {
  const transfer: ArrayBuffer[] = [];
  if (data.type === 'fs') {
    for (const c of data.changes)
      if (c.op === 'file' && c.data.byteLength > 0) transfer.push(c.data.buffer as ArrayBuffer);
  }
  return structuredClone(data, { transfer });
}

export async function createPythonWorker(): Promise<WorkerLike> {
  const url = new URL(workerUrl, location.href).href;
  const base = import.meta.env.DEV ? location.origin : new URL('.', url).href;
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.title = 'tabcode python worker';
  const policy = pythonWorkerPolicy(base).replaceAll('"', '&quot;');
  frame.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const loaded = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('its frame did not load')), FRAME_LOAD_TIMEOUT_MS);
    frame.addEventListener(
      'load',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
  document.body.append(frame);
  try {
    await loaded;
  } catch (err) {
    frame.remove();
    throw err;
  }
  const win = frame.contentWindow as (Window & typeof globalThis) | null;
  if (!win) {
    frame.remove();
    throw new Error('its frame has no window');
  }
  const blobUrl = win.URL.createObjectURL(
    new win.Blob([`import ${JSON.stringify(url)};\n`], { type: 'text/javascript' }),
  );
  const worker = new win.Worker(blobUrl, { type: 'module', name: 'tabcode-python' });
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer ?? []),
    addEventListener: ((type: 'message' | 'error', listener: (event: never) => void) => {
      if (type === 'error') worker.addEventListener('error', listener as EventListener);
      else
        worker.addEventListener('message', (event) =>
          (listener as (event: { data: WorkerToHost }) => void)({ data: inThisRealm(event.data) }),
        );
    }) as WorkerLike['addEventListener'],
    terminate() {
      worker.terminate();
      win.URL.revokeObjectURL(blobUrl);
      frame.remove();
    },
  };
}
