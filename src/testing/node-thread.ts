/**
 * A Node worker thread with a Web Worker's face (postMessage, message/error listeners, terminate), for
 * tests that need a real second thread: code that blocks its thread blocks only that one, and
 * terminate() ends it. The entry is TypeScript, loaded through tsx inside the thread (a loader given in
 * execArgv does not reach workers on Node 20); or `code`, plain JavaScript evaluated as the thread.
 */
import { Worker } from 'node:worker_threads';

export interface ThreadLike<In, Out> {
  postMessage(message: In): void;
  addEventListener(type: 'message', listener: (event: { data: Out }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

export function nodeThread<In, Out>(source: { entry: URL } | { code: string }): ThreadLike<In, Out> {
  const code =
    'code' in source
      ? source.code
      : `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source.entry.href)}, ${JSON.stringify(source.entry.href)}))`;
  const worker = new Worker(code, { eval: true });
  return {
    postMessage: (message: In) => worker.postMessage(message),
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      if (type === 'message')
        worker.on('message', (data: Out) => (listener as (e: { data: Out }) => void)({ data }));
      else
        worker.on('error', (err: Error) =>
          (listener as (e: { message?: string }) => void)({ message: err.message }),
        );
    },
    terminate: () => void worker.terminate(),
  };
}
