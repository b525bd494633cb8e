/**
 * Messages between a runtime worker (node, python3) and its host: the sandbox side that runs the
 * just-bash command. The worker holds a mirror of the sandbox's files (see mirror.ts and mem-fs.ts):
 * the host sends what changed before each run, the worker reports each file the program changes as it
 * happens, so the sandbox has every write by the time the run's `exit` arrives (messages keep order).
 *
 * Everything here is plain data (structured clone); file contents travel as Uint8Array with their
 * buffers transferred.
 */

/** One entry of the file tree, as the host sends it or the worker reports it. */
export type FileChange =
  | { op: 'file'; path: string; data: Uint8Array; mode?: number; mtimeMs?: number }
  | { op: 'dir'; path: string; mode?: number }
  | { op: 'link'; path: string; target: string }
  /** The path and everything under it are gone. */
  | { op: 'remove'; path: string }
  /** A rename the worker made (the host replays it; a sync never sends one). */
  | { op: 'rename'; from: string; to: string };

export interface RunRequest {
  /** argv as the program sees it after the engine name (`node a.js x` → ['a.js', 'x'] plus flags). */
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The command's stdin (a pipe or here-doc), whole; empty when none. */
  stdin: Uint8Array;
  /** Workspace root: writes are allowed under it and under /tmp only. */
  root: string;
  /** Heap limit for the program, bytes. */
  memoryLimitBytes: number;
}

export type HostToWorker =
  | { type: 'sync'; changes: FileChange[]; full: boolean }
  | { type: 'run'; run: RunRequest }
  | {
      type: 'exec-result';
      id: number;
      stdout: string;
      stderr: string;
      exitCode: number;
    };

export type WorkerToHost =
  /** The engine is loaded and the worker waits for a run. */
  | { type: 'ready'; engine: string; loadMs: number }
  | { type: 'output'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'fs'; changes: FileChange[] }
  /** The program runs a shell command (child_process); the host answers with `exec-result`. */
  | {
      type: 'exec';
      id: number;
      command: string;
      cwd: string;
      env: Record<string, string>;
      stdin: string;
    }
  | { type: 'exit'; code: number }
  /** The worker itself failed (the engine could not load): the run cannot happen. */
  | { type: 'fatal'; message: string };
