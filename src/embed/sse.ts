/**
 * Server-sent events of a streamed Messages API response, in the real API's order and shapes:
 * message_start → per block (content_block_start, deltas, content_block_stop), with one `ping` after the
 * first content_block_start → message_delta → message_stop. Shared by the in-page demo transport
 * (demo-fetch.ts) and the mock Messages API of the tests (e2e/mock-api).
 */
import type Anthropic from '@anthropic-ai/sdk';

/** One SSE event: its name and its JSON data (which carries the same `type`). */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** `event: X\ndata: {json}\n\n`. */
export function formatEvent(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

const event = (type: string, rest: Record<string, unknown> = {}): SseEvent => ({
  event: type,
  data: { type, ...rest },
});

/** Splits text into chunks of whole words (whitespace kept), each up to ~`size` chars. Never empty. */
export function chunkText(text: string, size = 16): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const chunks: string[] = [];
  let current = '';
  for (const word of words) {
    if (current.length > 0 && current.length + word.length > size) {
      chunks.push(current);
      current = '';
    }
    current += word;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}

/** Splits a JSON string into fixed-size pieces, after the empty first piece the real API sends. */
export function chunkJson(json: string, size = 12): string[] {
  const pieces = [''];
  for (let i = 0; i < json.length; i += size) pieces.push(json.slice(i, i + size));
  return pieces;
}

function blockEvents(block: Anthropic.ContentBlock, index: number): SseEvent[] {
  const out: SseEvent[] = [];
  const delta = (d: Record<string, unknown>): void => {
    out.push(event('content_block_delta', { index, delta: d }));
  };
  switch (block.type) {
    case 'text':
      out.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of chunkText(block.text)) delta({ type: 'text_delta', text });
      break;
    case 'tool_use':
      out.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial of chunkJson(JSON.stringify(block.input))) {
        delta({ type: 'input_json_delta', partial_json: partial });
      }
      break;
    case 'server_tool_use':
      // A server tool's call streams its input like a client tool's.
      out.push(
        event('content_block_start', {
          index,
          content_block: { type: 'server_tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial of chunkJson(JSON.stringify(block.input))) {
        delta({ type: 'input_json_delta', partial_json: partial });
      }
      break;
    case 'web_search_tool_result':
    case 'web_fetch_tool_result':
      // A server tool's result arrives whole in its start event, with no deltas.
      out.push(event('content_block_start', { index, content_block: block }));
      break;
    case 'thinking':
      out.push(
        event('content_block_start', {
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
      );
      for (const thinking of chunkText(block.thinking)) delta({ type: 'thinking_delta', thinking });
      delta({ type: 'signature_delta', signature: block.signature });
      break;
    default:
      throw new Error(`cannot stream a ${block.type} block`);
  }
  out.push(event('content_block_stop', { index }));
  return out;
}

/** Every event of a complete streamed message. */
export function messageEvents(message: Anthropic.Message): SseEvent[] {
  const { usage } = message;
  const events: SseEvent[] = [
    event('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  message.content.forEach((block, index) => {
    const blockEventsList = blockEvents(block, index);
    events.push(blockEventsList[0]);
    if (index === 0) events.push(event('ping'));
    events.push(...blockEventsList.slice(1));
  });
  if (message.content.length === 0) events.push(event('ping'));
  events.push(
    event('message_delta', {
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
      },
    }),
  );
  events.push(event('message_stop'));
  return events;
}

/** The SSE `error` event the real API sends when a stream fails after the 200. */
export function errorEvent(type: string, message: string): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}
