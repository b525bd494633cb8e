/**
 * Pieces shared by the replay player and recorder: reading an SSE stream into events, putting a
 * streamed message back together (for a request that did not ask for a stream), the text of a tool
 * result as the model saw it, and the parts of a Messages API request body a replay cares about.
 * Nothing here throws on bad input: it returns what it could read.
 */
import type { EmbedReplayEvent } from './config.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Incremental SSE reader: `push` text as it arrives, get the complete events (`event:` + `data:` lines,
 * ended by a blank line). Data that is not JSON is skipped.
 */
export function createSseReader(): { push(text: string): { event: string; data: Json }[] } {
  let buffer = '';
  return {
    push(text) {
      buffer += text.replace(/\r\n?/g, '\n');
      const out: { event: string; data: Json }[] = [];
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const chunk = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = 'message';
        const data: string[] = [];
        for (const line of chunk.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        try {
          const parsed = JSON.parse(data.join('\n')) as unknown;
          if (isObject(parsed)) out.push({ event: name, data: parsed });
        } catch {
          // Not an event we can replay.
        }
        end = buffer.indexOf('\n\n');
      }
      return out;
    },
  };
}

/**
 * The message a stream of events builds (what the SDK's accumulator makes of it): content blocks with
 * their text, tool inputs parsed, stop reason and usage from message_delta.
 */
export function messageFromEvents(events: readonly EmbedReplayEvent[]): Json {
  let message: Json = {};
  const blocks: Json[] = [];
  const partial: string[] = [];
  for (const { data } of events) {
    switch (data.type) {
      case 'message_start':
        message = isObject(data.message) ? { ...data.message } : {};
        break;
      case 'content_block_start': {
        const i = Number(data.index);
        blocks[i] = isObject(data.content_block) ? { ...data.content_block } : { type: 'text', text: '' };
        partial[i] = '';
        break;
      }
      case 'content_block_delta': {
        const i = Number(data.index);
        const d = isObject(data.delta) ? data.delta : {};
        const b = blocks[i];
        if (!b) break;
        if (d.type === 'text_delta') b.text = `${b.text ?? ''}${String(d.text ?? '')}`;
        else if (d.type === 'input_json_delta') partial[i] += String(d.partial_json ?? '');
        else if (d.type === 'thinking_delta') b.thinking = `${b.thinking ?? ''}${String(d.thinking ?? '')}`;
        else if (d.type === 'signature_delta') b.signature = d.signature;
        break;
      }
      case 'content_block_stop': {
        const i = Number(data.index);
        const b = blocks[i];
        if (b?.type === 'tool_use' && partial[i]) {
          try {
            b.input = JSON.parse(partial[i]);
          } catch {
            b.input = {};
          }
        }
        break;
      }
      case 'message_delta': {
        const d = isObject(data.delta) ? data.delta : {};
        message.stop_reason = d.stop_reason ?? null;
        message.stop_sequence = d.stop_sequence ?? null;
        if (isObject(data.usage))
          message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...data.usage };
        break;
      }
    }
  }
  if (message.type === undefined) message.type = 'message';
  // A text block of a plain (not streamed) answer carries its citations (none here), as the API sends it.
  const content = blocks.filter(Boolean).map((b) => (b.type === 'text' ? { citations: null, ...b } : b));
  return { ...message, content };
}

/** The text of a tool_result's content as the model saw it (blocks joined; non-text ones named). */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => {
      if (!isObject(b)) return '';
      if (b.type === 'text') return String(b.text ?? '');
      if (b.type === 'tool_reference') return `[tool_reference ${String(b.tool_name ?? '')}]`;
      return `[${String(b.type)}]`;
    })
    .join('\n');
}

/** A tool result found in a request. */
export interface RequestToolResult {
  toolUseId: string;
  isError: boolean;
  content: string;
}

/** What a replay reads from a request body: the last user message's prompt text and tool results. */
export interface RequestView {
  stream: boolean;
  model?: string;
  /** The user's own text of the last message (system reminders left out), when it is a prompt. */
  prompt?: string;
  results: RequestToolResult[];
}

/** Reads a Messages API request body (text). Undefined when it is not one. */
export function readRequest(body: string): RequestView | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !Array.isArray(parsed.messages)) return undefined;
  const last = parsed.messages[parsed.messages.length - 1];
  const view: RequestView = {
    stream: parsed.stream === true,
    ...(typeof parsed.model === 'string' ? { model: parsed.model } : {}),
    results: [],
  };
  if (!isObject(last) || last.role !== 'user') return view;
  const blocks = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  if (!Array.isArray(blocks)) return view;
  const texts: string[] = [];
  for (const b of blocks) {
    if (!isObject(b)) continue;
    if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
      view.results.push({
        toolUseId: b.tool_use_id,
        isError: b.is_error === true,
        content: toolResultText(b.content),
      });
    } else if (b.type === 'text' && typeof b.text === 'string' && !b.text.startsWith('<system-reminder>')) {
      texts.push(b.text);
    }
  }
  if (view.results.length === 0 && texts.length > 0) view.prompt = texts[texts.length - 1];
  return view;
}
