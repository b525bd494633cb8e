import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJustBashSandbox } from './just-bash.ts';
import type { Sandbox } from './sandbox.ts';
import { nodeThreadSandboxWorker } from './testing/node-thread.ts';
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

  it('a worker still starting (after a restart) takes calls and commands: they wait for it', async () => {
    // A worker's first modules take a while to load in a page; here the sandbox is made 200 ms late.
    const slow = async (options: Parameters<typeof createJustBashSandbox>[0]) => {
      await new Promise((r) => setTimeout(r, 200));
      return stubborn(options);
    };
    const sb = await createWorkerSandbox({
      files: { 'a.txt': 'kept\n' },
      createWorker: () => createInProcessSandboxWorker(slow),
    });
    const controller = new AbortController();
    const running = sb.exec('stubborn sleep 5', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect((await running).exitCode).toBe(130);
    // Sent at once, while the new worker is still making its sandbox.
    const [read, ran] = await Promise.all([sb.readFile('/home/user/project/a.txt'), sb.exec('echo alive')]);
    expect(read).toBe('kept\n');
    expect(ran.stdout).toBe('alive\n');
    await sb.dispose();
  });
});

describe('the sandbox in a real worker thread', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await createWorkerSandbox({
      files: { 'a.txt': 'one\n', 'old/m.txt': 'move me\n', 'gone.txt': 'remove me\n' },
      createWorker: nodeThreadSandboxWorker,
    });
  }, 60_000);
  afterAll(async () => {
    await sb?.dispose();
  });

  it('a command that blocks the worker is ended on Esc; what it wrote just before is kept', async () => {
    const controller = new AbortController();
    // Writes, appends, a removal and a move, then a sed loop that never yields its thread.
    const command = [
      'echo "written ✓" > w.txt',
      'echo more >> a.txt',
      'rm gone.txt; mv old moved',
      'mkdir -p d && echo deep > d/f.txt',
      'echo armed',
      "echo x | sed ':a;s/x/x/;ta'",
    ].join('; ');
    const r = await sb.exec(command, {
      signal: controller.signal,
      onOutput: (text) => {
        if (text.includes('armed')) controller.abort();
      },
    });
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe('armed\n');
    // Told apart from a command that ignores the stop: the worker did not answer at all.
    expect(r.stderr).toContain('kept the sandbox busy');
    // While the new worker starts, reads of the workspace are answered from the page's copy at once;
    // a command waits for the worker.
    const order: string[] = [];
    const command2 = sb.exec('echo alive').then((x) => order.push(`exec ${x.stdout.trim()}`));
    const reads = Promise.all([
      sb.readFile('/home/user/project/w.txt'),
      sb.stat('/home/user/project/moved'),
      sb.readdir('/home/user/project'),
      sb.exists('/home/user/project/gone.txt'),
      sb.readFileBytes('/home/user/project/nothing.txt').catch((e: { code?: string }) => e.code),
    ]).then((x) => {
      order.push('reads');
      return x;
    });
    const [w, moved, root, gone, nothing] = await reads;
    expect(w).toBe('written ✓\n');
    expect(moved.type).toBe('directory');
    expect(root.map((e) => `${e.name}:${e.type}`)).toEqual([
      'a.txt:file',
      'd:directory',
      'moved:directory',
      'w.txt:file',
    ]);
    expect(gone).toBe(false);
    expect(nothing).toBe('ENOENT');
    await command2;
    expect(order).toEqual(['reads', 'exec alive']);
    const after = await sb.exec('cat w.txt a.txt moved/m.txt d/f.txt; ls old gone.txt 2>/dev/null | wc -l');
    expect(after.stdout).toBe('written ✓\none\nmore\nmove me\ndeep\n0\n');
  }, 60_000);

  it('Esc after a command has blocked the worker for a while: ended at once, files kept', async () => {
    const controller = new AbortController();
    let armed: () => void = () => {};
    const seen = new Promise<void>((r) => {
      armed = r;
    });
    const run = sb.exec("echo long > long.txt; echo armed; echo x | sed ':a;s/x/x/;ta'", {
      signal: controller.signal,
      onOutput: (text) => {
        if (text.includes('armed')) armed();
      },
    });
    await seen;
    // Long enough for several unanswered heartbeats: the stop finds the worker already silent.
    await new Promise((r) => setTimeout(r, 400));
    controller.abort();
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('kept the sandbox busy');
    expect(await sb.readFile('/home/user/project/long.txt')).toBe('long\n');
    expect((await sb.exec('cat long.txt')).stdout).toBe('long\n');
  }, 60_000);

  it('Esc during a command that yields (sleep) stops it without a restart', async () => {
    const controller = new AbortController();
    const run = sb.exec('echo started; sleep 30; echo never', {
      signal: controller.signal,
      onOutput: (text) => {
        // Past several heartbeats, all answered: the worker is not blocked.
        if (text.includes('started')) setTimeout(() => controller.abort(), 400);
      },
    });
    const r = await run;
    expect(r.stdout).toBe('started\n');
    expect(r.exitCode).toBe(130);
    expect(r.stderr).not.toContain('restarted');
  }, 60_000);

  it('a command that blocks the worker past its timeout ends with exit 124', async () => {
    const r = await sb.exec("rm w.txt; echo x | sed ':a;s/x/x/;ta'", { timeoutMs: 300 });
    expect(r.exitCode).toBe(124);
    expect(r.timedOut).toBe(true);
    expect(r.stderr).toContain('kept the sandbox busy');
    expect(await sb.exists('/home/user/project/w.txt')).toBe(false);
    expect((await sb.exec('echo alive')).stdout).toBe('alive\n');
  }, 60_000);
});
