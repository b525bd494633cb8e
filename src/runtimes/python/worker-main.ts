/**
 * The python worker's message handling, separate from the Worker entry so tests can run the same code
 * in-process: load Pyodide, say `ready`, then apply syncs and run programs one at a time, each ending
 * with its file changes and `exit` — or `fatal` when the interpreter cannot be used again (the pool
 * then replaces the worker).
 */
import { messageOf } from '../../core/errors.ts';
import type { HostToWorker, WorkerToHost } from '../shared/protocol.ts';
import { type PyodideLoader, PythonEngine } from './engine.ts';
import { PYODIDE_VERSION } from './version.ts';

export interface WorkerPort {
  post(message: WorkerToHost, transfer?: Transferable[]): void;
  onMessage(listener: (message: HostToWorker) => void): void;
}

export interface PythonWorkerOptions {
  load: PyodideLoader;
  /** Runs once Pyodide's files are in, before any program (the worker locks itself down there). */
  afterLoad?: () => void;
}

/** Serves one host. Never throws: a failed load is reported as `fatal`. */
export async function servePythonWorker(port: WorkerPort, options: PythonWorkerOptions): Promise<void> {
  const queue: HostToWorker[] = [];
  let engine: PythonEngine | undefined;
  let running = false;
  port.onMessage((message) => {
    // Python programs cannot start shell commands (no child processes), so no exec results arrive.
    if (message.type === 'exec-result') return;
    queue.push(message);
    void pump();
  });
  const started = performance.now();
  try {
    engine = await PythonEngine.load(options.load);
  } catch (err) {
    port.post({
      type: 'fatal',
      message: `The Python engine could not load: ${messageOf(err)}`,
    });
    return;
  }
  options.afterLoad?.();
  port.post({
    type: 'ready',
    engine: `pyodide-${PYODIDE_VERSION}`,
    loadMs: Math.round(performance.now() - started),
  });
  void pump();

  async function pump(): Promise<void> {
    if (!engine || running) return;
    running = true;
    try {
      for (let message = queue.shift(); message; message = queue.shift()) {
        if (message.type === 'sync') {
          try {
            engine.files.apply(message.changes, message.full);
          } catch (err) {
            port.post({
              type: 'fatal',
              message: `the files could not be copied into Python: ${messageOf(err)}`,
            });
            return;
          }
        } else if (message.type === 'run') {
          const result = engine.run(message.run, {
            output: (stream, text) => port.post({ type: 'output', stream, text }),
            fsChanges: (changes) => port.post({ type: 'fs', changes }, transferables(changes)),
          });
          if (result.fatal) {
            port.post({ type: 'fatal', message: result.fatal });
            return;
          }
          port.post({ type: 'exit', code: result.code });
        }
      }
    } finally {
      running = false;
    }
  }
}

function transferables(changes: { op: string; data?: Uint8Array }[]): Transferable[] {
  const out: Transferable[] = [];
  for (const c of changes)
    if (c.op === 'file' && c.data && c.data.byteLength > 0) out.push(c.data.buffer as ArrayBuffer);
  return out;
}
