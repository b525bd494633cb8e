/**
 * Runs `node` programs on the real engine in-process (tests and benchmarks): files are put in the
 * engine's MemFs, output is collected, child_process commands are answered by a callback.
 */
import type { FileChange } from '../../shared/protocol.ts';
import { NodeEngine } from '../engine.ts';

export const TEST_ROOT = '/home/user/project';

export interface NodeRunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Output chunks in the order the engine sent them. */
  chunks: { stream: 'stdout' | 'stderr'; text: string }[];
  changes: FileChange[];
}

export interface RunNodeOptions {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  memoryLimitBytes?: number;
  exec?: (command: string, cwd: string) => { exitCode: number; stdout: string; stderr: string };
}

let shared: Promise<NodeEngine> | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;

/** The engine's wasm, compiled once per test process (as the worker compiles it once). */
export function compiledEngine(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const path = createRequire(import.meta.url).resolve('quickjs-wasi/quickjs.wasm');
    return WebAssembly.compile(await readFile(path));
  })();
  return compiled;
}

/** One engine for a test file (its MemFs persists between runs, as a warm worker's does). */
export function sharedEngine(): Promise<NodeEngine> {
  shared ??= compiledEngine().then((wasmModule) => NodeEngine.load({ wasmModule }));
  return shared;
}

export function putFiles(engine: NodeEngine, files: Record<string, string>, root = TEST_ROOT): void {
  engine.fs.apply([
    { op: 'dir', path: root },
    { op: 'dir', path: '/tmp' },
    ...Object.entries(files).map(([path, text]) => ({
      op: 'file' as const,
      path: path.startsWith('/') ? path : `${root}/${path}`,
      data: new TextEncoder().encode(text),
    })),
  ]);
}

export async function runNode(
  engine: NodeEngine,
  args: string[],
  options: RunNodeOptions = {},
): Promise<NodeRunResult> {
  const result: NodeRunResult = { stdout: '', stderr: '', exitCode: -1, chunks: [], changes: [] };
  result.exitCode = await engine.run(
    {
      args,
      cwd: options.cwd ?? TEST_ROOT,
      env: { HOME: TEST_ROOT, PATH: '/usr/bin:/bin', ...options.env },
      stdin: new TextEncoder().encode(options.stdin ?? ''),
      root: TEST_ROOT,
      memoryLimitBytes: options.memoryLimitBytes ?? 256 * 1024 * 1024,
    },
    {
      output(stream, text) {
        result[stream] += text;
        result.chunks.push({ stream, text });
      },
      fsChanges(changes) {
        result.changes.push(...changes);
      },
      exec(request) {
        const answer = options.exec?.(request.command, request.cwd) ?? {
          exitCode: 127,
          stdout: '',
          stderr: `sh: ${request.command}: no shell in this test\n`,
        };
        setTimeout(() => engine.execDone(request.id, answer), 1);
      },
    },
  );
  return result;
}
