/**
 * BashOutput: new output of a background command (Bash `run_in_background`), from where the last call
 * for the same ID stopped reading. Also answers to Claude Code's current name, TaskOutput, with that
 * tool's input (`task_id` for the ID; `block` waits up to `timeout` ms for the command to end). Those keys
 * are not advertised: the schema the model reads stays BashOutput's.
 */

import { z } from 'zod';
import { messageOf } from '../../core/errors.ts';
import { buildTool, ToolInputError, textResult, zodToInputJSONSchema } from '../../core/tool.ts';
import type { BackgroundOutput, Sandbox } from '../../sandbox/sandbox.ts';
import { unknownBackgroundId } from '../shared/background-ids.ts';
import promptText from './prompt.md?raw';

/** TaskOutput's wait for `block: true` without a `timeout`, and the longest one allowed. */
export const TASK_OUTPUT_DEFAULT_TIMEOUT_MS = 30_000;
export const TASK_OUTPUT_MAX_TIMEOUT_MS = 600_000;
/** How often a blocking read looks at the command's status. */
const BLOCK_POLL_MS = 50;

const publicShape = {
  bash_id: z.string().describe('The ID of the background command (returned by Bash with run_in_background)'),
  filter: z
    .string()
    .optional()
    .describe('Optional regular expression: only output lines that match it are returned'),
};
const publicSchema = z.strictObject(publicShape);

/** TaskOutput's `task_id` (when `bash_id` is absent) read as `bash_id`; anything else is left to the schema. */
function fromTaskOutput(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { task_id, ...rest } = raw as Record<string, unknown>;
  if (task_id === undefined) return raw;
  return 'bash_id' in rest ? raw : { ...rest, bash_id: task_id };
}

const inputSchema = z.preprocess(
  fromTaskOutput,
  z.strictObject({
    ...publicShape,
    block: z.boolean().optional(),
    timeout: z.number().int().min(0).max(TASK_OUTPUT_MAX_TIMEOUT_MS).optional(),
  }),
);

/** Waits until the command is no longer running, the timeout passes or the call is aborted. Never throws. */
async function waitForEnd(
  sandbox: Sandbox,
  id: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!signal.aborted && Date.now() < until) {
    const proc = sandbox.listBackground().find((p) => p.id === id);
    if (proc?.status !== 'running') return;
    await new Promise((r) => setTimeout(r, BLOCK_POLL_MS));
  }
}

export interface BashOutputData {
  id: string;
  command: string;
  status: BackgroundOutput['status'];
  exitCode?: number;
  output: string;
  dropped: number;
}

/** Read offsets per sandbox and background ID: each call returns only what is new. */
const offsets = new WeakMap<Sandbox, Map<string, number>>();

function statusLine(d: BashOutputData): string {
  if (d.status === 'running') return 'running';
  if (d.status === 'killed') return 'killed';
  return `exited with code ${d.exitCode ?? 0}`;
}

export const BashOutputTool = buildTool({
  name: 'BashOutput',
  // Claude Code's current name for it: transcripts and rules that use it keep working.
  aliases: ['TaskOutput'],
  searchHint: 'background process output dev server logs',
  inputSchema,
  inputJSONSchema: zodToInputJSONSchema(publicSchema),
  description: () => 'Read new output of a background Bash command',
  prompt: () => promptText.trim(),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  checkPermissions: async () => ({ behavior: 'allow' }),
  validateInput(input) {
    if (input.filter === undefined) return null;
    try {
      new RegExp(input.filter);
      return null;
    } catch (err) {
      return `Invalid filter regular expression: ${messageOf(err)}`;
    }
  },
  async call(input, ctx) {
    const seen = offsets.get(ctx.sandbox) ?? new Map<string, number>();
    offsets.set(ctx.sandbox, seen);
    if (input.block) {
      const timeout = input.timeout ?? TASK_OUTPUT_DEFAULT_TIMEOUT_MS;
      await waitForEnd(ctx.sandbox, input.bash_id, timeout, ctx.abortController.signal);
    }
    let out: BackgroundOutput;
    try {
      out = ctx.sandbox.readBackground(input.bash_id, { since: seen.get(input.bash_id) ?? 0 });
    } catch {
      const known = ctx.sandbox.listBackground().map((p) => p.id);
      throw new ToolInputError(unknownBackgroundId(input.bash_id, known));
    }
    seen.set(input.bash_id, out.nextOffset);
    let output = out.output;
    if (input.filter) {
      const re = new RegExp(input.filter);
      output = output
        .split('\n')
        .filter((line) => re.test(line))
        .join('\n');
    }
    return {
      data: {
        id: out.id,
        command: out.command,
        status: out.status,
        ...(out.exitCode !== undefined ? { exitCode: out.exitCode } : {}),
        output,
        dropped: out.dropped,
      } satisfies BashOutputData,
    };
  },
  mapToolResultToToolResultBlockParam(d: BashOutputData, id) {
    const lines = [`<status>${statusLine(d)}</status>`];
    if (d.dropped > 0) lines.push(`<note>${d.dropped} earlier characters were dropped (buffer cap).</note>`);
    lines.push(
      d.output.trim()
        ? `<output>\n${d.output.replace(/\s+$/, '')}\n</output>`
        : '<output>(no new output)</output>',
    );
    return textResult(id, lines.join('\n'));
  },
  renderToolUseMessage: (input) => ({ title: 'BashOutput', subtitle: input.bash_id, body: { kind: 'none' } }),
  renderToolResultMessage: (d: BashOutputData) => ({
    kind: 'terminal',
    stdout: d.output,
    stderr: '',
    exitCode: d.status === 'running' ? 0 : (d.exitCode ?? 0),
  }),
  toAutoClassifierInput: (input) => input.bash_id,
});
