/**
 * The agent loop. One user prompt → model requests and tool runs until the model stops calling tools,
 * the user interrupts, an API error ends the turn, or MAX_TURNS is reached. An async generator of
 * QueryEvents; it returns the final transcript. It never throws: failures are `error` events, and the
 * transcript it returns is always valid for the next request.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { SchemaCache } from './api-schema.ts';
import { type ContextTracker, recordUsage } from './compaction/estimate.ts';
import { type ContextSettings, manageContext } from './compaction/manage.ts';
import { isPromptTooLong } from './compaction/summarize.ts';
import {
  INTERRUPT_MESSAGE,
  INTERRUPT_MESSAGE_FOR_TOOL_USE,
  MAX_REPEATED_TOOL_FAILURES,
  MAX_STOP_HOOK_CONTINUES,
  MAX_STREAM_RETRIES,
  MAX_TURNS,
  REPEATED_FAILURE_MESSAGE,
  STREAM_RETRY_BASE_MS,
} from './constants.ts';
import type { ToolUseContext } from './context.ts';
import {
  createDeferredToolsState,
  type DeferredToolsState,
  definitionResolver,
  isToolReferenceRejection,
  mapToolResults,
  referencesToPortable,
  withDeferredToolsAnnouncement,
} from './deferred-tools.ts';
import { messageOf } from './errors.ts';
import type { QueryEvent } from './events.ts';
import { guardContent } from './input-shape.ts';
import { RepeatedFailures } from './loop-guard.ts';
import {
  ensureToolResultPairing,
  type MessageParam,
  responseBlockToParam,
  toolUses,
  withUserText,
} from './messages.ts';
import { classifyStreamError, isRetryableStreamError } from './model/anthropic.ts';
import { streamReply } from './model/reply-stream.ts';
import { runToolCalls } from './orchestration.ts';
import { buildRequestBody, requestBetas, type ThinkingSetting } from './request.ts';
import type { AnyTool } from './tool.ts';
import { type CanUseToolFn, defaultCanUseTool, type ResultProcessor } from './tool-execution.ts';
import type { ResultSpiller } from './tool-results.ts';

export interface QueryParams {
  client: Anthropic;
  model: string;
  maxTokens: number;
  systemPrompt: string;
  /** The transcript, ending with the new user message. Not mutated. */
  messages: readonly MessageParam[];
  /** A fixed pool, in cache order. Give this or `getTools`. */
  tools?: readonly AnyTool[];
  /**
   * The pool, evaluated before every request (MCP tools come and go mid-session), in cache order:
   * built-ins sorted, then MCP tools sorted. Wins over `tools`.
   */
  getTools?: () => readonly AnyTool[];
  context: ToolUseContext;
  schemaCache: SchemaCache;
  maxTurns?: number;
  canUseTool?: CanUseToolFn;
  processResult?: ResultProcessor;
  cacheTtl?: '5m' | '1h';
  /** Seen before each request (e.g. to add reminders); returns the messages to send. */
  prepareMessages?: (messages: MessageParam[]) => MessageParam[];
  /** The session's deferred-tool state (ToolSearch mode, definitions of discovered tools). Default: fresh, 'auto'. */
  deferredTools?: DeferredToolsState;
  /** Spills large results to storage: per tool, then per message budget. */
  resultSpiller?: ResultSpiller;
  /** Extended thinking with this budget; absent: off. */
  thinking?: ThinkingSetting;
  /**
   * Context management (the window, auto-compaction): old tool results cleared and the conversation
   * summarized before a request that would pass the threshold, and once after a "prompt is too long".
   * Absent: none.
   */
  contextSettings?: ContextSettings;
  /** The session's measurement of its context, updated after every reply (kept across turns). */
  contextTracker?: ContextTracker;
  /** The loop guard: this many identical failing calls end the turn (default MAX_REPEATED_TOOL_FAILURES; 0: off). */
  maxRepeatedFailures?: number;
}

export type QueryEndReason = Extract<QueryEvent, { type: 'turn-end' }>['reason'];

export interface QueryOutcome {
  messages: MessageParam[];
  reason: QueryEndReason;
  context: ToolUseContext;
}

function endReason(stop: string | null): QueryEndReason {
  switch (stop) {
    case 'end_turn':
    case 'stop_sequence':
    case 'max_tokens':
    case 'refusal':
    case 'pause_turn':
      return stop;
    default:
      return 'other';
  }
}

export async function* query(params: QueryParams): AsyncGenerator<QueryEvent, QueryOutcome> {
  const maxTurns = params.maxTurns ?? MAX_TURNS;
  const canUseTool = params.canUseTool ?? defaultCanUseTool;
  const deferral = params.deferredTools ?? createDeferredToolsState();
  const currentPool = (): readonly AnyTool[] => params.getTools?.() ?? params.tools ?? [];
  let context = params.context;
  const signal = () => context.abortController.signal;
  let messages = ensureToolResultPairing(params.messages);

  const interrupt = (forToolUse: boolean): QueryEvent => {
    messages = withUserText(messages, forToolUse ? INTERRUPT_MESSAGE_FOR_TOOL_USE : INTERRUPT_MESSAGE);
    return { type: 'user-message', message: messages[messages.length - 1] };
  };

  /** Stream retries of the current request (reset once a reply completes). */
  let streamRetries = 0;
  /** A "prompt is too long" was answered with a compaction once this turn: the next one ends it. */
  let overflowCompacted = false;
  /** Times a Stop hook sent the model back to work. */
  let stopContinues = 0;
  const failures = new RepeatedFailures(params.maxRepeatedFailures ?? MAX_REPEATED_TOOL_FAILURES);
  const build = (pool: readonly AnyTool[]) => {
    // Deferred tools that came or went are announced in the transcript itself (tools stay byte-stable).
    messages = withDeferredToolsAnnouncement(ensureToolResultPairing(messages), pool);
    const toSend = params.prepareMessages ? params.prepareMessages(messages) : messages;
    return buildRequestBody({
      model: params.model,
      maxTokens: params.maxTokens,
      systemPrompt: params.systemPrompt,
      tools: pool,
      messages: toSend,
      schemaCache: params.schemaCache,
      cacheTtl: params.cacheTtl,
      deferral,
      thinking: params.thinking,
    });
  };
  /** Clears and compacts when needed (or when forced); says whether the transcript was replaced. */
  async function* manage(
    pool: readonly AnyTool[],
    body: ReturnType<typeof build>,
    force?: 'overflow',
  ): AsyncGenerator<QueryEvent, { changed: boolean }> {
    if (!params.contextSettings) return { changed: false };
    const managed = yield* manageContext({
      settings: params.contextSettings,
      tracker: params.contextTracker,
      body,
      messages,
      force,
      compact: {
        client: params.client,
        model: params.model,
        systemPrompt: params.systemPrompt,
        pool,
        schemaCache: params.schemaCache,
        deferral,
        cacheTtl: params.cacheTtl,
        thinking: params.thinking,
        signal: signal(),
      },
    });
    if (managed.changed) {
      messages = managed.messages;
      if (params.contextTracker) params.contextTracker.measured = undefined;
    }
    // A compaction that failed this turn is not tried again when the API then refuses the request.
    if (managed.failed) overflowCompacted = true;
    return managed;
  }
  for (let turn = 1; turn <= maxTurns; turn++) {
    if (signal().aborted) {
      yield interrupt(false);
      yield { type: 'turn-end', reason: 'interrupted' };
      return { messages, reason: 'interrupted', context };
    }
    const pool = currentPool();
    let body = build(pool);
    if ((yield* manage(pool, body)).changed) body = build(pool);
    if (signal().aborted) {
      yield interrupt(false);
      yield { type: 'turn-end', reason: 'interrupted' };
      return { messages, reason: 'interrupted', context };
    }
    context = { ...context, options: { ...context.options, tools: pool, runtime: runtimeOf(params) } };
    yield { type: 'request-start', turn };

    let final: Anthropic.Message;
    let started = false;
    try {
      // Deferred tools need the tool-search beta: sent through the SDK's beta interface (anthropic-beta).
      // The reply is put together by streamReply: tool inputs parsed once, after the shape checks.
      const stream = streamReply(params.client, body, requestBetas(body), {
        signal: signal(),
        // The response began (200 and headers): a failure from now on stopped the reply partway, even
        // when the connection drops before the first event reaches the page.
        onConnect: () => {
          started = true;
        },
      });
      const toolIds = new Map<number, string>();
      for await (const ev of stream) {
        switch (ev.type) {
          case 'message_start':
            yield { type: 'message-start', messageId: ev.message.id, model: ev.message.model };
            break;
          case 'content_block_start':
            if (ev.content_block.type === 'thinking' || ev.content_block.type === 'redacted_thinking') {
              yield {
                type: 'thinking-start',
                index: ev.index,
                redacted: ev.content_block.type === 'redacted_thinking',
              };
            } else if (ev.content_block.type === 'tool_use') {
              toolIds.set(ev.index, ev.content_block.id);
              yield {
                type: 'tool-use-start',
                index: ev.index,
                toolUseId: ev.content_block.id,
                name: ev.content_block.name,
              };
            }
            break;
          case 'content_block_delta':
            if (ev.delta.type === 'text_delta')
              yield { type: 'text-delta', index: ev.index, text: ev.delta.text };
            else if (ev.delta.type === 'thinking_delta')
              yield { type: 'thinking-delta', index: ev.index, text: ev.delta.thinking };
            else if (ev.delta.type === 'input_json_delta') {
              yield {
                type: 'tool-input-delta',
                toolUseId: toolIds.get(ev.index) ?? '',
                partialJson: ev.delta.partial_json,
              };
            }
            break;
          default:
            break;
        }
      }
      final = stream.finalMessage();
    } catch (err) {
      if (signal().aborted) {
        yield interrupt(false);
        yield { type: 'turn-end', reason: 'interrupted' };
        return { messages, reason: 'interrupted', context };
      }
      if (deferral.setting === 'auto' && deferral.mode === 'native' && isToolReferenceRejection(err)) {
        // The endpoint does not take tool_reference: portable mode for the rest of the session, and the
        // transcript's references become full schemas as text. The same turn is sent again.
        deferral.mode = 'portable';
        deferral.switchedBecause = messageOf(err);
        const resolve = definitionResolver(pool, params.schemaCache, deferral);
        messages = mapToolResults(messages, (b) => referencesToPortable(b, resolve));
        turn--;
        continue;
      }
      if (!overflowCompacted && params.contextSettings && isPromptTooLong(err)) {
        // Over the window: compact once and send the turn again. A second refusal ends the turn.
        overflowCompacted = true;
        const managed = yield* manage(pool, body, 'overflow');
        if (signal().aborted) {
          yield interrupt(false);
          yield { type: 'turn-end', reason: 'interrupted' };
          return { messages, reason: 'interrupted', context };
        }
        if (managed.changed) {
          turn--;
          continue;
        }
      }
      const error = classifyStreamError(err, started);
      if (isRetryableStreamError(error) && streamRetries < MAX_STREAM_RETRIES) {
        // The reply stopped partway and nothing of it ran: the same request goes again after a wait.
        streamRetries++;
        const delayMs = STREAM_RETRY_BASE_MS * 2 ** (streamRetries - 1);
        yield { type: 'retry-wait', attempt: streamRetries, maxRetries: MAX_STREAM_RETRIES, delayMs, error };
        await sleep(delayMs, signal());
        turn--;
        continue;
      }
      yield { type: 'error', error };
      yield { type: 'turn-end', reason: 'error' };
      return { messages, reason: 'error', context };
    }
    streamRetries = 0;

    // Hostile shapes (inputs nested too deep, too long, lone surrogates) are refused here, before they
    // are kept: the transcript stays sendable.
    const assistant: MessageParam = {
      role: 'assistant',
      content: guardContent(final.content.map(responseBlockToParam)),
    };
    messages.push(assistant);
    if (params.contextTracker) recordUsage(params.contextTracker, final.usage, messages.length);
    yield { type: 'message-end', message: assistant, stopReason: final.stop_reason, usage: final.usage };

    const uses = toolUses(assistant);
    if (uses.length === 0) {
      if (signal().aborted) {
        yield interrupt(false);
        yield { type: 'turn-end', reason: 'interrupted' };
        return { messages, reason: 'interrupted', context };
      }
      const reason = endReason(final.stop_reason);
      if (reason === 'end_turn' && context.hooks && stopContinues < MAX_STOP_HOOK_CONTINUES) {
        // Stop hooks may send the model back to work, with their reason as its instruction.
        const stop = await context.hooks.run(
          { hook_event_name: 'Stop', stop_hook_active: stopContinues > 0 },
          { signal: signal(), cwd: context.options.cwd, permissionMode: context.options.permissionMode },
        );
        for (const report of stop.reports) yield { type: 'hook-result', report };
        if (stop.blocked !== undefined && stop.stop === undefined && !signal().aborted) {
          stopContinues++;
          messages = withUserText(messages, `Stop hook feedback: ${stop.blocked}`);
          yield { type: 'user-message', message: messages[messages.length - 1] };
          continue;
        }
      }
      yield { type: 'turn-end', reason };
      return { messages, reason, context };
    }

    const processResult: ResultProcessor = async (block, tool, ctx) => {
      let out = block;
      if (deferral.mode === 'portable') {
        out = referencesToPortable(out, definitionResolver(pool, params.schemaCache, deferral));
      }
      if (params.processResult) out = await params.processResult(out, tool, ctx);
      if (params.resultSpiller) out = await params.resultSpiller.processResult(out, tool, ctx);
      return out;
    };
    const run = runToolCalls({
      blocks: uses,
      tools: pool,
      context: { ...context, messages: messages.slice() },
      canUseTool,
      processResult,
    });
    let step = await run.next();
    while (!step.done) {
      yield step.value;
      step = await run.next();
    }
    const outcome = step.value;
    context = { ...outcome.context, abortController: context.abortController };
    const results = params.resultSpiller
      ? await params.resultSpiller.enforceMessageBudget(outcome.results, uses, pool, context)
      : outcome.results;
    const resultMessage: MessageParam = { role: 'user', content: results };
    messages.push(resultMessage);
    for (const m of outcome.newMessages) messages.push(m);
    messages = ensureToolResultPairing(messages);
    if (signal().aborted) {
      yield interrupt(true);
      yield { type: 'turn-end', reason: 'interrupted' };
      return { messages, reason: 'interrupted', context };
    }
    const repeated = failures.record(uses, results);
    if (repeated) {
      // The same call keeps failing the same way: stop here rather than burn tokens on it.
      messages = withUserText(messages, REPEATED_FAILURE_MESSAGE);
      yield { type: 'user-message', message: messages[messages.length - 1] };
      yield { type: 'loop-guard', ...repeated };
      yield { type: 'turn-end', reason: 'repeated_failure' };
      return { messages, reason: 'repeated_failure', context };
    }
    yield { type: 'user-message', message: messages[messages.length - 1] };
  }
  yield { type: 'turn-end', reason: 'max_turns' };
  return { messages, reason: 'max_turns', context };
}

/** The loop's endpoint as tools see it (ToolUseContext.options.runtime): sub-conversations reuse it. */
function runtimeOf(params: QueryParams): NonNullable<ToolUseContext['options']['runtime']> {
  return {
    client: params.client,
    model: params.model,
    maxTokens: params.maxTokens,
    systemPrompt: params.systemPrompt,
    schemaCache: params.schemaCache,
    canUseTool: params.canUseTool,
    resultSpiller: params.resultSpiller,
    cacheTtl: params.cacheTtl,
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. Never rejects. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
