/**
 * The host side of `python3` / `python` in the just-bash sandbox (behind the PYTHON gate; imported
 * only from the gated branch of sandbox-commands.ts, on the first python command). The version, the
 * help and bad options are answered here without starting the interpreter; everything else runs in the
 * python worker through the runtime pool, output streaming into the live sink when the command has one.
 */
import type { ExecResult, ResolvedCommandContext } from 'just-bash';
import { type LiveOutputs, type LiveStream, liveTokenOf } from '../../sandbox/live-output.ts';
import type { FileChange } from '../shared/protocol.ts';
import type { RuntimePool } from '../shared/runtime-pool.ts';
import { parsePythonArgs } from './cli.ts';

/** Wasm memory a Python program may add to the interpreter's own before it gets a MemoryError. */
export const PYTHON_MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024;

export interface PythonCommandHost {
  pool: RuntimePool;
  root: string;
  live: LiveOutputs;
  /** The program's environment (the shell's exported variables). */
  env: Record<string, string>;
  stdin: Uint8Array;
  /** Applies the program's file changes to the sandbox. */
  applyChanges(changes: FileChange[]): Promise<void>;
}

/** Runs one `python3` command. Never throws: failures are stderr and an exit code. */
export async function runPythonCommand(
  args: string[],
  ctx: ResolvedCommandContext,
  host: PythonCommandHost,
): Promise<ExecResult> {
  const liveToken = liveTokenOf(ctx.env);
  const token = liveToken && host.live.isOpen(liveToken) ? liveToken : undefined;
  const out = { stdout: '', stderr: '' };
  const write = (stream: LiveStream, text: string) => {
    if (!text) return;
    if (token) host.live.write(token, stream, text);
    else out[stream] += text;
  };
  const plan = parsePythonArgs(args, host.env);
  if (plan.kind === 'reply') {
    write('stdout', plan.stdout);
    write('stderr', plan.stderr);
    return { ...out, exitCode: plan.exitCode };
  }
  if (plan.run.mode === 'stdin' && host.stdin.length === 0 && !args.includes('-')) {
    write(
      'stderr',
      'python3: the interactive interpreter is not available in tabcode: run a file (python3 app.py), ' +
        'code (python3 -c "print(1)"), a module (python3 -m json.tool data.json) or pipe a script in\n',
    );
    return { ...out, exitCode: 2 };
  }
  const outcome = await host.pool.run(
    {
      args,
      cwd: ctx.cwd,
      env: host.env,
      stdin: host.stdin,
      root: host.root,
      memoryLimitBytes: PYTHON_MEMORY_LIMIT_BYTES,
    },
    {
      output: write,
      applyChanges: host.applyChanges,
      exec: async () => ({ stdout: '', stderr: 'python3 cannot start processes here\n', exitCode: 127 }),
      signal: ctx.signal,
    },
  );
  if (outcome.failure) write('stderr', `${outcome.failure}\n`);
  return { ...out, exitCode: outcome.exitCode };
}
