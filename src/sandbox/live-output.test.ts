import { afterEach, describe, expect, it } from 'vitest';
import { createJustBashSandbox } from './just-bash.ts';
import type { Sandbox } from './sandbox.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

async function run(command: string) {
  sandbox ??= await createJustBashSandbox({ files: { 'a.txt': 'alpha\nbeta\n' } });
  const chunks: { text: string; stream: string; at: number }[] = [];
  const start = Date.now();
  const result = await sandbox.exec(command, {
    onOutput: (text, stream) => chunks.push({ text, stream, at: Date.now() - start }),
  });
  return { result, chunks };
}

describe('live output (just-bash)', () => {
  it('streams each command as it ends, before the line ends', async () => {
    const { result, chunks } = await run('echo one; sleep 0.3; echo two');
    expect(result.stdout).toBe('one\ntwo\n');
    expect(chunks.map((c) => c.text)).toEqual(['one\n', 'two\n']);
    // Streamed: the sleep lies between the two chunks (held to the end, they would arrive together).
    // A gap, not a clock reading, so a loaded machine cannot fail it.
    expect(chunks[1].at - chunks[0].at).toBeGreaterThanOrEqual(250);
  });

  it('keeps the order of stdout and stderr', async () => {
    const { result, chunks } = await run('echo out1; echo err1 >&2; echo out2; ls nope');
    expect(chunks.map((c) => `${c.stream}:${c.text.trim()}`)).toEqual([
      'stdout:out1',
      'stderr:err1',
      'stdout:out2',
      expect.stringMatching(/^stderr:ls: .*nope/),
    ]);
    expect(result.stdout).toBe('out1\nout2\n');
    expect(result.stderr).toMatch(/^err1\nls: .*nope/);
    expect(result.exitCode).not.toBe(0);
  });

  it('leaves pipes, substitutions and redirections to files as they are', async () => {
    const { result } = await run(
      'cat a.txt | grep beta; x=$(echo inner); echo "got $x"; echo saved > out.txt; cat out.txt; echo both 2>&1 | tr a-z A-Z',
    );
    expect(result.stdout).toBe('beta\ngot inner\nsaved\nBOTH\n');
    expect(await sandbox?.readFile('out.txt')).toBe('saved\n');
  });

  it('honours 2>&1, /dev/null and group redirections', async () => {
    const { result } = await run(
      'ls nope 2>&1; ls nope 2>/dev/null; { echo g1; echo g2; } > grouped.txt; echo after',
    );
    expect(result.stdout).toMatch(/^ls: .*nope.*\nafter\n$/);
    expect(result.stderr).toBe('');
    expect(await sandbox?.readFile('grouped.txt')).toBe('g1\ng2\n');
  });

  it('streams loops and conditionals; functions and cd keep working', async () => {
    const { result, chunks } = await run(
      'f() { echo in-f; }; for i in 1 2 3; do echo "i=$i"; done; if true; then f; fi; mkdir -p d && cd d && pwd; export V=5; echo "V=$V"',
    );
    expect(result.stdout).toBe('i=1\ni=2\ni=3\nin-f\n/home/user/project/d\nV=5\n');
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    expect(sandbox?.cwd()).toBe('/home/user/project/d');
    expect((await run('echo $V')).result.stdout).toBe('5\n');
  });

  it('keeps $? and exit codes', async () => {
    const { result } = await run('false; echo "rc=$?"; (exit 3); echo "sub=$?"; exit 4');
    expect(result.stdout).toBe('rc=1\nsub=3\n');
    expect(result.exitCode).toBe(4);
  });

  it('keeps what was printed before a timeout', async () => {
    sandbox = await createJustBashSandbox({});
    const result = await sandbox.exec('echo before; sleep 5; echo never', { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBe(124);
    expect(result.stdout).toBe('before\n');
  });

  it('background output can be read while the command runs, and after a kill', async () => {
    sandbox = await createJustBashSandbox({});
    const proc = await sandbox.startBackground(
      'for i in 1 2 3 4 5 6 7 8 9 10; do echo tick $i; sleep 0.1; done',
    );
    await new Promise((r) => setTimeout(r, 350));
    const partial = sandbox.readBackground(proc.id);
    expect(partial.status).toBe('running');
    expect(partial.output).toMatch(/^tick 1\ntick 2\n/);
    await sandbox.killBackground(proc.id);
    const after = sandbox.readBackground(proc.id);
    expect(after.status).toBe('killed');
    expect(after.output.length).toBeGreaterThanOrEqual(partial.output.length);
    expect(after.output).toMatch(/tick 2/);
  });
});
