/**
 * Differential testing of whole programs: the same CommonJS script run by the machine's Node (a child
 * process) and as the main script of a guest process in QuickJS (timers, process events and all, via
 * GuestHarness.runToExit). Compare what each printed and its exit code.
 */
import { spawnSync } from 'node:child_process';
import { GuestHarness } from './harness.ts';

export interface ScriptRun {
  output: string;
  exitCode: number;
}

/** Runs `code` with the machine's Node (`node -e`), stdout and stderr together. */
export function runScriptInNode(code: string, input = ''): ScriptRun {
  const result = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', input });
  return { output: result.stdout + result.stderr, exitCode: result.status ?? -1 };
}

/** Runs `code` as the main script of a fresh guest process; `setup` runs first (e.g. to give stdin). */
export async function runScriptInGuest(code: string, setup?: (h: GuestHarness) => void): Promise<ScriptRun> {
  const h = await GuestHarness.create();
  try {
    setup?.(h);
    h.eval(code, '/home/user/project/[eval]');
    const exitCode = h.runToExit();
    return { output: h.takeOutput(), exitCode };
  } finally {
    h.dispose();
  }
}
