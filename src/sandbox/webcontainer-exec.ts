/**
 * One command on the WebContainer: the script around it, its output on the pseudo-terminal, and how it
 * ends. Each exec is a fresh `jsh -c`; after the command the script prints a marker line carrying the
 * exit status and `$PWD`, and — when the command may have changed variables — `node` prints the
 * environment as JSON. Output before the marker streams to the caller; the marker and what follows
 * never reach the caller or the terminal. A timeout or an abort kills the process and keeps what it
 * printed so far.
 */
import type { WebContainerProcess } from '@webcontainer/api';
import { messageOf } from '../core/errors.ts';
import type { ExecOptions } from './sandbox.ts';
import { ABORT_EXIT_CODE, stripAnsi, TIMEOUT_EXIT_CODE, terminalToText } from './shared.ts';

/** After kill, how long to wait for a process to report its exit. */
export const KILL_GRACE_MS = 500;
/** After a process exits, how long its remaining output may take to arrive. */
const OUTPUT_DRAIN_MS = 2_000;
/** The end of a chunk that may continue in the next one: `\r` (of `\r\n`) or an unfinished escape. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal control characters are the point
const INCOMPLETE_END = /(\r|\x1b(\[[0-?]*[ -/]*|\][^\x07\x1b]*|\x1b?)?)$/;
/** A command that may change the shell's variables: its environment is captured after it. */
const ENV_CHANGING = /\b(export|unset|source|declare|typeset)\b|(^|[;&|\n]\s*)\.\s/;
/** Variables never carried from one exec to the next. */
const VOLATILE_ENV = new Set(['PWD', 'OLDPWD', 'SHLVL', '_', '__tabcode_status']);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Pulls the output of `proc` to `onChunk` until it ends or `stop` is called. Never rejects. */
export function pump(
  proc: WebContainerProcess,
  onChunk: (chunk: string) => void,
): { done: Promise<void>; stop: () => void } {
  const reader = proc.output.getReader();
  let stopped = false;
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end || stopped) break;
        if (value) onChunk(value);
      }
    } catch {
      // The stream errors when the process is killed or the VM torn down: the output so far stands.
    }
  })();
  return {
    done,
    stop: () => {
      stopped = true;
      reader.cancel().catch(() => undefined);
    },
  };
}

/** The `jsh -c` script for `command`, reporting its status and cwd after `marker`. */
export function shellScript(command: string, marker: string): string {
  return [
    command,
    '__tabcode_status=$?',
    `echo "${marker}\${__tabcode_status}:\${PWD}${marker}"`,
    ...(ENV_CHANGING.test(command) ? ["node -e 'process.stdout.write(JSON.stringify(process.env))'"] : []),
    'exit $__tabcode_status',
    '',
  ].join('\n');
}

export interface ShellRun {
  /** What the command printed (stdout and stderr interleaved), as plain text. */
  stdout: string;
  /** This module's own notes (timeout, interrupt, could not start). */
  stderr: string;
  exitCode: number;
  timedOut?: boolean;
  aborted?: boolean;
  /** The shell's directory when the command ended (absent when it exited early or was stopped). */
  pwd?: string;
  /** The shell's environment when the command ended, when it was captured. */
  env?: Record<string, string>;
}

export interface ShellRunRequest {
  /** Starts `jsh -c script` (cwd, env and terminal are the caller's business). */
  spawn: (script: string) => Promise<WebContainerProcess>;
  command: string;
  options: ExecOptions;
  /** Raw terminal output as it arrives (for the terminal view). */
  onRaw?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

/** Runs one command to its end, timeout or abort. Never rejects. */
export async function runShellCommand(request: ShellRunRequest): Promise<ShellRun> {
  const { options, onRaw } = request;
  const marker = `__TABCODE_${Math.random().toString(36).slice(2)}__`;
  let proc: WebContainerProcess;
  try {
    proc = await request.spawn(shellScript(request.command, marker));
  } catch (err) {
    const note = `Could not start the command: ${messageOf(err)}\n`;
    onRaw?.(note, 'stderr');
    options.onOutput?.(note, 'stderr');
    return { stdout: '', stderr: note, exitCode: 1 };
  }

  let shown = '';
  let pending = '';
  let tail = '';
  let markerSeen = false;
  // Text for onOutput is cleaned per chunk; an escape sequence or `\r\n` split across chunks waits.
  let carry = '';
  const deliver = (raw: string, final = false) => {
    if (raw) {
      shown += raw;
      onRaw?.(raw, 'stdout');
    }
    let text = carry + raw;
    carry = '';
    if (!final) {
      const cut = text.search(INCOMPLETE_END);
      if (cut >= 0) {
        carry = text.slice(cut);
        text = text.slice(0, cut);
      }
    }
    text = stripAnsi(text).replace(/\r\n/g, '\n');
    if (text) options.onOutput?.(text, 'stdout');
  };
  // Output before the marker is the command's; it streams out except for a tail that could be the
  // start of a marker split across chunks.
  const output = pump(proc, (chunk) => {
    if (markerSeen) {
      tail += chunk;
      return;
    }
    pending += chunk;
    const at = pending.indexOf(marker);
    if (at >= 0) {
      markerSeen = true;
      deliver(pending.slice(0, at));
      tail = pending.slice(at + marker.length);
      pending = '';
      return;
    }
    const safe = pending.length - (marker.length - 1);
    if (safe > 0) {
      deliver(pending.slice(0, safe));
      pending = pending.slice(safe);
    }
  });

  let stop: (reason: 'timeout' | 'abort') => void = () => undefined;
  const stopped = new Promise<'timeout' | 'abort'>((resolve) => {
    stop = resolve;
  });
  const onAbort = () => stop('abort');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) stop('abort');
  const timer =
    options.timeoutMs !== undefined && options.timeoutMs > 0
      ? setTimeout(() => stop('timeout'), options.timeoutMs)
      : undefined;
  try {
    const first = await Promise.race([proc.exit.then((code) => ({ code })), stopped]);
    if (typeof first === 'object') {
      await Promise.race([output.done, sleep(OUTPUT_DRAIN_MS)]);
      deliver(markerSeen ? '' : pending, true);
      return { ...parseTail(tail, marker, first.code), stdout: terminalToText(shown), stderr: '' };
    }
    const timedOut = first === 'timeout';
    proc.kill();
    await Promise.race([proc.exit.then(() => output.done).catch(() => undefined), sleep(KILL_GRACE_MS)]);
    output.stop();
    deliver(markerSeen ? '' : pending, true);
    const note = timedOut ? `Command timed out after ${options.timeoutMs} ms\n` : 'Command interrupted\n';
    onRaw?.(note, 'stderr');
    options.onOutput?.(note, 'stderr');
    return {
      stdout: terminalToText(shown),
      stderr: note,
      exitCode: timedOut ? TIMEOUT_EXIT_CODE : ABORT_EXIT_CODE,
      ...(timedOut ? { timedOut: true } : { aborted: true }),
    };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Exit status, cwd and env from what followed the marker; the process's code when there is none. */
function parseTail(tail: string, marker: string, processCode: number): Omit<ShellRun, 'stdout' | 'stderr'> {
  const clean = stripAnsi(tail);
  const m = new RegExp(`^(\\d+):(.*?)${marker}`, 's').exec(clean);
  if (!m) return { exitCode: processCode };
  const json = clean.slice(m[0].length).trim();
  let env: Record<string, string> | undefined;
  if (json.startsWith('{')) {
    try {
      const parsed = JSON.parse(json.slice(0, json.lastIndexOf('}') + 1)) as Record<string, unknown>;
      env = {};
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === 'string' && !VOLATILE_ENV.has(key)) env[key] = value;
      }
    } catch {
      env = undefined;
    }
  }
  return { exitCode: Number(m[1]), pwd: m[2].trim(), ...(env ? { env } : {}) };
}
