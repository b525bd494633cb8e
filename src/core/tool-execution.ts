/**
 * One tool_use block through named stages, each one function with one job:
 *
 * 1. `prepareCall`: find the tool, parse its input, analyse it once (`preparePermissionMatcher`: for
 *    Bash the shell analysis), and from that analysis whether it is read-only and concurrency-safe.
 * 2. `authorize`: the permission decision (one call of the engine), then the input's own checks, then
 *    the user's answer when the decision asks.
 * 3. `execute`: the tool's `call`, with abort and progress.
 * 4. `finalize`: the result mapped for the model, post-processed (spilled), and its view for the UI.
 *
 * Hooks run at the stage edges (hooks/tool-hooks.ts): PreToolUse between prepare and authorize (it may
 * deny, ask, allow or rewrite the input: a rewritten input is prepared again), PostToolUse after finalize.
 *
 * Every failure becomes an is_error tool_result the model can act on; nothing here throws. Interrupts
 * follow the tool's interruptBehavior: 'abort' tools are stopped at once, 'finish' tools complete
 * their current operation.
 */
import { z } from 'zod';
import { SYNTHETIC_TOOL_RESULT_INTERRUPTED } from './constants.ts';
import type { ToolUseContext } from './context.ts';
import type { PermissionAnswer, QueryEvent } from './events.ts';
import { runPostToolUseHooks, runPreToolUseHooks } from './hooks/tool-hooks.ts';
import {
  guardResultBlock,
  refusedInputMessage,
  refusedInputProblem,
  toolInputProblem,
} from './input-shape.ts';
import type { ToolResultBlockParam, ToolUseBlockParam } from './messages.ts';
import { userDenialMessage } from './permissions/messages.ts';
import { type PreparedMatcher, prepareMatcher } from './permissions/prepare-call.ts';
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
 * Decides whether a call may run: the permission engine (`createCanUseTool` in
 * permissions/can-use-tool.ts), or `defaultCanUseTool`. `prepared` carries the matcher the prepare
 * stage made, so the call is analysed once.
 */
export type CanUseToolFn = (
  tool: AnyTool,
  input: unknown,
  ctx: ToolUseContext,
  prepared?: { matcher: PreparedMatcher },
) => Promise<PermissionResult>;

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

/** A tool_use block after the prepare stage. */
export interface PreparedCall {
  block: ToolUseBlockParam;
  tool?: AnyTool;
  parsed?: { success: true; data: unknown } | { success: false; error: z.ZodError };
  /** The input's shape was refused before parsing (too deep, too long, lone surrogates): why. */
  refused?: string;
  /** What the tool's analysis made of the input (Bash: the shell analysis), made once. */
  matcher?: PreparedMatcher;
  /** From the analysis: the call changes nothing. */
  readOnly: boolean;
  /** From the analysis: the call may run beside others of its batch. */
  concurrencySafe: boolean;
}

export interface CallOutcome {
  block: ToolResultBlockParam;
  contextModifier?: ToolResult<unknown>['contextModifier'];
  newMessages?: ToolResult<unknown>['newMessages'];
}

/**
 * The decision when a caller wires no permission engine (the loop's own unit tests): the tool's own
 * checkPermissions, where passthrough allows. The agent session always passes the real engine.
 */
export const defaultCanUseTool: CanUseToolFn = async (tool, input, ctx) => {
  const r = await tool.checkPermissions(input, {
    mode: ctx.options.permissionMode,
    root: ctx.sandbox.root,
    cwd: ctx.options.cwd,
  });
  return r.behavior === 'passthrough' ? { behavior: 'allow' } : r;
};

/** A tool's boolean answer, false when it throws. */
function safely(fn: () => boolean): boolean {
  try {
    return fn() === true;
  } catch {
    return false;
  }
}

/** Stage 1: find the tool, parse the input, analyse it once. Never throws. */
export async function prepareCall(
  block: ToolUseBlockParam,
  tools: readonly AnyTool[],
): Promise<PreparedCall> {
  const tool = findTool(tools, block.name);
  if (!tool) return { block, readOnly: false, concurrencySafe: false };
  // A hostile shape never reaches the schema (a recursive parse of 10,000 levels overflows the stack).
  const refused = refusedInputProblem(block.input) ?? toolInputProblem(block.input);
  if (refused !== null) return { block, tool, refused, readOnly: false, concurrencySafe: false };
  const result = tool.inputSchema.safeParse(block.input ?? {});
  if (!result.success) {
    return {
      block,
      tool,
      parsed: { success: false, error: result.error },
      readOnly: false,
      concurrencySafe: false,
    };
  }
  const data = result.data;
  const matcher = await prepareMatcher(tool, data);
  const analysed = matcher === 'failed' ? undefined : matcher;
  return {
    block,
    tool,
    parsed: { success: true, data },
    matcher,
    readOnly: matcher !== 'failed' && safely(() => tool.isReadOnly(data, analysed)),
    concurrencySafe: matcher !== 'failed' && safely(() => tool.isConcurrencySafe(data, analysed)),
  };
}

/** True when the call can run in a concurrent batch: known tool, valid input, concurrency-safe. */
export function isCallConcurrencySafe(call: PreparedCall): boolean {
  return call.tool !== undefined && call.parsed?.success === true && call.concurrencySafe;
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

/**
 * After Esc, how long a tool that reportsWhenInterrupted is given to answer its abort with a result of
 * its own (Bash returns what the command printed so far, within ~110 ms even when the sandbox worker has
 * to be ended). A tool that does not answer in time gets the synthetic interrupted result.
 */
export const INTERRUPTED_RESULT_GRACE_MS = 400;

/** The value `promise` fulfils with within `ms`; undefined when it rejects or takes longer. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
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

/** What the authorize stage decided: run with this input, or end the call with this result. */
type Authorization =
  | { run: true; input: unknown }
  | { run: false; text: string; status: 'error' | 'interrupted' };

/**
 * Stage 2: may the call run? One decision of the permission engine (deny rules, ask rules, the tool's
 * own check, the mode, allow rules); a denied call ends there, before the tool validates its input
 * (validating reads the file system, and a denied path must not be probed). A call that passes is
 * validated before anyone is asked, so the user is never asked about a call that cannot run; then an
 * ask waits for the user's answer. Never throws.
 */
export async function authorize(
  call: PreparedCall & { tool: AnyTool },
  input: unknown,
  ctx: ToolUseContext,
  deps: ToolCallDeps,
  hook?: { permission?: 'allow' | 'ask'; reason?: string },
): Promise<Authorization> {
  const { tool, block } = call;
  let decision: PermissionResult;
  try {
    decision = await deps.canUseTool(tool, input, ctx, { matcher: call.matcher });
  } catch (err) {
    decision = { behavior: 'deny', message: `Permission check failed: ${errorText(err)}` };
  }
  if (decision.behavior === 'deny') return { run: false, text: decision.message, status: 'error' };
  // A PreToolUse hook's word (a deny never reaches here): 'ask' prompts even where a rule allows,
  // 'allow' (a trusted hook) skips the prompt.
  if (hook?.permission === 'ask' && decision.behavior === 'allow') {
    decision = {
      behavior: 'ask',
      message: hook.reason ?? `A PreToolUse hook asks you to confirm this ${tool.name} call.`,
    };
  } else if (hook?.permission === 'allow' && decision.behavior !== 'allow') {
    decision = { behavior: 'allow' };
  }
  try {
    const invalid = await tool.validateInput?.(input as never, ctx);
    if (invalid) return { run: false, text: invalid, status: 'error' };
  } catch (err) {
    return { run: false, text: errorText(err), status: 'error' };
  }
  // A custom canUseTool with no opinion does not let the call through: the user decides.
  if (decision.behavior === 'passthrough') {
    decision = { behavior: 'ask', message: decision.message ?? `${tool.name} is not allowed by a rule yet.` };
  }
  if (decision.behavior === 'ask') {
    const asked = decision;
    const answer = await raceAbort(
      new Promise<PermissionAnswer>((respond) =>
        deps.emit({
          type: 'permission-request',
          toolUseId: block.id,
          name: tool.name,
          input,
          view: safeView(tool, input),
          message: asked.message,
          suggestedRule: asked.suggestedRule,
          ...(safely(() => tool.isDestructive(input as never, analysedMatcher(call)))
            ? { destructive: true }
            : {}),
          respond,
        }),
      ),
      ctx.abortController.signal,
    );
    if (answer === 'aborted')
      return { run: false, text: SYNTHETIC_TOOL_RESULT_INTERRUPTED, status: 'interrupted' };
    if (answer.decision === 'deny') {
      return { run: false, text: userDenialMessage(tool.name, answer.feedback), status: 'error' };
    }
    return approvedInput(tool, input, answer, ctx);
  }
  return { run: true, input: decision.updatedInput !== undefined ? decision.updatedInput : input };
}

/** The matcher the prepare stage made, or undefined when there is none or it failed. */
function analysedMatcher(call: PreparedCall): unknown {
  return call.matcher === 'failed' ? undefined : call.matcher;
}

/**
 * What an approval at the prompt lets run: the input the user filled in (checked against the schema
 * again, so a prompt can never run what the tool would refuse), and the permission mode it switches
 * to, applied through the app state before the call runs.
 */
function approvedInput(
  tool: AnyTool,
  input: unknown,
  answer: Extract<PermissionAnswer, { decision: 'allow-once' | 'allow-always' }>,
  ctx: ToolUseContext,
): Authorization {
  let runWith = input;
  if (answer.decision === 'allow-once' && answer.updatedInput !== undefined) {
    const parsed = tool.inputSchema.safeParse(answer.updatedInput);
    if (!parsed.success) {
      return {
        run: false,
        text: `The answer given at the prompt does not fit ${tool.name}'s input: ${z.prettifyError(parsed.error)}`,
        status: 'error',
      };
    }
    runWith = parsed.data;
  }
  const mode = answer.decision === 'allow-once' ? answer.mode : undefined;
  if (mode) ctx.setAppState((prev) => ({ ...prev, permissionMode: mode }));
  return { run: true, input: runWith };
}

/**
 * Stage 3: runs the tool. 'abort' tools share the user's signal; 'finish' tools get their own so they
 * can complete. Returns the result, 'aborted', or the error it threw.
 */
async function execute(
  tool: AnyTool,
  input: unknown,
  ctx: ToolUseContext,
  deps: ToolCallDeps,
  toolUseId: string,
): Promise<
  { result: ToolResult<unknown>; ctx: ToolUseContext; interrupted?: true } | 'aborted' | { error: unknown }
> {
  const userSignal = ctx.abortController.signal;
  const behavior = tool.interruptBehavior();
  const callController = new AbortController();
  const link = () => callController.abort(userSignal.reason);
  if (behavior === 'abort') userSignal.addEventListener('abort', link, { once: true });
  const runCtx: ToolUseContext = { ...ctx, abortController: callController };
  deps.emit({ type: 'tool-run-start', toolUseId, name: tool.name, input, view: safeView(tool, input) });
  try {
    const running = tool.call(input as never, runCtx, (p) =>
      deps.emit(
        p.kind === 'subagent'
          ? { type: 'subagent-event', toolUseId, agentId: p.agentId, event: p.event }
          : { type: 'tool-progress', toolUseId, kind: p.kind, text: p.text },
      ),
    );
    const result = behavior === 'abort' ? await raceAbort(running, callController.signal) : await running;
    if (result === 'aborted') {
      // Heard out briefly: a tool that stops at once returns what it did so far (a command's output).
      const late = tool.reportsWhenInterrupted
        ? await settledWithin(running, INTERRUPTED_RESULT_GRACE_MS)
        : undefined;
      if (late) return { result: late, ctx: runCtx, interrupted: true };
      running.catch(() => {});
      return 'aborted';
    }
    return { result, ctx: runCtx };
  } catch (error) {
    if (behavior === 'abort' && userSignal.aborted) return 'aborted';
    return { error };
  } finally {
    userSignal.removeEventListener('abort', link);
  }
}

/** Stage 4: the result as the model sees it (mapped, post-processed) and as the UI shows it. */
async function finalize(
  tool: AnyTool,
  input: unknown,
  result: ToolResult<unknown>,
  ctx: ToolUseContext,
  deps: ToolCallDeps,
  toolUseId: string,
): Promise<{ block: ToolResultBlockParam; view?: ToolResultView }> {
  let block = tool.mapToolResultToToolResultBlockParam(result.data, toolUseId);
  if (deps.processResult) block = await deps.processResult(block, tool, ctx);
  let view: ToolResultView | undefined;
  try {
    view = tool.renderToolResultMessage?.(result.data, input as never);
  } catch {
    view = undefined;
  }
  return { block, view };
}

/** Why a prepared call cannot go further (unknown tool, invalid input), as the model should read it. */
function preparedProblem(call: PreparedCall, tools: readonly AnyTool[]): string | null {
  const { block, tool, parsed } = call;
  if (!tool) {
    // Name the built-ins only: with hundreds of MCP tools a full list would flood the context.
    const builtIns = tools.filter((t) => !t.isMcp).map((t) => t.name);
    const mcpCount = tools.length - builtIns.length;
    const more = mcpCount > 0 ? ` (plus ${mcpCount} MCP tools: find them with ToolSearch)` : '';
    return `Error: No such tool available: ${block.name}. Available tools: ${builtIns.join(', ')}${more}`;
  }
  if (call.refused !== undefined) return refusedInputMessage(tool.name, call.refused);
  if (!parsed?.success) {
    const issues = parsed ? z.prettifyError(parsed.error) : 'input missing';
    const plural = parsed && parsed.error.issues.length > 1 ? 's' : '';
    return `InputValidationError: ${tool.name} failed due to the following issue${plural}:\n${issues}`;
  }
  return null;
}

/**
 * Runs one prepared call through authorize → execute → finalize and emits its events. Never throws;
 * always returns exactly one tool_result for the block.
 */
export async function runToolCall(
  call: PreparedCall,
  ctx: ToolUseContext,
  deps: ToolCallDeps,
): Promise<CallOutcome> {
  const { block } = call;
  const started = Date.now();
  const finish = (
    result: ToolResultBlockParam,
    status: 'done' | 'error' | 'interrupted',
    view?: ToolResultView,
    callView?: ToolUseMessage,
  ) => {
    result = guardResultBlock(result);
    deps.emit({
      type: 'tool-result',
      toolUseId: block.id,
      name: block.name,
      isError: result.is_error === true,
      block: result,
      view,
      ...(callView ? { callView } : {}),
      status,
      durationMs: Date.now() - started,
    });
    return result;
  };
  const interrupted = (): CallOutcome => ({
    block: finish(textResult(block.id, SYNTHETIC_TOOL_RESULT_INTERRUPTED, true), 'interrupted'),
  });
  if (ctx.abortController.signal.aborted) return interrupted();
  const problem = preparedProblem(call, deps.tools);
  if (problem !== null || !call.tool || !call.parsed?.success) {
    return { block: finish(textResult(block.id, problem ?? 'input missing', true), 'error') };
  }
  const callCtx: ToolUseContext = { ...ctx, toolUseId: block.id };

  // Stage edge prepare → authorize: PreToolUse hooks.
  let prepared: PreparedCall = call;
  const pre = await runPreToolUseHooks(call.tool, call.parsed.data, block.id, callCtx, deps.emit);
  if (pre.kind === 'deny') {
    const callView = safeView(call.tool, call.parsed.data);
    return { block: finish(textResult(block.id, pre.reason, true), 'error', undefined, callView) };
  }
  if (callCtx.abortController.signal.aborted) return interrupted();
  if (pre.kind === 'continue' && pre.updatedInput !== undefined) {
    // The rewritten input is parsed and analysed again; the permission decision below sees it.
    prepared = await prepareCall({ ...block, input: pre.updatedInput }, deps.tools);
    const invalid = preparedProblem(prepared, deps.tools);
    if (invalid !== null || !prepared.tool || !prepared.parsed?.success) {
      const why = `A PreToolUse hook rewrote the input into one that cannot run. ${invalid ?? 'input missing'}`;
      return { block: finish(textResult(block.id, why, true), 'error') };
    }
  }
  const tool = prepared.tool ?? call.tool;
  const input = prepared.parsed?.success ? prepared.parsed.data : call.parsed.data;
  const hookWord = pre.kind === 'continue' ? { permission: pre.permission, reason: pre.reason } : undefined;

  const auth = await authorize({ ...prepared, tool }, input, callCtx, deps, hookWord);
  if (!auth.run) {
    return auth.status === 'interrupted'
      ? interrupted()
      : { block: finish(textResult(block.id, auth.text, true), 'error', undefined, safeView(tool, input)) };
  }
  if (callCtx.abortController.signal.aborted) return interrupted();

  const ran = await execute(tool, auth.input, callCtx, deps, block.id);
  if (ran === 'aborted') return interrupted();
  if ('error' in ran) return { block: finish(textResult(block.id, errorText(ran.error), true), 'error') };
  try {
    const out = await finalize(tool, auth.input, ran.result, ran.ctx, deps, block.id);
    if (ran.interrupted) {
      // What the tool did before it stopped, then the interruption (no PostToolUse hooks: it did not finish).
      const content = [
        ...contentBlocks(out.block.content),
        { type: 'text' as const, text: SYNTHETIC_TOOL_RESULT_INTERRUPTED },
      ];
      return {
        block: finish({ ...out.block, content, is_error: true }, 'interrupted', out.view),
        contextModifier: ran.result.contextModifier,
      };
    }
    // Stage edge after finalize: PostToolUse hooks may add feedback for the model.
    const resultBlock = await runPostToolUseHooks(tool, auth.input, out.block, callCtx, deps.emit);
    return {
      block: finish(resultBlock, out.block.is_error ? 'error' : 'done', out.view),
      contextModifier: ran.result.contextModifier,
      newMessages: ran.result.newMessages,
    };
  } catch (err) {
    return { block: finish(textResult(block.id, errorText(err), true), 'error') };
  }
}

/** A tool_result's content as blocks (a string is one text block). */
function contentBlocks(
  content: ToolResultBlockParam['content'],
): Exclude<ToolResultBlockParam['content'], string | undefined> {
  if (content === undefined) return [];
  return typeof content === 'string' ? (content ? [{ type: 'text', text: content }] : []) : content;
}
