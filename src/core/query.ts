/**
 * The agent loop. One user prompt → model requests and tool runs until the model stops calling tools,
 * the user interrupts, an API error ends the turn, or MAX_TURNS is reached. An async generator of
 * QueryEvents; it returns the final transcript. It never throws: failures are `error` events, and the
 * transcript it returns is always valid for the next request.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { SchemaCache } from './api-schema.ts';
import { INTERRUPT_MESSAGE, INTERRUPT_MESSAGE_FOR_TOOL_USE, MAX_TURNS } from './constants.ts';
import type { ToolUseContext } from './context.ts';
import type { QueryEvent } from './events.ts';
import {
  type ContentBlockParam,
  ensureToolResultPairing,
  type MessageParam,
  responseBlockToParam,
  toolUses,
} from './messages.ts';
import { classifyApiError } from './model/anthropic.ts';
import { runToolCalls } from './orchestration.ts';
import { buildRequestBody } from './request.ts';
import type { AnyTool } from './tool.ts';
import { type CanUseToolFn, defaultCanUseTool, type ResultProcessor } from './tool-execution.ts';

export interface QueryParams {
  client: Anthropic;
  model: string;
  maxTokens: number;
  systemPrompt: string;
  /** The transcript, ending with the new user message. Not mutated. */
  messages: readonly MessageParam[];
  tools: readonly AnyTool[];
  context: ToolUseContext;
  schemaCache: SchemaCache;
  maxTurns?: number;
  canUseTool?: CanUseToolFn;
  processResult?: ResultProcessor;
  cacheTtl?: '5m' | '1h';
  /** Seen before each request (e.g. to add reminders); returns the messages to send. */
  prepareMessages?: (messages: MessageParam[]) => MessageParam[];
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

/** Appends `text` to the last user message, or adds a user message (roles must alternate). */
function appendUserText(messages: MessageParam[], text: string): MessageParam {
  const last = messages[messages.length - 1];
  if (last?.role === 'user') {
    const content: ContentBlockParam[] =
      typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    content.push({ type: 'text', text });
    const merged: MessageParam = { role: 'user', content };
    messages[messages.length - 1] = merged;
    return merged;
  }
  const msg: MessageParam = { role: 'user', content: [{ type: 'text', text }] };
  messages.push(msg);
  return msg;
}

export async function* query(params: QueryParams): AsyncGenerator<QueryEvent, QueryOutcome> {
  const maxTurns = params.maxTurns ?? MAX_TURNS;
  const canUseTool = params.canUseTool ?? defaultCanUseTool;
  let context = params.context;
  const signal = () => context.abortController.signal;
  let messages = ensureToolResultPairing(params.messages);

  const interrupt = (forToolUse: boolean): QueryEvent => {
    const msg = appendUserText(messages, forToolUse ? INTERRUPT_MESSAGE_FOR_TOOL_USE : INTERRUPT_MESSAGE);
    return { type: 'user-message', message: msg };
  };

  for (let turn = 1; turn <= maxTurns; turn++) {
    if (signal().aborted) {
      yield interrupt(false);
      yield { type: 'turn-end', reason: 'interrupted' };
      return { messages, reason: 'interrupted', context };
    }
    messages = ensureToolResultPairing(messages);
    const toSend = params.prepareMessages ? params.prepareMessages(messages) : messages;
    const body = buildRequestBody({
      model: params.model,
      maxTokens: params.maxTokens,
      systemPrompt: params.systemPrompt,
      tools: params.tools,
      messages: toSend,
      schemaCache: params.schemaCache,
      cacheTtl: params.cacheTtl,
    });
    yield { type: 'request-start', turn };

    let final: Anthropic.Message;
    try {
      const stream = params.client.messages.stream(body, { signal: signal() });
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
      yield { type: 'error', error: classifyApiError(err) };
      yield { type: 'turn-end', reason: 'error' };
      return { messages, reason: 'error', context };
    }

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

    const run = runToolCalls({
      blocks: uses,
      tools: params.tools,
      context: { ...context, messages: messages.slice() },
      canUseTool,
      processResult: params.processResult,
    });
    let step = await run.next();
    while (!step.done) {
      yield step.value;
      step = await run.next();
    }
    const outcome = step.value;
    context = { ...outcome.context, abortController: context.abortController };
    const resultMessage: MessageParam = { role: 'user', content: outcome.results };
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
