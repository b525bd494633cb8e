/**
 * BashOutput: new output of a background command (Bash `run_in_background`), from where the last call
 * for the same ID stopped reading.
 */
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import type { BackgroundOutput, Sandbox } from '../../sandbox/sandbox.ts';
import promptText from './prompt.md?raw';

const inputSchema = z.strictObject({
  bash_id: z.string().describe('The ID of the background command (returned by Bash with run_in_background)'),
  filter: z
    .string()
    .optional()
    .describe('Optional regular expression: only output lines that match it are returned'),
});

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
      return `Invalid filter regular expression: ${err instanceof Error ? err.message : String(err)}`;
    }
  },
  async call(input, ctx) {
    const seen = offsets.get(ctx.sandbox) ?? new Map<string, number>();
    offsets.set(ctx.sandbox, seen);
    let out: BackgroundOutput;
    try {
      out = ctx.sandbox.readBackground(input.bash_id, { since: seen.get(input.bash_id) ?? 0 });
    } catch {
      const known = ctx.sandbox.listBackground().map((p) => p.id);
      throw new ToolInputError(
        `No background command with ID ${input.bash_id}.${known.length ? ` Known IDs: ${known.join(', ')}.` : ''}`,
      );
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
