/**
 * Agent: runs a sub-agent (a sub-conversation with its own messages, agent id and tool pool by agent
 * type) and returns its final text. It reaches the loop only through the dynamic `import()` of
 * run-subagent.ts inside `call`: the loop's pool holds this tool, so a static import would close the
 * cycle tool → loop → tools. Several Agent calls of one message run in parallel (concurrency-safe);
 * their calls still meet the permission engine one by one.
 */
import { z } from 'zod';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import {
  AGENT_TOOL_NAME,
  AGENT_TYPES,
  DEFAULT_AGENT_TYPE,
  findAgentType,
  subagentTools,
} from './agent-types.ts';
import promptText from './prompt.md?raw';
import type { SubagentResult } from './run-subagent.ts';

const PROMPT = promptText
  .replaceAll('{{DEFAULT_TYPE}}', DEFAULT_AGENT_TYPE)
  .replaceAll('{{TYPES}}', AGENT_TYPES.map((t) => `- \`${t.name}\`: ${t.whenToUse}`).join('\n'))
  .trim();

const inputSchema = z.strictObject({
  description: z.string().describe('A short (3-5 word) description of the task'),
  prompt: z.string().describe('The task for the agent to perform'),
  subagent_type: z
    .string()
    .optional()
    .describe(`The type of specialized agent to use for this task (default ${DEFAULT_AGENT_TYPE})`),
});

export type AgentInput = z.infer<typeof inputSchema>;
export type AgentOutput = SubagentResult & { description: string };

function problem(input: AgentInput): string | null {
  if (input.prompt.trim() === '') return 'The prompt is empty: give the sub-agent its full task.';
  if (!findAgentType(input.subagent_type)) {
    return `Unknown subagent_type "${input.subagent_type}". Available types: ${AGENT_TYPES.map((t) => t.name).join(', ')}.`;
  }
  return null;
}

function formatUsage(out: AgentOutput): string {
  const tokens =
    out.usage.inputTokens + out.usage.cacheReadTokens + out.usage.cacheWriteTokens + out.usage.outputTokens;
  return `${out.toolUses} tool ${out.toolUses === 1 ? 'use' : 'uses'} · ${tokens} tokens · ${(out.durationMs / 1000).toFixed(1)}s`;
}

export const AgentTool = buildTool({
  name: AGENT_TOOL_NAME,
  aliases: ['Task'],
  searchHint: 'subagent delegate parallel task explore research',
  inputSchema,
  description: () => 'Start a sub-agent that works on a task by itself and reports back',
  prompt: () => PROMPT,

  // The sub-agent's own calls are checked one by one; starting it changes nothing.
  checkPermissions: async () => ({ behavior: 'allow' }),
  isReadOnly: (input) => findAgentType(input?.subagent_type)?.readOnly === true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => 'abort',
  validateInput: (input) => problem(input),

  async call(input, ctx, onProgress) {
    const error = problem(input);
    if (error) throw new ToolInputError(error);
    const type = findAgentType(input.subagent_type);
    if (!type) throw new ToolInputError(`Unknown subagent_type "${input.subagent_type}".`);
    // The loop, loaded on the first sub-agent (see the file comment).
    const { runSubagent } = await import('./run-subagent.ts');
    const result = await runSubagent(
      {
        agentType: type.name,
        label: `${type.name}: ${input.description}`,
        prompt: input.prompt,
        tools: subagentTools(type, ctx.options.tools),
        instructions: type.instructions,
        readOnly: type.readOnly,
      },
      ctx,
      onProgress,
    );
    return { data: { ...result, description: input.description } };
  },

  mapToolResultToToolResultBlockParam: (output: AgentOutput, toolUseId) => textResult(toolUseId, output.text),

  renderToolUseMessage: (input) => ({
    title:
      input.subagent_type && input.subagent_type !== DEFAULT_AGENT_TYPE
        ? `Agent (${input.subagent_type})`
        : 'Agent',
    subtitle: input.description,
    body: input.prompt ? { kind: 'text', text: input.prompt } : { kind: 'none' },
  }),
  renderToolResultMessage: (output) => ({
    kind: 'markdown',
    text: `${output.text}\n\n*${formatUsage(output)}*`,
  }),
  toAutoClassifierInput: (input) => `${input.subagent_type ?? DEFAULT_AGENT_TYPE}: ${input.description}`,
});
