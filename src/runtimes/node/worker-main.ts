/**
 * The node worker's message handling, separate from the Worker entry so tests can run the same code
 * in-process: load the engine, say `ready`, then apply syncs and run programs one at a time.
 */

import { messageOf } from '../../core/errors.ts';
import type { HostToWorker, WorkerToHost } from '../shared/protocol.ts';
import { type EngineLoadOptions, NodeEngine } from './engine.ts';

export interface WorkerPort {
  post(message: WorkerToHost, transfer?: Transferable[]): void;
  onMessage(listener: (message: HostToWorker) => void): void;
}

/** Serves one host. `afterLoad` runs once the engine's files are in (the worker locks itself down there). */
export async function serveNodeWorker(
  port: WorkerPort,
  options: EngineLoadOptions & { afterLoad?: () => void },
): Promise<void> {
  const queue: HostToWorker[] = [];
  let engine: NodeEngine | undefined;
  let running = false;
  port.onMessage((message) => {
    if (message.type === 'exec-result') {
      engine?.execDone(message.id, message);
      return;
    }
    queue.push(message);
    void pump();
  });
  const started = performance.now();
  try {
    engine = await NodeEngine.load(options);
  } catch (err) {
    port.post({
      type: 'fatal',
      message: `The Node.js engine could not load: ${messageOf(err)}`,
    });
    return;
  }
  options.afterLoad?.();
  port.post({ type: 'ready', engine: 'quickjs-ng', loadMs: Math.round(performance.now() - started) });
  void pump();

  async function pump(): Promise<void> {
    if (!engine || running) return;
    running = true;
    try {
      for (let message = queue.shift(); message; message = queue.shift()) {
        if (message.type === 'sync') {
          if (message.full) engine.fs.reset();
          engine.fs.apply(message.changes);
        } else if (message.type === 'run') {
          const code = await engine.run(message.run, {
            output: (stream, text) => port.post({ type: 'output', stream, text }),
            fsChanges: (changes) => port.post({ type: 'fs', changes }),
            exec: (request) => port.post({ type: 'exec', ...request }),
          });
          port.post({ type: 'exit', code });
        }
      }
    } finally {
      running = false;
    }
  }
}
