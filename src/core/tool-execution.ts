/**
 * Runs one tool_use block: find the tool, parse and validate its input, decide permission, call it,
 * map its output. Every failure becomes an is_error tool_result the model can act on; this never
 * throws. Interrupts follow the tool's interruptBehavior: 'abort' tools are stopped at once, 'finish'
 * tools complete their current operation.
 */
import { z } from 'zod';
import { SYNTHETIC_TOOL_RESULT_INTERRUPTED } from './constants.ts';
import type { ToolUseContext } from './context.ts';
import type { PermissionAnswer, QueryEvent } from './events.ts';
import type { ToolResultBlockParam, ToolUseBlockParam } from './messages.ts';
import { userDenialMessage } from './permissions/messages.ts';
import type { PermissionResult } from './permissions/types.ts';
import {
  type AnyTool,
  findTool,
  type ToolResult,
  type ToolResultView,
  type ToolUseMessage,
  textResult,
} from './tool.ts';

/**
 * Decides whether a call may run. The permissions engine implements it; see `defaultCanUseTool`.
 * `checkDeny`, when present, applies the deny rules only: it runs before the tool validates its input
 * (so a denied path is never probed), and returns the deny or null.
 */
export type CanUseToolFn = ((
  tool: AnyTool,
  input: unknown,
  ctx: ToolUseContext,
) => Promise<PermissionResult>) & {
  checkDeny?: (
    tool: AnyTool,
    input: unknown,
    ctx: ToolUseContext,
  ) => Promise<Extract<PermissionResult, { behavior: 'deny' }> | null>;
};

/** Post-processing of a result block (e.g. spilling large results to storage). Never throws. */
export type ResultProcessor = (
  block: ToolResultBlockParam,
  tool: AnyTool,
  ctx: ToolUseContext,
) => Promise<ToolResultBlockParam>;

export interface ToolCallDeps {
  tools: readonly AnyTool[];
  canUseTool: CanUseToolFn;
  processResult?: ResultProcessor;
  emit: (event: QueryEvent) => void;
}

/** A tool_use block with its tool and parsed input (when both are valid). */
export interface PreparedCall {
  block: ToolUseBlockParam;
  tool?: AnyTool;
  parsed?: { success: true; data: unknown } | { success: false; error: z.ZodError };
}

export interface CallOutcome {
  block: ToolResultBlockParam;
  contextModifier?: ToolResult<unknown>['contextModifier'];
  newMessages?: ToolResult<unknown>['newMessages'];
}

/**
 * The decision when a caller wires no permission engine (the loop's own unit tests): the tool's own
 * checkPermissions, where passthrough allows. The agent session always passes the real engine
 * (`createCanUseTool` in permissions/can-use-tool.ts): rules, modes, prompts.
 */
export const defaultCanUseTool: CanUseToolFn = async (tool, input, ctx) => {
  const r = await tool.checkPermissions(input, {
    mode: ctx.options.permissionMode,
    root: ctx.sandbox.root,
    cwd: ctx.options.cwd,
  });
  return r.behavior === 'passthrough' ? { behavior: 'allow' } : r;
};

export function prepareCall(block: ToolUseBlockParam, tools: readonly AnyTool[]): PreparedCall {
  const tool = findTool(tools, block.name);
  if (!tool) return { block };
  const parsed = tool.inputSchema.safeParse(block.input ?? {});
  return {
    block,
    tool,
    parsed: parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error },
  };
}

/** True when the call can run in a concurrent batch: known tool, valid input, concurrency-safe. */
export function isCallConcurrencySafe(call: PreparedCall): boolean {
  if (!call.tool || !call.parsed?.success) return false;
  try {
    return call.tool.isConcurrencySafe(call.parsed.data) === true;
  } catch {
    return false;
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    if (err.name === 'ToolInputError' || err.name === 'SandboxError') return err.message;
    return `Error: ${err.message || err.name}`;
  }
  return `Error: ${String(err)}`;
}

function safeView(tool: AnyTool, input: unknown): ToolUseMessage {
  try {
    return tool.renderToolUseMessage?.(input as never) ?? { title: tool.userFacingName(input as never) };
  } catch {
    return { title: tool.name };
  }
}

/** `promise`, or 'aborted' as soon as `signal` aborts; the listener is removed when either settles. */
async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | 'aborted'> {
  if (signal.aborted) return 'aborted';
  let remove = () => {};
  const aborted = new Promise<'aborted'>((resolve) => {
    const fn = () => resolve('aborted');
    signal.addEventListener('abort', fn, { once: true });
    remove = () => signal.removeEventListener('abort', fn);
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    remove();
  }
}

/** Resolves when the signal aborts (never rejects). */
function onAbort(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/**
 * Runs one prepared call to completion (or interruption) and emits its events.
 * Never throws; always returns exactly one tool_result for the block.
 */
export async function runToolCall(
  call: PreparedCall,
  ctx: ToolUseContext,
  deps: ToolCallDeps,
): Promise<CallOutcome> {
  const { block } = call;
  const started = Date.now();
  const userSignal = ctx.abortController.signal;
  const finish = (
    result: ToolResultBlockParam,
    status: 'done' | 'error' | 'interrupted',
    view?: ToolResultView,
  ): ToolResultBlockParam => {
    deps.emit({
      type: 'tool-result',
      toolUseId: block.id,
      name: block.name,
      isError: result.is_error === true,
      block: result,
      view,
      status,
      durationMs: Date.now() - started,
    });
    return result;
  };
  const interrupted = (): CallOutcome => ({
    block: finish(textResult(block.id, SYNTHETIC_TOOL_RESULT_INTERRUPTED, true), 'interrupted'),
  });

  if (userSignal.aborted) return interrupted();
  const { tool, parsed } = call;
  if (!tool) {
    // Name the built-ins only: with hundreds of MCP tools a full list would flood the context.
    const builtIns = deps.tools.filter((t) => !t.isMcp).map((t) => t.name);
    const mcpCount = deps.tools.length - builtIns.length;
    const more = mcpCount > 0 ? ` (plus ${mcpCount} MCP tools: find them with ToolSearch)` : '';
    return {
      block: finish(
        textResult(
          block.id,
          `Error: No such tool available: ${block.name}. Available tools: ${builtIns.join(', ')}${more}`,
          true,
        ),
        'error',
      ),
    };
  }
  if (!parsed?.success) {
    const issues = parsed ? z.prettifyError(parsed.error) : 'input missing';
    const text = `InputValidationError: ${tool.name} failed due to the following issue${
      parsed && parsed.error.issues.length > 1 ? 's' : ''
    }:\n${issues}`;
    return { block: finish(textResult(block.id, text, true), 'error') };
  }
  let input = parsed.data;
  const callCtx: ToolUseContext = { ...ctx, toolUseId: block.id };

  // Deny rules come before validation: validating reads the file system and its errors would leak it.
  let denied: PermissionResult | null = null;
  try {
    denied = (await deps.canUseTool.checkDeny?.(tool, input, callCtx)) ?? null;
  } catch (err) {
    denied = { behavior: 'deny', message: `Permission check failed: ${errorText(err)}` };
  }
  if (denied?.behavior === 'deny')
    return { block: finish(textResult(block.id, denied.message, true), 'error') };

  try {
    const invalid = await tool.validateInput?.(input as never, callCtx);
    if (invalid) return { block: finish(textResult(block.id, invalid, true), 'error') };
  } catch (err) {
    return { block: finish(textResult(block.id, errorText(err), true), 'error') };
  }

  // Permission: no tool runs without a decision.
  let decision: PermissionResult;
  try {
    decision = await deps.canUseTool(tool, input, callCtx);
  } catch (err) {
    decision = { behavior: 'deny', message: `Permission check failed: ${errorText(err)}` };
  }
  // A custom canUseTool with no opinion does not let the call through: the user decides.
  if (decision.behavior === 'passthrough') {
    decision = { behavior: 'ask', message: decision.message ?? `${tool.name} is not allowed by a rule yet.` };
  }
  if (decision.behavior === 'ask') {
    const answer = await Promise.race([
      new Promise<PermissionAnswer>((respond) =>
        deps.emit({
          type: 'permission-request',
          toolUseId: block.id,
          name: tool.name,
          input,
          view: safeView(tool, input),
          message: decision.behavior === 'ask' ? decision.message : '',
          suggestedRule: decision.behavior === 'ask' ? decision.suggestedRule : undefined,
          respond,
        }),
      ),
      onAbort(userSignal),
    ]);
    if (answer === 'aborted') return interrupted();
    decision =
      answer.decision === 'deny'
        ? { behavior: 'deny', message: userDenialMessage(tool.name, answer.feedback), reason: 'user' }
        : { behavior: 'allow' };
  }
  if (decision.behavior !== 'allow') {
    const message = decision.behavior === 'deny' ? decision.message : `${tool.name} was not allowed to run.`;
    return { block: finish(textResult(block.id, message, true), 'error') };
  }
  if (decision.updatedInput !== undefined) input = decision.updatedInput;
  if (userSignal.aborted) return interrupted();

  // 'abort' tools share the user's signal; 'finish' tools get their own so they can complete.
  const behavior = tool.interruptBehavior();
  const callController = new AbortController();
  const link = () => callController.abort(userSignal.reason);
  if (behavior === 'abort') userSignal.addEventListener('abort', link, { once: true });
  const runCtx: ToolUseContext = { ...callCtx, abortController: callController };

  deps.emit({
    type: 'tool-run-start',
    toolUseId: block.id,
    name: tool.name,
    input,
    view: safeView(tool, input),
  });
  try {
    const running = tool.call(input as never, runCtx, (p) =>
      deps.emit({ type: 'tool-progress', toolUseId: block.id, kind: p.kind, text: p.text }),
    );
    const result = behavior === 'abort' ? await raceAbort(running, callController.signal) : await running;
    if (result === 'aborted') {
      running.catch(() => {});
      return interrupted();
    }
    let out = tool.mapToolResultToToolResultBlockParam(result.data, block.id);
    if (deps.processResult) out = await deps.processResult(out, tool, runCtx);
    let view: ToolResultView | undefined;
    try {
      view = tool.renderToolResultMessage?.(result.data, input as never);
    } catch {
      view = undefined;
    }
    return {
      block: finish(out, out.is_error ? 'error' : 'done', view),
      contextModifier: result.contextModifier,
      newMessages: result.newMessages,
    };
  } catch (err) {
    if (behavior === 'abort' && userSignal.aborted) return interrupted();
    return { block: finish(textResult(block.id, errorText(err), true), 'error') };
  } finally {
    userSignal.removeEventListener('abort', link);
  }
}
