/**
 * `!` mode: a prompt line starting with `!` runs in the sandbox shell (the agent's shell session, as in
 * Claude Code, so a `cd` moves the agent too) without a model request; its output joins the context of
 * the next prompt, in Claude Code's bash-input/bash-stdout/bash-stderr form. Pure helpers.
 */
import { BASH_MAX_OUTPUT_CHARS } from '../../core/constants.ts';
import type { TextBlockParam } from '../../core/messages.ts';
import { capOutput } from '../../sandbox/sandbox.ts';

/** The command of a `!` line, or null when the line is no shell line. */
export function shellLine(text: string): string | null {
  const t = text.trimStart();
  if (!t.startsWith('!')) return null;
  const command = t.slice(1).trim();
  return command === '' ? null : command;
}

export interface ShellRun {
  command: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut?: boolean;
  aborted?: boolean;
}

/** The note the model gets with the next prompt: what the user ran and what it printed. */
export function shellRunBlock(run: ShellRun): TextBlockParam {
  const out = capOutput(run.stdout, BASH_MAX_OUTPUT_CHARS).text;
  const err = capOutput(run.stderr, BASH_MAX_OUTPUT_CHARS).text;
  const status = run.timedOut
    ? ' (timed out)'
    : run.aborted
      ? ' (stopped)'
      : run.exitCode !== 0
        ? ` (exit code ${run.exitCode})`
        : '';
  return {
    type: 'text',
    text: [
      `<system-reminder>\nThe user ran a command in the sandbox shell themselves${status}; its output is below for context.\n</system-reminder>`,
      `<bash-input>${run.command}</bash-input>`,
      `<bash-stdout>${out}</bash-stdout>`,
      `<bash-stderr>${err}</bash-stderr>`,
    ].join('\n'),
  };
}
