/**
 * The WebContainer backend's own logic against the typed fake: the exec marker protocol under any
 * chunking, PTY output cleanup, spawn options, VM events (servers, preview errors), the file watcher,
 * derived stat, and disposal. The shared behaviour is in webcontainer.contract.test.ts.
 */
import { PreviewMessageType } from '@webcontainer/api';
import { describe, expect, it } from 'vitest';
import type { Sandbox, SandboxChange, SandboxEvent } from './sandbox.ts';
import { FakeWebContainer, type FakeWebContainerOptions } from './testing/fake-webcontainer.ts';
import { createWebContainerSandbox } from './webcontainer.ts';
import { toFileSystemTree } from './webcontainer-process.ts';

async function make(
  options: FakeWebContainerOptions = {},
  files: Record<string, string> = { 'a.txt': 'A\n' },
) {
  const wc = new FakeWebContainer(options);
  const sandbox = await createWebContainerSandbox(wc, { files });
  return { wc, sandbox };
}

function record(sandbox: Sandbox) {
  const events: SandboxEvent[] = [];
  const changes: SandboxChange[] = [];
  sandbox.onEvent((e) => events.push(e));
  sandbox.onChange((c) => changes.push(c));
  return { events, changes };
}

describe('webcontainer backend: exec protocol', () => {
  it.each([1, 3, 7, 64])('reads status, cwd and output whatever the chunk size (%i)', async (chunkSize) => {
    const { sandbox } = await make({ chunkSize });
    const { events } = record(sandbox);
    const streamed: string[] = [];
    const r = await sandbox.exec('mkdir -p deep/er && cd deep/er && echo "hello"; echo world; false', {
      onOutput: (c) => streamed.push(c),
    });
    expect(r).toEqual({ stdout: 'hello\nworld\n', stderr: '', exitCode: 1 });
    expect(sandbox.cwd()).toBe('/home/project/deep/er');
    expect(streamed.join('')).toBe('hello\nworld\n');
    const raw = events.flatMap((e) => (e.type === 'exec-output' ? [e.chunk] : [])).join('');
    expect(raw).toBe('hello\r\nworld\r\n');
    expect(raw).not.toContain('TABCODE');
  });

  it('takes the process exit code when the command exits before the marker, keeping the cwd', async () => {
    const { sandbox } = await make();
    await sandbox.exec('mkdir sub');
    const r = await sandbox.exec('cd sub; echo bye; exit 7');
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('bye\n');
    expect(sandbox.cwd()).toBe('/home/project');
  });

  it('removes ANSI escapes and carriage returns from what the model sees, not from the terminal feed', async () => {
    const { sandbox } = await make();
    const { events } = record(sandbox);
    const r = await sandbox.exec("printf '\\033[31mred\\033[0m\\n'; printf '10%%\\r50%%\\r100%%\\n'");
    expect(r.stdout).toBe('red\n100%\n');
    const raw = events.flatMap((e) => (e.type === 'exec-output' ? [e.chunk] : [])).join('');
    expect(raw).toContain('\x1b[31mred');
  });

  it('runs jsh -c on a wide PTY, in the cwd relative to the workdir, with exported variables only when set', async () => {
    const { wc, sandbox } = await make();
    await sandbox.mkdir('sub');
    await sandbox.exec('cd sub');
    await sandbox.exec('echo plain');
    const plain = wc.spawned.at(-1);
    expect(plain?.command).toBe('jsh');
    expect(plain?.args[0]).toBe('-c');
    expect(plain?.options).toMatchObject({ cwd: 'sub', terminal: { cols: 200, rows: 50 } });
    expect(plain?.args[1]).not.toContain('node -e');
    await sandbox.exec('export GREETING=hi');
    expect(wc.spawned.at(-1)?.args[1]).toContain(
      "node -e 'process.stdout.write(JSON.stringify(process.env))'",
    );
    await sandbox.exec('echo "$GREETING"');
    expect(wc.spawned.at(-1)?.options?.env).toMatchObject({ GREETING: 'hi' });
    expect(wc.spawned.at(-1)?.options?.env).not.toHaveProperty('PWD');
  });

  it('never throws when the VM cannot start a process', async () => {
    const { wc, sandbox } = await make();
    const broken = Object.assign(wc, { spawn: async () => Promise.reject(new Error('VM is gone')) });
    expect(broken).toBe(wc);
    const r = await sandbox.exec('echo hi');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Could not start the command: VM is gone');
  });

  it('kills the process at the timeout', async () => {
    const { wc, sandbox } = await make();
    const r = await sandbox.exec('echo started; sleep 600', { timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, exitCode: 124 });
    expect(r.stdout).toBe('started\n');
    expect(wc.spawned.at(-1)?.process.killed).toBe(true);
  });
});

describe('webcontainer backend: files', () => {
  it('derives stat: type from the parent listing, size from the bytes, mtime from writes and the watcher', async () => {
    const { sandbox } = await make();
    const boot = (await sandbox.stat('a.txt')).mtimeMs;
    await new Promise((r) => setTimeout(r, 5));
    await sandbox.writeFile('a.txt', 'longer\n');
    const written = await sandbox.stat('a.txt');
    expect(written).toMatchObject({ type: 'file', size: 7 });
    expect(written.mtimeMs).toBeGreaterThan(boot);
    await sandbox.exec('echo more >> a.txt');
    expect((await sandbox.stat('a.txt')).size).toBe(12);
    expect((await sandbox.stat('.')).type).toBe('directory');
  });

  it('reports files a background process writes, through the watcher', async () => {
    const { sandbox } = await make();
    expect(sandbox.info().reportsCommandChanges).toBe(true);
    const { changes } = record(sandbox);
    await sandbox.startBackground(
      'sleep 0.05; echo x > from-bg.txt; mkdir -p node_modules/pkg && echo y > node_modules/pkg/i.js',
    );
    await expect
      .poll(() => changes.some((c) => c.path === '/home/project/from-bg.txt'), { timeout: 5_000 })
      .toBe(true);
    expect(changes.some((c) => c.path?.includes('node_modules'))).toBe(false);
    await expect.poll(() => sandbox.exists('from-bg.txt')).toBe(true);
  });

  it('mounts nested trees', async () => {
    expect(toFileSystemTree({ 'a/b/c.txt': 'c', 'a/d.txt': 'd', 'e.txt': 'e' })).toEqual({
      a: {
        directory: {
          b: { directory: { 'c.txt': { file: { contents: 'c' } } } },
          'd.txt': { file: { contents: 'd' } },
        },
      },
      'e.txt': { file: { contents: 'e' } },
    });
    const { sandbox } = await make({}, { 'a/b/c.txt': 'c' });
    expect(await sandbox.readFile('a/b/c.txt')).toBe('c');
  });
});

describe('webcontainer backend: existsAnywhere', () => {
  it('answers from the workspace listings where they reach, and asks node (lstat) outside or through a link', async () => {
    const { wc, sandbox } = await make();
    const at = (path: string) => {
      if (!sandbox.existsAnywhere) throw new Error('the WebContainer backend has no existsAnywhere');
      return sandbox.existsAnywhere(path);
    };
    const nodeRuns = () => wc.spawned.filter((s) => s.command === 'node').length;
    const before = nodeRuns();
    expect(await at('/home/project/a.txt')).toBe(true);
    expect(await at('/home/project/node_modules/.bin/ls')).toBe(false);
    expect(await at('/home/project/a.txt/ls')).toBe(false);
    expect(nodeRuns(), 'the workspace is answered without a process').toBe(before);
    expect(await at('/home/node_modules/.bin/ls')).toBe(false);
    await sandbox.exec('mkdir -p /home/node_modules/.bin && echo x > /home/node_modules/.bin/ls', {
      origin: 'internal',
    });
    expect(await at('/home/node_modules/.bin/ls')).toBe(true);
    await sandbox.exec('ln -s /home/node_modules linked', { origin: 'internal' });
    expect(await at('/home/project/linked/.bin/ls')).toBe(true);
    expect(nodeRuns(), 'one node run per path outside or through a link').toBe(before + 3);
  });

  it('throws, never says "nothing there", when node cannot answer', async () => {
    const { sandbox } = await make({ spawnError: 'no processes in this VM' });
    await expect(sandbox.existsAnywhere?.('/home/node_modules/.bin/ls')).rejects.toThrow(/Cannot tell/);
    expect(await sandbox.existsAnywhere?.('/home/project/a.txt')).toBe(true);
  });
});

describe('webcontainer backend: servers, preview errors, lifecycle', () => {
  it('lists servers from server-ready and drops them when the port closes', async () => {
    const { wc, sandbox } = await make();
    const { events } = record(sandbox);
    wc.emitServerReady(5173, 'https://abc-5173.local-credentialless.webcontainer.io');
    expect(sandbox.previews()).toEqual([
      { port: 5173, url: 'https://abc-5173.local-credentialless.webcontainer.io' },
    ]);
    wc.emitPortClosed(5173, 'https://abc-5173.local-credentialless.webcontainer.io');
    expect(sandbox.previews()).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['server-ready', 'port-closed']);
  });

  it('turns preview errors into reminders for the model, once', async () => {
    const { wc, sandbox } = await make();
    const { events } = record(sandbox);
    const base = { previewId: 'p1', port: 3000, pathname: '/app', search: '?x=1', hash: '' };
    wc.emitPreviewMessage({
      ...base,
      type: PreviewMessageType.UncaughtException,
      message: 'TypeError: x is undefined',
      stack: 'at main.js:3:5',
    });
    wc.emitPreviewMessage({
      ...base,
      type: PreviewMessageType.ConsoleError,
      args: ['failed', { code: 1 }],
      stack: '',
    });
    wc.emitError('worker crashed');
    const reminders = sandbox.takeReminders();
    expect(reminders).toHaveLength(3);
    expect(reminders[0]).toContain('port 3000 (/app?x=1)');
    expect(reminders[0]).toContain('Uncaught exception: TypeError: x is undefined');
    expect(reminders[0]).toContain('at main.js:3:5');
    expect(reminders[1]).toContain('console.error: failed {"code":1}');
    expect(reminders[2]).toContain('worker crashed');
    expect(sandbox.takeReminders()).toEqual([]);
    expect(events.filter((e) => e.type === 'preview-error')).toHaveLength(3);
  });

  it('lists the commands /bin offers, with node and npm', async () => {
    const { sandbox } = await make();
    const info = sandbox.info();
    expect(info).toMatchObject({ kind: 'webcontainer', hasNode: true, ptyOutput: true });
    expect(info.commands).toEqual(expect.arrayContaining(['node', 'npm', 'ls', 'cat', 'cd']));
  });

  it('dispose stops background processes and unsubscribes from the VM', async () => {
    const { wc, sandbox } = await make();
    expect(wc.listenerCount()).toBeGreaterThan(0);
    const bg = await sandbox.startBackground('echo started; sleep 600');
    await sandbox.dispose();
    expect(wc.listenerCount()).toBe(0);
    expect(sandbox.listBackground().find((p) => p.id === bg.id)?.status).toBe('killed');
    expect(wc.spawned.find((s) => s.args[1] === 'echo started; sleep 600')?.process.killed).toBe(true);
  });
});
