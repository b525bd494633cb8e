/** KillShell: stops a background command started with Bash `run_in_background`. */
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import type { BackgroundProcess } from '../../sandbox/sandbox.ts';
import promptText from './prompt.md?raw';

const inputSchema = z.strictObject({
  shell_id: z.string().describe('The ID of the background command to stop'),
});

export const KillShellTool = buildTool({
  name: 'KillShell',
  // Claude Code's current name for it: transcripts and rules that use it keep working.
  aliases: ['TaskStop'],
  searchHint: 'stop kill background process dev server',
  inputSchema,
  description: () => 'Stop a background Bash command',
  prompt: () => promptText.trim(),
  // Stopping our own background command changes no file: allowed like Claude Code's KillShell.
  checkPermissions: async () => ({ behavior: 'allow' }),
  async call(input, ctx) {
    const known = ctx.sandbox.listBackground();
    if (!known.some((p) => p.id === input.shell_id)) {
      const ids = known.map((p) => p.id);
      throw new ToolInputError(
        `No background command with ID ${input.shell_id}.${ids.length ? ` Known IDs: ${ids.join(', ')}.` : ''}`,
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
