/**
 * Runs a sub-conversation: a new agent id, the same chain one level deeper, its own transcript, its
 * own tool pool, through the same permission engine and model endpoint as its parent. The Agent tool
 * and forked skills reach this module only through a dynamic `import()` inside their `call`: it imports
 * the loop, and the loop's tool pool holds those tools (the cycle Claude Code breaks the same way).
 *
 * Every event of the sub-conversation goes to the parent as progress (`kind: 'subagent'`), with a
 * one-line summary; permission requests among them are labelled with the agent and answered by the
 * user like any other. Esc stops it: its abort signal follows the parent's call.
 */
import { INTERRUPT_MESSAGE, INTERRUPT_MESSAGE_FOR_TOOL_USE } from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import { createContentReplacementState } from '../../core/context.ts';
import type { QueryEvent } from '../../core/events.ts';
import type { MessageParam, Usage } from '../../core/messages.ts';
import { query } from '../../core/query.ts';
import { type AnyTool, findTool, ToolInputError, type ToolProgress } from '../../core/tool.ts';
import { type CanUseToolFn, defaultCanUseTool } from '../../core/tool-execution.ts';

/** How deep sub-agents may nest (the main conversation is depth 0). */
export const MAX_AGENT_DEPTH = 2;
/** Model requests one sub-agent may make before it is stopped (a runaway guard below the loop's). */
export const SUBAGENT_MAX_TURNS = 30;

export interface SubagentSpec {
  /** Agent type name (shown, and in the system prompt). */
  agentType: string;
  /** A short label for prompts and cards (`Explore: find the tests`). */
  label: string;
  /** The task, as the sub-agent's first user message. */
  prompt: string;
  tools: readonly AnyTool[];
  /** Added to the parent's system prompt. */
  instructions: string;
  /** Every call must be read-only (checked on the prepared analysis, before the user is asked). */
  readOnly: boolean;
  /** Messages the conversation starts from, before the prompt (a fork of the parent's). */
  history?: readonly MessageParam[];
}

export interface SubagentUsage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface SubagentResult {
  agentId: string;
  agentType: string;
  /** The sub-agent's final text: what the parent's model reads. */
  text: string;
  usage: SubagentUsage;
  toolUses: number;
  turns: number;
  durationMs: number;
}

const emptyUsage = (): SubagentUsage => ({
  requests: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

function addUsage(total: SubagentUsage, u: Usage): void {
  total.requests++;
  total.inputTokens += u.input_tokens ?? 0;
  total.outputTokens += u.output_tokens ?? 0;
  total.cacheReadTokens += u.cache_read_input_tokens ?? 0;
  total.cacheWriteTokens += u.cache_creation_input_tokens ?? 0;
}

/** The text of the last assistant message (what a sub-agent reports). */
export function finalText(messages: readonly MessageParam[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    const parts =
      typeof m.content === 'string'
        ? [m.content]
        : m.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
    const text = parts.join('\n').trim();
    if (text) return text;
  }
  return '';
}

/** A compact description of a call for the parent's card: `Read src/a.ts`. Never throws. */
function callSummary(tools: readonly AnyTool[], name: string, input: unknown): string {
  const tool = findTool(tools, name);
  if (!tool) return name;
  try {
    const detail = tool.toAutoClassifierInput?.(input as never);
    const text = detail
      ? `${tool.userFacingName(input as never)} ${detail}`
      : tool.userFacingName(input as never);
    return text.length > 160 ? `${text.slice(0, 159)}…` : text;
  } catch {
    return tool.name;
  }
}

/** The one-line summary of a sub-agent event shown on the parent's card, or '' for none. */
function summaryOf(event: QueryEvent, tools: readonly AnyTool[]): string {
  switch (event.type) {
    case 'tool-run-start':
      return callSummary(tools, event.name, event.input);
    case 'permission-request':
      return `waiting for your approval: ${callSummary(tools, event.name, event.input)}`;
    case 'request-start':
      return event.turn === 1 ? 'thinking…' : '';
    default:
      return '';
  }
}

/** The engine's decision, and for a read-only agent a refusal of anything that would change something. */
function agentCanUseTool(base: CanUseToolFn, readOnly: boolean, agentType: string): CanUseToolFn {
  if (!readOnly) return base;
  return async (tool, input, ctx, prepared) => {
    const matcher = prepared?.matcher === 'failed' ? undefined : prepared?.matcher;
    let ro = false;
    try {
      ro = tool.isReadOnly(input as never, matcher) === true;
    } catch {
      ro = false;
    }
    if (!ro) {
      return {
        behavior: 'deny',
        message: `The ${agentType} agent is read-only: ${tool.name} would change something, so it was refused. Report what should change instead.`,
      };
    }
    return base(tool, input, ctx, prepared);
  };
}

/**
 * Runs the sub-conversation to its end and returns its final text and usage. Throws ToolInputError for
 * what the model can act on (depth cap, no runtime, an API error of the sub-conversation); an
 * interrupted run rejects with the parent's abort (the loop turns that into the interrupted result).
 */
export async function runSubagent(
  spec: SubagentSpec,
  ctx: ToolUseContext,
  onProgress?: (progress: ToolProgress) => void,
): Promise<SubagentResult> {
  const started = Date.now();
  const runtime = ctx.options.runtime;
  if (!runtime) {
    throw new ToolInputError(
      'Sub-agents are not available here: this conversation has no model endpoint for them.',
    );
  }
  const depth = ctx.queryTracking.depth + 1;
  if (depth > MAX_AGENT_DEPTH) {
    throw new ToolInputError(
      `Sub-agents may nest at most ${MAX_AGENT_DEPTH} deep, and this one would be at depth ${depth}. Do the task yourself with the tools you have.`,
    );
  }
  const agentId = `agent-${crypto.randomUUID().slice(0, 8)}`;
  // Esc stops the sub-agent with its parent's call; it never outlives the call.
  const controller = new AbortController();
  const parentSignal = ctx.abortController.signal;
  const stop = () => controller.abort(parentSignal.reason);
  if (parentSignal.aborted) stop();
  parentSignal.addEventListener('abort', stop, { once: true });

  const context: ToolUseContext = {
    ...ctx,
    agentId,
    queryTracking: { chainId: ctx.queryTracking.chainId, depth },
    abortController: controller,
    // What the parent read counts: the sub-agent may edit a file its parent read (and not changed since).
    readFileState: new Map(ctx.readFileState),
    contentReplacementState: createContentReplacementState(),
    messages: [],
    toolUseId: undefined,
    options: { ...ctx.options, tools: spec.tools },
  };
  const usage = emptyUsage();
  let toolUses = 0;
  let turns = 0;
  let apiError: string | undefined;
  const emit = (event: QueryEvent) => {
    if (event.type === 'message-end') addUsage(usage, event.usage);
    if (event.type === 'tool-run-start') toolUses++;
    if (event.type === 'request-start') turns = event.turn;
    if (event.type === 'error') apiError = event.error.message;
    const forwarded: QueryEvent =
      event.type === 'permission-request' ? { ...event, agentLabel: spec.label } : event;
    onProgress?.({ kind: 'subagent', agentId, text: summaryOf(event, spec.tools), event: forwarded });
  };

  const messages: MessageParam[] = [
    ...(spec.history ?? []),
    { role: 'user', content: [{ type: 'text', text: spec.prompt }] },
  ];
  try {
    const run = query({
      client: runtime.client,
      model: runtime.model,
      maxTokens: runtime.maxTokens,
      systemPrompt: `${runtime.systemPrompt}\n\n# Sub-agent: ${spec.agentType}\n\n${spec.instructions}`,
      messages,
      tools: spec.tools,
      context,
      schemaCache: runtime.schemaCache,
      canUseTool: agentCanUseTool(runtime.canUseTool ?? defaultCanUseTool, spec.readOnly, spec.agentType),
      resultSpiller: runtime.resultSpiller,
      cacheTtl: runtime.cacheTtl,
      maxTurns: SUBAGENT_MAX_TURNS,
    });
    let step = await run.next();
    while (!step.done) {
      emit(step.value);
      step = await run.next();
    }
    const outcome = step.value;
    if (outcome.reason === 'interrupted') {
      parentSignal.throwIfAborted();
      throw new ToolInputError(`The ${spec.label} sub-agent was interrupted before it finished.`);
    }
    if (outcome.reason === 'error') {
      throw new ToolInputError(
        `The ${spec.label} sub-agent stopped on an API error: ${apiError ?? 'unknown error'}`,
      );
    }
    const text = finalText(outcome.messages.filter((m) => !isInterruptMarker(m)));
    const note =
      outcome.reason === 'max_turns'
        ? `\n\n(The sub-agent was stopped after ${SUBAGENT_MAX_TURNS} requests.)`
        : '';
    return {
      agentId,
      agentType: spec.agentType,
      text: (text || '(The sub-agent finished without a final message.)') + note,
      usage,
      toolUses,
      turns,
      durationMs: Date.now() - started,
    };
  } finally {
    parentSignal.removeEventListener('abort', stop);
  }
}

function isInterruptMarker(m: MessageParam): boolean {
  if (m.role !== 'user' || typeof m.content === 'string') return false;
  return m.content.some(
    (b) => b.type === 'text' && (b.text === INTERRUPT_MESSAGE || b.text === INTERRUPT_MESSAGE_FOR_TOOL_USE),
  );
}
