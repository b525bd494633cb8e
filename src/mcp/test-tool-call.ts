/**
 * For tests: one MCP tool call through the real tool-call path (prepare → authorize → execute →
 * finalize), as the session runs it, and the text of what the model gets back.
 */
import type { ToolUseContext } from '../core/context.ts';
import type { ToolResultBlockParam } from '../core/messages.ts';
import { defaultCanUseTool, prepareCall, runToolCall } from '../core/tool-execution.ts';
import type { McpManager } from './manager.ts';

/** Calls `name` (`mcp__<server>__<tool>`) with no input; resolves to the tool_result block. */
export async function callMcpTool(
  m: McpManager,
  ctx: ToolUseContext,
  name: string,
): Promise<ToolResultBlockParam> {
  const tools = m.tools();
  const tool = name.slice(name.lastIndexOf('__') + 2);
  const call = await prepareCall({ type: 'tool_use', id: `toolu_${tool}`, name, input: {} }, tools);
  const out = await runToolCall(
    call,
    { ...ctx, abortController: new AbortController() },
    { tools, canUseTool: defaultCanUseTool, emit: () => {} },
  );
  return out.block;
}

/** A tool_result's text, other blocks as `<type>`. */
export const resultText = (b: ToolResultBlockParam): string =>
  typeof b.content === 'string'
    ? b.content
    : (b.content ?? []).map((c) => (c.type === 'text' ? c.text : `<${c.type}>`)).join('\n');
