import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from './just-bash.ts';
import type { Sandbox } from './sandbox.ts';
import { createInProcessSandboxWorker } from './worker/in-process.ts';
import { createWorkerSandbox } from './worker-sandbox.ts';

/** A sandbox whose `stubborn …` commands ignore Esc and their timeout (a command that cannot be stopped). */
async function stubborn(options: Parameters<typeof createJustBashSandbox>[0]): Promise<Sandbox> {
  const real = await createJustBashSandbox(options);
  return new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'exec') {
        return (command: string, opts: Parameters<Sandbox['exec']>[1] = {}) =>
          command.startsWith('stubborn ')
            ? target.exec(command.slice(9), { ...opts, signal: undefined, timeoutMs: undefined })
            : target.exec(command, opts);
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('the sandbox in a worker', () => {
  it('a command that does not stop: the worker is replaced, files and the shell are kept, output so far returned', async () => {
    const sb = await createWorkerSandbox({
      files: { 'a.txt': 'kept\n' },
      createWorker: () => createInProcessSandboxWorker(stubborn),
    });
    await sb.exec('mkdir -p work && cd work && export COLOR=blue && echo made > made.txt');
    await sb.writeFile('/home/user/project/b.bin', new Uint8Array([0, 1, 2, 255]));
    const controller = new AbortController();
    const started = Date.now();
    const running = sb.exec('stubborn echo before; sleep 5; echo after', { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    const r = await running;
    expect(Date.now() - started).toBeLessThan(4000);
    expect(r.exitCode).toBe(130);
    expect(r.aborted).toBe(true);
    expect(r.stdout).toBe('before\n');
    expect(r.stderr).toContain('the sandbox was restarted');
    // The new worker has the files and the session's cwd and variables.
    expect(await sb.readFile('/home/user/project/a.txt')).toBe('kept\n');
    expect(await sb.readFile('/home/user/project/work/made.txt')).toBe('made\n');
    expect([...(await sb.readFileBytes('/home/user/project/b.bin'))]).toEqual([0, 1, 2, 255]);
    expect((await sb.exec('pwd; echo $COLOR')).stdout).toBe('/home/user/project/work\nblue\n');
    expect(sb.cwd()).toBe('/home/user/project/work');
    await sb.dispose();
  });

  it('a timed-out command that does not stop ends with exit 124 and the sandbox goes on', async () => {
    const sb = await createWorkerSandbox({ createWorker: () => createInProcessSandboxWorker(stubborn) });
    const r = await sb.exec('stubborn echo tick; sleep 5', { timeoutMs: 300 });
    expect(r.exitCode).toBe(124);
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe('tick\n');
    expect((await sb.exec('echo alive')).stdout).toBe('alive\n');
    await sb.dispose();
  });

  it('background output is readable on the page while the command runs', async () => {
    const sb = await createWorkerSandbox({ createWorker: () => createInProcessSandboxWorker() });
    const proc = await sb.startBackground('for i in 1 2 3 4 5; do echo tick $i; sleep 0.1; done');
    await new Promise((r) => setTimeout(r, 450));
    const out = sb.readBackground(proc.id);
    expect(out.output).toMatch(/^tick 1\ntick 2\n/);
    await new Promise((r) => setTimeout(r, 600));
    const done = sb.readBackground(proc.id);
    expect(done.status).toBe('exited');
    expect(done.output).toBe('tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n');
    await sb.dispose();
  });
});
