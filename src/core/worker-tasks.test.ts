/**
 * Budgeted work in a worker (worker-tasks.ts), in real Node worker threads: answers, a runaway ended at
 * its budget without costing the requests beside it their answers, Esc (an abort), a handler that
 * throws, and the ways a worker cannot be had.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { nodeThread } from '../testing/node-thread.ts';
import type { ThreadJob } from '../testing/worker-tasks-thread.ts';
import {
  createWorkerTasks,
  type TaskReply,
  type TaskRequest,
  type TaskWorkerLike,
  type WorkerTasks,
} from './worker-tasks.ts';

const ENTRY = new URL('../testing/worker-tasks-thread.ts', import.meta.url);

/** A task thread that says it is loaded after `loadMs`. */
function thread(loadMs = 0): TaskWorkerLike<ThreadJob, string> {
  process.env.TASKS_LOAD_MS = String(loadMs);
  try {
    return nodeThread<TaskRequest<ThreadJob>, TaskReply<string>>({ entry: ENTRY });
  } finally {
    delete process.env.TASKS_LOAD_MS;
  }
}

let tasks: WorkerTasks<ThreadJob, string> | undefined;
afterEach(() => {
  tasks?.close();
  tasks = undefined;
});

describe('work in a worker with a time budget', () => {
  it('answers requests sent at once; a slow load does not count against their budget', async () => {
    let spawned = 0;
    tasks = createWorkerTasks({
      spawn: () => {
        spawned++;
        return thread(1_500);
      },
      budgetMs: 1_000,
    });
    const t = tasks;
    const answers = await Promise.all(['a', 'b', 'c'].map((echo) => t.run({ echo })));
    expect(answers).toEqual(['a', 'b', 'c'].map((value) => ({ ok: true, value })));
    expect(spawned).toBe(1);
  }, 60_000);

  it('a runaway is ended at its budget; the requests waiting beside it are answered by a new worker', async () => {
    let spawned = 0;
    tasks = createWorkerTasks({
      spawn: () => {
        spawned++;
        return thread();
      },
      budgetMs: 2_000,
      name: 'The test worker',
    });
    const t = tasks;
    // Ready first, so both requests below are in the same worker's queue behind the runaway.
    expect(await t.run({ echo: 'warm' })).toEqual({ ok: true, value: 'warm' });
    const [runaway, beside] = await Promise.all([
      t.run({ spinForever: true }, { budgetMs: 300 }),
      t.run({ echo: 'beside' }),
    ]);
    expect(runaway).toEqual({
      ok: false,
      reason: 'timeout',
      message: 'The test worker took longer than 0.3 s',
    });
    expect(beside).toEqual({ ok: true, value: 'beside' });
    expect(spawned).toBe(2);
    expect(await t.run({ echo: 'after' })).toEqual({ ok: true, value: 'after' });
  }, 60_000);

  it('an abort rejects with its reason at once and ends the worker; the next request works', async () => {
    tasks = createWorkerTasks({ spawn: () => thread(), budgetMs: 60_000 });
    const t = tasks;
    await t.run({ echo: 'warm' });
    const controller = new AbortController();
    const running = t.run({ spinForever: true }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopped by the user')), 100);
    // The request spins for ever: only the abort can end it.
    await expect(running).rejects.toThrow('stopped by the user');
    await expect(t.run({ echo: 'x' }, { signal: controller.signal })).rejects.toThrow('stopped by the user');
    expect(await t.run({ echo: 'next' })).toEqual({ ok: true, value: 'next' });
  }, 60_000);

  it('a handler that throws answers its message; the worker keeps serving', async () => {
    let spawned = 0;
    tasks = createWorkerTasks({
      spawn: () => {
        spawned++;
        return thread();
      },
      budgetMs: 5_000,
    });
    expect(await tasks.run({ fail: 'Invalid regular expression: /(/: Unterminated group' })).toEqual({
      ok: false,
      reason: 'error',
      message: 'Invalid regular expression: /(/: Unterminated group',
    });
    expect(await tasks.run({ spinMs: 50 })).toEqual({ ok: true, value: 'spun' });
    expect(spawned).toBe(1);
  }, 60_000);

  it('a worker that cannot start, fails before it loads, or never loads: unavailable for good', async () => {
    let tries = 0;
    const cannot = createWorkerTasks<ThreadJob, string>({
      spawn: () => {
        tries++;
        throw new Error('blocked by the page');
      },
      budgetMs: 1_000,
      name: 'The test worker',
    });
    const refused = {
      ok: false,
      reason: 'unavailable',
      message: 'The test worker could not start: blocked by the page',
    };
    expect(await cannot.run({ echo: 'a' })).toEqual(refused);
    expect(await cannot.run({ echo: 'b' })).toEqual(refused);
    expect(cannot.available).toBe(false);
    expect(tries).toBe(1);

    const failing = createWorkerTasks<ThreadJob, string>({
      spawn: () => nodeThread({ code: `throw new Error('the worker script did not load')` }),
      budgetMs: 1_000,
    });
    expect(await failing.run({ echo: 'a' })).toMatchObject({
      ok: false,
      reason: 'unavailable',
      message: expect.stringContaining('the worker script did not load'),
    });
    expect(failing.available).toBe(false);

    const silent = createWorkerTasks<ThreadJob, string>({
      spawn: () => nodeThread({ code: `require('node:worker_threads').parentPort.on('message', () => {})` }),
      budgetMs: 1_000,
      loadTimeoutMs: 300,
      name: 'The test worker',
    });
    expect(await silent.run({ echo: 'a' })).toEqual({
      ok: false,
      reason: 'unavailable',
      message: 'The test worker did not load within 0.3 s',
    });
    silent.close();
  }, 60_000);

  it('close: what waits is answered, nothing is left pending', async () => {
    tasks = createWorkerTasks({ spawn: () => thread(), budgetMs: 60_000, name: 'The test worker' });
    const t = tasks;
    await t.run({ echo: 'warm' });
    const waiting = t.run({ spinForever: true });
    t.close();
    expect(await waiting).toEqual({
      ok: false,
      reason: 'unavailable',
      message: 'The test worker was closed',
    });
  }, 60_000);
});
