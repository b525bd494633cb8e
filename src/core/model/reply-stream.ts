/**
 * One streamed Messages request, read as the SDK's raw event stream (`messages.create` with
 * `stream: true`, through the beta interface when the request needs betas) and put together here
 * instead of by the SDK's MessageStream.
 *
 * Why not MessageStream: at every tool_use block's content_block_stop it reads the block's input
 * through its partial-JSON parser, on the page's main thread. That parser costs 12–26 ms for one
 * 370 kB Write input (JSON.parse: under 1.5 ms) and 130 ms in Node, 220 ms in Chromium, for a
 * valid input nested 10,000 levels deep. Here a tool input's JSON arrives as chunks that are joined
 * once at content_block_stop, checked by one linear scan (depth and length, `toolInputJsonProblem`)
 * and parsed once with JSON.parse; a hostile text becomes the refused-input marker.
 *
 * The events and errors are the SDK's own: APIError (also for an SSE `error` event),
 * APIConnectionError, APIUserAbortError; the SDK's retries on 429/5xx before the response began
 * are kept.
 */
import Anthropic from '@anthropic-ai/sdk';
import { parseToolInputJson } from '../input-shape.ts';

export type ReplyEvent = Anthropic.RawMessageStreamEvent;

export interface ReplyStreamOptions {
  signal?: AbortSignal;
  /** Called once the response began (status 200 and headers, after any retries). */
  onConnect?: () => void;
}

export interface ReplyStream {
  /**
   * The reply's events, in order. Throws the SDK's errors; an abort through the signal throws
   * APIUserAbortError. Can be iterated once.
   */
  [Symbol.asyncIterator](): AsyncIterator<ReplyEvent>;
  /**
   * The reply put together from the events seen. Throws an AnthropicError when the stream ended
   * before message_stop (a reply cut short is not a reply).
   */
  finalMessage(): Anthropic.Message;
}

/** Starts the request for `body` (sent with `anthropic-beta: betas` when there are any). */
export function streamReply(
  client: Anthropic,
  body: Anthropic.MessageCreateParamsStreaming,
  betas: readonly string[],
  options: ReplyStreamOptions = {},
): ReplyStream {
  const reply = new ReplyAccumulator();
  async function* events(): AsyncGenerator<ReplyEvent> {
    const request =
      betas.length === 0
        ? client.messages.create({ ...body, stream: true }, { signal: options.signal })
        : client.beta.messages.create(
            {
              ...body,
              betas: [...betas],
              stream: true,
            } as unknown as Anthropic.Beta.MessageCreateParamsStreaming,
            { signal: options.signal },
          );
    const { data: stream } = await request.withResponse();
    options.onConnect?.();
    for await (const event of stream as AsyncIterable<ReplyEvent>) {
      reply.add(event);
      yield event;
    }
    // The SDK's stream ends quietly when aborted; the caller must not mistake that for an ending.
    if (options.signal?.aborted) throw new Anthropic.APIUserAbortError();
  }
  return {
    [Symbol.asyncIterator]: () => events(),
    finalMessage: () => reply.finalMessage(),
  };
}

type Block = Anthropic.ContentBlock;

/**
 * Builds the reply from raw stream events as the API documents them: the message from message_start,
 * blocks opened by content_block_start and grown by deltas, tool inputs parsed at content_block_stop,
 * stop reason and usage from message_delta. Events that do not fit (a delta for a block that is not
 * there, or of another kind) are ignored, as the SDK ignores them. Never throws from `add`.
 */
export class ReplyAccumulator {
  private message: Anthropic.Message | undefined;
  private stopped = false;
  /** Tool input JSON chunks per block index, joined at content_block_stop. */
  private readonly inputJson = new Map<number, string[]>();

  add(event: ReplyEvent): void {
    if (event.type === 'message_start') {
      const m = event.message;
      this.message = { ...m, content: [...m.content], usage: { ...m.usage } };
      this.stopped = false;
      this.inputJson.clear();
      return;
    }
    const message = this.message;
    if (!message) return;
    switch (event.type) {
      case 'content_block_start':
        message.content[event.index] = { ...event.content_block } as Block;
        return;
      case 'content_block_delta':
        this.delta(message.content[event.index], event);
        return;
      case 'content_block_stop': {
        const block = message.content[event.index];
        const chunks = this.inputJson.get(event.index);
        if (chunks && block && (block.type === 'tool_use' || block.type === 'server_tool_use')) {
          block.input = parseToolInputJson(chunks.join(''));
        }
        this.inputJson.delete(event.index);
        return;
      }
      case 'message_delta': {
        const { delta, usage } = event;
        message.stop_reason = delta.stop_reason;
        message.stop_sequence = delta.stop_sequence;
        if (delta.stop_details != null) message.stop_details = delta.stop_details;
        if (delta.container != null) message.container = delta.container;
        message.usage.output_tokens = usage.output_tokens;
        // The other counters are whole-message totals, sent only when they apply: overwrite, never add.
        if (usage.input_tokens != null) message.usage.input_tokens = usage.input_tokens;
        if (usage.cache_creation_input_tokens != null)
          message.usage.cache_creation_input_tokens = usage.cache_creation_input_tokens;
        if (usage.cache_read_input_tokens != null)
          message.usage.cache_read_input_tokens = usage.cache_read_input_tokens;
        if (usage.server_tool_use != null) message.usage.server_tool_use = usage.server_tool_use;
        if (usage.output_tokens_details != null)
          message.usage.output_tokens_details = usage.output_tokens_details;
        return;
      }
      case 'message_stop':
        this.stopped = true;
        return;
      default:
        return;
    }
  }

  private delta(block: Block | undefined, event: Anthropic.RawContentBlockDeltaEvent): void {
    if (!block) return;
    const { delta } = event;
    switch (delta.type) {
      case 'text_delta':
        if (block.type === 'text') block.text += delta.text;
        return;
      case 'citations_delta':
        if (block.type === 'text') block.citations = [...(block.citations ?? []), delta.citation];
        return;
      case 'input_json_delta':
        if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const chunks = this.inputJson.get(event.index);
          if (chunks) chunks.push(delta.partial_json);
          else this.inputJson.set(event.index, [delta.partial_json]);
        }
        return;
      case 'thinking_delta':
        if (block.type === 'thinking') block.thinking += delta.thinking;
        return;
      case 'signature_delta':
        if (block.type === 'thinking') block.signature = delta.signature;
        return;
      default:
        return;
    }
  }

  /** The reply; throws an AnthropicError when message_stop has not arrived. */
  finalMessage(): Anthropic.Message {
    if (!this.message || !this.stopped) {
      throw new Anthropic.AnthropicError('stream ended without producing a complete message');
    }
    return { ...this.message, content: this.message.content.filter((b) => b !== undefined) };
  }
}
