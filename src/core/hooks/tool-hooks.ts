/**
 * Hooks at the edges of the tool-call stages: PreToolUse between prepare and authorize (it may deny,
 * ask, allow or rewrite the input), PostToolUse after finalize (it may give the model feedback about the
 * result). Reports go out as `hook-result` events. Never throws.
 *
 * Trust: an "allow" skips the permission prompt only when it comes from a hook the embedding page
 * registered; an allow from a hook in the workspace's files (which the agent itself can write) counts
 * as no opinion. No hook overrides a deny rule. A rewritten input is parsed and analysed again and then
 * goes through the permission decision like any input.
 */
import type { ToolUseContext } from '../context.ts';
import type { QueryEvent } from '../events.ts';
import type { ContentBlockParam, ToolResultBlockParam } from '../messages.ts';
import type { AnyTool } from '../tool.ts';
import type { HookRunResult } from './types.ts';

/** What PreToolUse hooks decided for one call. */
export type PreToolUseVerdict =
  | { kind: 'none' }
  | { kind: 'deny'; reason: string }
  | {
      kind: 'continue';
      /** 'allow': skip the prompt (trusted hooks only); 'ask': prompt even where a rule allows. */
      permission?: 'allow' | 'ask';
      reason?: string;
      /** The input to use instead, when a hook rewrote it. */
      updatedInput?: Record<string, unknown>;
    };

function emitReports(result: HookRunResult, emit: (e: QueryEvent) => void): void {
  for (const report of result.reports) emit({ type: 'hook-result', report });
}

/** Runs the PreToolUse hooks of a call. */
export async function runPreToolUseHooks(
  tool: AnyTool,
  input: unknown,
  toolUseId: string,
  ctx: ToolUseContext,
  emit: (e: QueryEvent) => void,
): Promise<PreToolUseVerdict> {
  const hooks = ctx.hooks;
  if (!hooks) return { kind: 'none' };
  let result: HookRunResult;
  try {
    result = await hooks.run(
      { hook_event_name: 'PreToolUse', tool_name: tool.name, tool_input: input, tool_use_id: toolUseId },
      {
        toolName: tool.name,
        toolUseId,
        signal: ctx.abortController.signal,
        cwd: ctx.options.cwd,
        permissionMode: ctx.options.permissionMode,
      },
    );
  } catch {
    return { kind: 'none' };
  }
  if (result.reports.length === 0) return { kind: 'none' };
  emitReports(result, emit);
  // A hook that stops (continue: false) refuses the call; the model reads why.
  if (result.stop !== undefined)
    return { kind: 'deny', reason: `A PreToolUse hook stopped this call: ${result.stop}` };
  if (result.blocked !== undefined)
    return { kind: 'deny', reason: `A PreToolUse hook blocked this call: ${result.blocked}` };
  const trustedAllow =
    result.permission === 'allow' &&
    result.reports.some((r) => r.decision === 'allow' && r.source === 'embed');
  const permission = result.permission === 'ask' ? 'ask' : trustedAllow ? 'allow' : undefined;
  return { kind: 'continue', permission, reason: result.permissionReason, updatedInput: result.updatedInput };
}

/** The text of a result's content, for the hook's `tool_response`. */
function responseOf(block: ToolResultBlockParam): unknown {
  if (typeof block.content === 'string' || block.content === undefined)
    return { content: block.content ?? '', is_error: block.is_error === true };
  return { content: block.content, is_error: block.is_error === true };
}

/** A result with a note for the model appended to its content. */
export function withResultNote(block: ToolResultBlockParam, note: string): ToolResultBlockParam {
  const before: ContentBlockParam[] =
    typeof block.content === 'string'
      ? block.content
        ? [{ type: 'text', text: block.content }]
        : []
      : ((block.content ?? []) as ContentBlockParam[]);
  return { ...block, content: [...before, { type: 'text', text: note }] as ToolResultBlockParam['content'] };
}

/**
 * Runs the PostToolUse hooks of a finished call. Returns the result block as the model should see it:
 * unchanged, or with the hooks' feedback (a block reason, additional context) appended.
 */
export async function runPostToolUseHooks(
  tool: AnyTool,
  input: unknown,
  block: ToolResultBlockParam,
  ctx: ToolUseContext,
  emit: (e: QueryEvent) => void,
): Promise<ToolResultBlockParam> {
  const hooks = ctx.hooks;
  if (!hooks) return block;
  let result: HookRunResult;
  try {
    result = await hooks.run(
      {
        hook_event_name: 'PostToolUse',
        tool_name: tool.name,
        tool_input: input,
        tool_response: responseOf(block),
        tool_use_id: block.tool_use_id,
      },
      {
        toolName: tool.name,
        toolUseId: block.tool_use_id,
        signal: ctx.abortController.signal,
        cwd: ctx.options.cwd,
        permissionMode: ctx.options.permissionMode,
      },
    );
  } catch {
    return block;
  }
  if (result.reports.length === 0) return block;
  emitReports(result, emit);
  const notes: string[] = [];
  if (result.blocked !== undefined) notes.push(`PostToolUse hook feedback: ${result.blocked}`);
  for (const c of result.context) notes.push(`PostToolUse hook context: ${c}`);
  return notes.length ? withResultNote(block, notes.join('\n')) : block;
}
