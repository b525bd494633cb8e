/**
 * A task worker for ../core/worker-tasks.test.ts in a Node worker thread: loads after `?load=MS`
 * (the thread's first message is its load time), then echoes, spins its thread, or throws.
 */
import { parentPort } from 'node:worker_threads';
import { serveWorkerTasks, type TaskReply, type TaskRequest } from '../core/worker-tasks.ts';

export type ThreadJob = { echo: string } | { spinMs: number } | { spinForever: true } | { fail: string };

const port = parentPort;
if (port) {
  const loadMs = Number(process.env.TASKS_LOAD_MS ?? 0);
  serveWorkerTasks<ThreadJob, string>(
    {
      postMessage: (reply: TaskReply<string>) => port.postMessage(reply),
      addEventListener: (_type, listener) =>
        port.on('message', (data: TaskRequest<ThreadJob>) => listener({ data })),
    },
    (job) => {
      if ('echo' in job) return job.echo;
      if ('fail' in job) throw new Error(job.fail);
      const until = 'spinMs' in job ? Date.now() + job.spinMs : Number.POSITIVE_INFINITY;
      while (Date.now() < until) {
        // blocks this thread, as a backtracking regex would
      }
      return 'spun';
    },
    new Promise((resolve) => setTimeout(resolve, loadMs)),
  );
}
