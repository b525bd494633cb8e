/**
 * Bash: runs a command in the sandbox's shell session (cwd and exported variables persist between
 * calls). The command is analysed once when the call is prepared (src/shell): that analysis is the
 * permission matcher, and says whether the call is read-only and concurrency-safe.
 */
import { z } from 'zod';
import { BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_OUTPUT_CHARS, BASH_MAX_TIMEOUT_MS } from '../../core/constants.ts';
import type { BashPermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, type ToolResultBlockParam } from '../../core/tool.ts';
import { capOutput } from '../../sandbox/sandbox.ts';
import { analyzeShellOffPage } from '../../shell/index.ts';
import promptText from './prompt.md?raw';

const PROMPT = promptText
  .replaceAll('{{MAX_TIMEOUT_MS}}', String(BASH_MAX_TIMEOUT_MS))
  .replaceAll('{{MAX_TIMEOUT_MIN}}', String(BASH_MAX_TIMEOUT_MS / 60_000))
  .replaceAll('{{DEFAULT_TIMEOUT_MS}}', String(BASH_DEFAULT_TIMEOUT_MS))
  .replaceAll('{{DEFAULT_TIMEOUT_MIN}}', String(BASH_DEFAULT_TIMEOUT_MS / 60_000))
  .replaceAll('{{MAX_OUTPUT}}', String(BASH_MAX_OUTPUT_CHARS))
  .trim();

const inputSchema = z.object({
  command: z.string().describe('The command to execute'),
  timeout: z.number().optional().describe(`Optional timeout in milliseconds (max ${BASH_MAX_TIMEOUT_MS})`),
  description: z
    .string()
    .optional()
    .describe(
      `Clear, concise description of what this command does in 5-10 words, in active voice. Examples:
Input: ls
Output: List files in current directory

Input: git status
Output: Show working tree status

Input: npm install
Output: Install package dependencies

Input: mkdir foo
Output: Create directory 'foo'`,
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Set to true to run this command in the background (a dev server, a watcher). Use BashOutput to read its output and KillShell to stop it.',
    ),
});

export type BashInput = z.infer<typeof inputSchema>;

export interface BashOutput {
  /** Set when the command was started in the background. */
  backgroundId?: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Stopped by the timeout. */
  timedOut?: boolean;
  /** Stopped by the user (abort signal). */
  interrupted?: boolean;
  /** The middle of stdout or stderr was cut. */
  truncated?: boolean;
}

/** The timeout used: the given one (default BASH_DEFAULT_TIMEOUT_MS), at most BASH_MAX_TIMEOUT_MS. */
export function effectiveTimeout(timeout: number | undefined): number {
  return Math.min(timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
}

function validationError(input: BashInput): string | null {
  if (input.command.trim() === '') return 'The command is empty. Give the shell command to run.';
  if (input.timeout !== undefined && !(Number.isFinite(input.timeout) && input.timeout > 0)) {
    const max = BASH_MAX_TIMEOUT_MS;
    return `Invalid timeout ${input.timeout}: give a positive number of milliseconds (max ${max}).`;
  }
  return null;
}

const firstLine = (text: string): string => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

/** The text the model sees: stdout, then stderr, then notes and the exit code. */
export function formatBashResult(output: BashOutput): { text: string; isError: boolean } {
  const parts: string[] = [];
  const stdout = output.stdout.replace(/\s+$/, '');
  const stderr = output.stderr.replace(/\s+$/, '');
  if (stdout) parts.push(stdout);
  if (stderr) parts.push(stderr);
  if (output.timedOut && !/timed out/i.test(stderr)) parts.push('Command timed out.');
  if (output.interrupted && !/interrupt/i.test(stderr)) parts.push('Command was interrupted.');
  if (output.exitCode !== 0) parts.push(`Exit code ${output.exitCode}`);
  const isError = output.exitCode !== 0 || output.timedOut === true || output.interrupted === true;
  return { text: parts.join('\n') || '(No output)', isError };
}

export const BashTool = buildTool<typeof inputSchema, BashOutput, BashPermissionMatcher>({
  name: 'Bash',
  searchHint: 'shell terminal command run execute',
  inputSchema,
  maxResultSizeChars: 30_000,

  description: () => 'Run a shell command in the sandbox',
  prompt: () => PROMPT,
  userFacingName: () => 'Bash',

  validateInput: (input) => validationError(input),

  async call(input, ctx, onProgress) {
    const error = validationError(input);
    if (error) throw new ToolInputError(error);
    if (input.run_in_background) {
      const proc = await ctx.sandbox.startBackground(input.command);
      return {
        data: {
          backgroundId: proc.id,
          stdout: `Command running in background with ID: ${proc.id}. Read its output with BashOutput (bash_id "${proc.id}"); stop it with KillShell.`,
          stderr: '',
          exitCode: 0,
        },
      };
    }
    const result = await ctx.sandbox.exec(input.command, {
      timeoutMs: effectiveTimeout(input.timeout),
      signal: ctx.abortController.signal,
      onOutput: onProgress ? (chunk) => onProgress({ kind: 'output', text: chunk }) : undefined,
    });
    const stdout = capOutput(result.stdout, BASH_MAX_OUTPUT_CHARS);
    const stderr = capOutput(result.stderr, BASH_MAX_OUTPUT_CHARS);
    const data: BashOutput = {
      stdout: stdout.text,
      stderr: stderr.text,
      exitCode: result.exitCode,
      ...(result.timedOut ? { timedOut: true } : {}),
      ...(result.aborted ? { interrupted: true } : {}),
      ...(result.truncated || stdout.truncated || stderr.truncated ? { truncated: true } : {}),
    };
    const newCwd = ctx.sandbox.cwd();
    if (newCwd === ctx.options.cwd) return { data };
    // `cd` moved the shell: later tools (Glob, Grep, Read...) resolve relative paths from there too.
    return { data, contextModifier: (c) => ({ ...c, options: { ...c.options, cwd: newCwd } }) };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlockParam {
    const { text, isError } = formatBashResult(output);
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: text,
      ...(isError ? { is_error: true } : {}),
    };
  },

  /** No opinion of its own: the engine checks every command of the analysed line. */
  checkPermissions: async () => ({ behavior: 'passthrough' }),
  preparePermissionMatcher: async (input) => ({
    kind: 'bash',
    ...(await analyzeShellOffPage(input.command)),
  }),
  // Without the analysis nothing is proven: not read-only, destructive, not safe beside others.
  isReadOnly: (input, analysis) => input?.run_in_background !== true && analysis?.readOnly === true,
  isDestructive: (input, analysis) => input === undefined || analysis === undefined || analysis.destructive,
  isConcurrencySafe: (input, analysis) =>
    input?.run_in_background !== true && analysis?.concurrencySafe === true,
  interruptBehavior: () => 'abort',
  // The sandbox returns what the command printed so far when it is stopped.
  reportsWhenInterrupted: true,

  renderToolUseMessage: (input) => ({
    title: 'Bash',
    subtitle: input.description || (input.command ? firstLine(input.command) : undefined),
    body: input.command ? { kind: 'terminal', command: input.command } : { kind: 'none' },
  }),
  // A background command's card follows it (the session's background-views.ts): its output, then its end.
  renderToolResultMessage: (output) =>
    output.backgroundId
      ? {
          kind: 'terminal',
          stdout: '',
          stderr: '',
          exitCode: 0,
          backgroundId: output.backgroundId,
          running: true,
          state: `running in the background (${output.backgroundId})`,
        }
      : {
          kind: 'terminal',
          stdout: output.stdout,
          stderr: output.stderr,
          exitCode: output.exitCode,
          ...(output.timedOut ? { timedOut: true } : {}),
        },
  toAutoClassifierInput: (input) => input.command,
});
