/**
 * KillShell: stops a background command started with Bash `run_in_background`. Also answers to Claude
 * Code's current name, TaskStop, and takes that tool's `task_id` for the ID (not advertised: the schema
 * the model reads stays KillShell's), so transcripts and models that use the new name keep working.
 */

import { z } from 'zod';
import { buildTool, ToolInputError, textResult, zodToInputJSONSchema } from '../../core/tool.ts';
import type { BackgroundProcess } from '../../sandbox/sandbox.ts';
import { unknownBackgroundId } from '../shared/background-ids.ts';
import promptText from './prompt.md?raw';

const publicSchema = z.strictObject({
  shell_id: z.string().describe('The ID of the background command to stop'),
});

/** TaskStop's `task_id` (when `shell_id` is absent) read as `shell_id`; anything else is left to the schema. */
function fromTaskStop(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { task_id, ...rest } = raw as Record<string, unknown>;
  if (task_id === undefined) return raw;
  return 'shell_id' in rest ? raw : { ...rest, shell_id: task_id };
}

const inputSchema = z.preprocess(fromTaskStop, publicSchema);

export const KillShellTool = buildTool({
  name: 'KillShell',
  // Claude Code's current name for it: transcripts and rules that use it keep working.
  aliases: ['TaskStop'],
  searchHint: 'stop kill background process dev server',
  inputSchema,
  inputJSONSchema: zodToInputJSONSchema(publicSchema),
  description: () => 'Stop a background Bash command',
  prompt: () => promptText.trim(),
  // Stopping our own background command changes no file: allowed like Claude Code's KillShell.
  checkPermissions: async () => ({ behavior: 'allow' }),
  async call(input, ctx) {
    const known = ctx.sandbox.listBackground();
    if (!known.some((p) => p.id === input.shell_id)) {
      throw new ToolInputError(
        unknownBackgroundId(
          input.shell_id,
          known.map((p) => p.id),
        ),
      );
    }
    const proc = await ctx.sandbox.killBackground(input.shell_id);
    return { data: proc };
  },
  mapToolResultToToolResultBlockParam(p: BackgroundProcess, id) {
    const state = p.status === 'killed' ? 'stopped' : `had already exited (code ${p.exitCode ?? 0})`;
    return textResult(id, `Background command ${p.id} (${p.command}) ${state}.`);
  },
  renderToolUseMessage: (input) => ({ title: 'KillShell', subtitle: input.shell_id, body: { kind: 'none' } }),
  renderToolResultMessage: (p: BackgroundProcess) => ({ kind: 'text', text: `${p.id}: ${p.status}` }),
  toAutoClassifierInput: (input) => input.shell_id,
});
