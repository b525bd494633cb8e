import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT } from '../sandbox/demo-project.ts';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import { createInProcessNodeWorker } from './node/in-process-worker.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

async function open(files: Record<string, string>): Promise<Sandbox> {
  sandbox = await createJustBashSandbox({ files, workers: { node: createInProcessNodeWorker }, fetch: null });
  return sandbox;
}

describe('node in the just-bash sandbox', () => {
  it('works in pipes, &&, $? and redirections', async () => {
    const sb = await open({ 'a.js': "console.log('one'); console.log('two'); console.error('warn');" });
    const r = await sb.exec(
      'node a.js | grep two && echo "rc=$?"; node -e "process.exit(3)"; echo "exit=$?"; node a.js > out.txt 2>&1; cat out.txt',
    );
    expect(r.stdout).toBe('two\nrc=0\nexit=3\none\ntwo\nwarn\n');
    expect(r.stderr).toBe('warn\n');
  });

  it('files a script writes are in the sandbox when the command returns', async () => {
    const sb = await open({
      'w.js':
        "const fs = require('fs'); fs.mkdirSync('out/deep', { recursive: true }); fs.writeFileSync('out/deep/r.txt', 'written'); fs.appendFileSync('log.txt', 'a'); fs.appendFileSync('log.txt', 'b'); fs.renameSync('log.txt', 'moved.txt');",
    });
    const r = await sb.exec('node w.js && cat out/deep/r.txt moved.txt');
    expect(r.stdout).toBe('writtenab');
    expect(await sb.readFile('out/deep/r.txt')).toBe('written');
    expect(await sb.exists('log.txt')).toBe(false);
  });

  it('sees files the shell changed since its last run (the worker stays warm)', async () => {
    const sb = await open({
      'r.js': "console.log(require('fs').readFileSync('data.txt', 'utf8'))",
      'data.txt': 'v1',
    });
    expect((await sb.exec('node r.js')).stdout).toBe('v1\n');
    await sb.writeFile('data.txt', 'v2');
    expect((await sb.exec('node r.js')).stdout).toBe('v2\n');
    expect((await sb.exec('echo v3 > data.txt && node r.js')).stdout).toBe('v3\n\n');
    expect((await sb.exec('rm data.txt; node r.js')).exitCode).toBe(1);
  });

  it("streams a program's output live, in order with the commands around it", async () => {
    const sb = await open({ 'slow.js': "console.log('start'); setTimeout(() => console.log('end'), 300);" });
    const chunks: { text: string; at: number }[] = [];
    const t0 = Date.now();
    const r = await sb.exec('echo before; node slow.js; echo after', {
      onOutput: (text) => chunks.push({ text, at: Date.now() - t0 }),
    });
    expect(r.stdout).toBe('before\nstart\nend\nafter\n');
    const start = chunks.find((c) => c.text.includes('start'));
    const end = chunks.find((c) => c.text.includes('end'));
    expect(start && end && end.at - start.at).toBeGreaterThanOrEqual(200);
  });

  it('child_process runs commands in the sandbox shell', async () => {
    const sb = await open({
      'c.js':
        "require('child_process').exec('find . -name \\'*.txt\\' | wc -l', (e, out) => console.log('count', out.trim()));",
      'x.txt': '',
      'y.txt': '',
    });
    expect((await sb.exec('node c.js')).stdout).toBe('count 2\n');
  });

  it('npm test and npm start run the demo project', async () => {
    const sb = await open({ ...DEMO_PROJECT });
    const start = await sb.exec('npm start');
    expect(start.exitCode).toBe(0);
    expect(start.stdout).toContain('> weather-notes@1.0.0 start');
    expect(start.stdout).toMatch(/Lisbon .*readings/);
    const test = await sb.exec('npm test');
    expect(test.stdout).toContain('ℹ fail 0');
    expect(test.exitCode).toBe(0);
  });
});
