/**
 * The agent loop. One user prompt → model requests and tool runs until the model stops calling tools,
 * the user interrupts, an API error ends the turn, or MAX_TURNS is reached. An async generator of
 * QueryEvents; it returns the final transcript. It never throws: failures are `error` events, and the
 * transcript it returns is always valid for the next request.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { SchemaCache } from './api-schema.ts';
import {
  INTERRUPT_MESSAGE,
  INTERRUPT_MESSAGE_FOR_TOOL_USE,
  MAX_STREAM_RETRIES,
  MAX_TURNS,
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
import type { QueryEvent } from './events.ts';
import {
  ensureToolResultPairing,
  type MessageParam,
  responseBlockToParam,
  toolUses,
  withUserText,
} from './messages.ts';
import { classifyStreamError, isRetryableStreamError } from './model/anthropic.ts';
import { streamMessages } from './model/beta-stream.ts';
import { runToolCalls } from './orchestration.ts';
import { buildRequestBody, requestBetas } from './request.ts';
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
  for (let turn = 1; turn <= maxTurns; turn++) {
    if (signal().aborted) {
      yield interrupt(false);
      yield { type: 'turn-end', reason: 'interrupted' };
      return { messages, reason: 'interrupted', context };
    }
    const pool = currentPool();
    // Deferred tools that came or went are announced in the transcript itself (tools stay byte-stable).
    messages = withDeferredToolsAnnouncement(ensureToolResultPairing(messages), pool);
    const toSend = params.prepareMessages ? params.prepareMessages(messages) : messages;
    const body = buildRequestBody({
      model: params.model,
      maxTokens: params.maxTokens,
      systemPrompt: params.systemPrompt,
      tools: pool,
      messages: toSend,
      schemaCache: params.schemaCache,
      cacheTtl: params.cacheTtl,
      deferral,
    });
    context = { ...context, options: { ...context.options, tools: pool, runtime: runtimeOf(params) } };
    yield { type: 'request-start', turn };

    let final: Anthropic.Message;
    let started = false;
    try {
      // Deferred tools need the tool-search beta: sent through the SDK's beta interface (anthropic-beta).
      const stream = streamMessages(params.client, body, requestBetas(body), { signal: signal() });
      // The response began (200 and headers): a failure from now on stopped the reply partway, even when
      // the connection drops before the first event reaches the page.
      stream.on('connect', () => {
        started = true;
      });
      const toolIds = new Map<number, string>();
      for await (const ev of stream) {
        switch (ev.type) {
          case 'message_start':
            yield { type: 'message-start', messageId: ev.message.id, model: ev.message.model };
            break;
          case 'content_block_start':
            if (ev.content_block.type === 'tool_use') {
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
      final = await stream.finalMessage();
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
        deferral.switchedBecause = err instanceof Error ? err.message : String(err);
        const resolve = definitionResolver(pool, params.schemaCache, deferral);
        messages = mapToolResults(messages, (b) => referencesToPortable(b, resolve));
        turn--;
        continue;
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

    const assistant: MessageParam = { role: 'assistant', content: final.content.map(responseBlockToParam) };
    messages.push(assistant);
    yield { type: 'message-end', message: assistant, stopReason: final.stop_reason, usage: final.usage };

    const uses = toolUses(assistant);
    if (uses.length === 0) {
      if (signal().aborted) {
        yield interrupt(false);
        yield { type: 'turn-end', reason: 'interrupted' };
        return { messages, reason: 'interrupted', context };
      }
      const reason = endReason(final.stop_reason);
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
