/**
 * The python engine on its own (the real Pyodide from node_modules), for what ends an interpreter: a
 * program past its memory limit gets a MemoryError and the engine reports itself unusable (the pool
 * then replaces the worker); so does a recursion deeper than the host's stack.
 */
import { describe, expect, it } from 'vitest';
import type { FileChange, RunRequest } from '../shared/protocol.ts';
import { PythonEngine } from './engine.ts';
import { PYODIDE_NODE_DIR } from './in-process-worker.ts';

const load = () =>
  PythonEngine.load(async (config) =>
    (await import('pyodide')).loadPyodide({ ...config, indexURL: PYODIDE_NODE_DIR }),
  );

function request(args: string[], memoryLimitBytes = 2 ** 30): RunRequest {
  return {
    args,
    cwd: '/home/user/project',
    env: {},
    stdin: new Uint8Array(),
    root: '/home/user/project',
    memoryLimitBytes,
  };
}

/** Collects what a run prints and the file changes it reports. */
function collector() {
  const seen = { output: '', changes: [] as FileChange[] };
  const io = {
    output: (_stream: 'stdout' | 'stderr', text: string) => {
      seen.output += text;
    },
    fsChanges: (c: FileChange[]) => {
      seen.changes.push(...c);
    },
  };
  return { seen, io };
}

// Each test needs an interpreter of its own (both end it); they load side by side.
describe.concurrent('the python engine', () => {
  it('stops a program past its memory limit with a MemoryError, then asks to be replaced', async () => {
    const engine = await load();
    const { seen, io } = collector();
    const before = engine.memoryBytes();
    const r = engine.run(
      request(
        ['-c', "open('before.txt', 'w').write('x')\nkeep = []\nwhile True: keep.append(bytearray(1 << 20))"],
        64 * 2 ** 20,
      ),
      io,
    );
    expect(r.code).toBe(1);
    expect(r.fatal).toBe(
      'the program ran out of memory (the limit is 64 MB); the Python engine restarts for the next run',
    );
    expect(seen.output).toContain(
      "MemoryError: the program used more than 64 MB of memory (python3's limit in tabcode)",
    );
    // What the program wrote before is still reported.
    expect(seen.changes.map((c) => c.op === 'file' && c.path)).toContain('/home/user/project/before.txt');
    // It stopped near the limit, not at the wasm maximum.
    expect(engine.memoryBytes() - before).toBeLessThan(256 * 2 ** 20);
    expect(engine.run(request(['-c', 'pass']), io).fatal).toContain('restarts for the next run');
  }, 120_000);

  it('a recursion deeper than the host stack ends the engine with a clear message', async () => {
    const engine = await load();
    const { io } = collector();
    const r = engine.run(
      request(['-c', 'import sys\nsys.setrecursionlimit(10**6)\ndef f(n): return f(n + 1)\nf(0)']),
      io,
    );
    expect(r).toEqual({
      code: 1,
      fatal:
        'RecursionError: the program recursed deeper than the browser allows (past sys.setrecursionlimit); the Python engine restarts for the next run',
    });
  }, 120_000);
});
