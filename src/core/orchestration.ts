/**
 * Scheduling of one assistant message's tool calls. Every call is prepared first (parsed and analysed
 * once, see prepareCall); consecutive calls that are concurrency-safe (known tool, valid input, the
 * analysis says so) form one batch and run together, at most MAX_TOOL_CONCURRENCY at a time; every
 * other call runs alone, in order. Results keep tool_use order. Context modifiers are applied in block
 * order after each batch.
 */
import { Channel } from './channel.ts';
import { MAX_TOOL_CONCURRENCY } from './constants.ts';
import type { ToolUseContext } from './context.ts';
import type { QueryEvent } from './events.ts';
import type { MessageParam, ToolResultBlockParam, ToolUseBlockParam } from './messages.ts';
import type { AnyTool } from './tool.ts';
import {
  type CallOutcome,
  type CanUseToolFn,
  isCallConcurrencySafe,
  type PreparedCall,
  prepareCall,
  type ResultProcessor,
  runToolCall,
} from './tool-execution.ts';

export interface Batch {
  concurrent: boolean;
  calls: PreparedCall[];
}

/** Prepares every call and splits them into batches: runs of concurrency-safe calls, and single unsafe calls. */
export async function partitionToolCalls(
  blocks: readonly ToolUseBlockParam[],
  tools: readonly AnyTool[],
): Promise<Batch[]> {
  const batches: Batch[] = [];
  const calls = await Promise.all(blocks.map((block) => prepareCall(block, tools)));
  for (const call of calls) {
    const safe = isCallConcurrencySafe(call);
    const last = batches[batches.length - 1];
    if (safe && last?.concurrent) last.calls.push(call);
    else batches.push({ concurrent: safe, calls: [call] });
  }
  return batches;
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep item order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface RunToolCallsParams {
  blocks: readonly ToolUseBlockParam[];
  tools: readonly AnyTool[];
  context: ToolUseContext;
  canUseTool: CanUseToolFn;
  processResult?: ResultProcessor;
  /** Forces every call to run alone (benchmarks compare against this). */
  serial?: boolean;
}

export interface ToolCallsOutcome {
  /** One result per tool_use, in block order. */
  results: ToolResultBlockParam[];
  /** Messages tools asked to add after the results. */
  newMessages: MessageParam[];
  /** The context after every modifier was applied. */
  context: ToolUseContext;
}

/**
 * Runs every call of one assistant message, yielding tool events as they happen, and returns the
 * results in block order. Never throws.
 */
export async function* runToolCalls(
  params: RunToolCallsParams,
): AsyncGenerator<QueryEvent, ToolCallsOutcome> {
  let context = params.context;
  const batches = params.serial
    ? await Promise.all(
        params.blocks.map(async (b) => ({ concurrent: false, calls: [await prepareCall(b, params.tools)] })),
      )
    : await partitionToolCalls(params.blocks, params.tools);
  const byId = new Map<string, ToolResultBlockParam>();
  const newMessages: MessageParam[] = [];

  for (const batch of batches) {
    const channel = new Channel<QueryEvent>();
    const deps = {
      tools: params.tools,
      canUseTool: params.canUseTool,
      processResult: params.processResult,
      emit: (e: QueryEvent) => channel.push(e),
    };
    const batchContext = context;
    const done = mapLimit(batch.calls, batch.concurrent ? MAX_TOOL_CONCURRENCY : 1, (call) =>
      runToolCall(call, batchContext, deps),
    ).finally(() => channel.close());
    for await (const event of channel) yield event;
    const outcomes: CallOutcome[] = await done;
    outcomes.forEach((o, i) => {
      byId.set(batch.calls[i].block.id, o.block);
      if (o.newMessages) newMessages.push(...o.newMessages);
    });
    // Modifiers in block order, after the batch; only tools that are not concurrency-safe may change
    // the context (a concurrent batch has no order its modifiers could follow).
    for (const o of outcomes) {
      if (!batch.concurrent && o.contextModifier) {
        try {
          context = o.contextModifier(context);
        } catch {
          // A faulty modifier must not break the loop; the context stays as it was.
        }
      }
    }
  }
  return { results: params.blocks.map((b) => byId.get(b.id) as ToolResultBlockParam), newMessages, context };
}
