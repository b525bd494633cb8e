/**
 * Transcript types and repairs. The transcript is the Messages API's own MessageParam list, so what
 * is stored is exactly what is sent.
 */
import type Anthropic from '@anthropic-ai/sdk';

export type MessageParam = Anthropic.MessageParam;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type ToolUseBlockParam = Anthropic.ToolUseBlockParam;
export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;
export type TextBlockParam = Anthropic.TextBlockParam;
export type Usage = Anthropic.Usage;

/** The content of a message as a block list (a string content becomes one text block). */
export function contentBlocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

export function userText(text: string): MessageParam {
  return { role: 'user', content: [{ type: 'text', text }] };
}

export function toolUses(message: MessageParam): ToolUseBlockParam[] {
  if (message.role !== 'assistant') return [];
  return contentBlocks(message).filter((b): b is ToolUseBlockParam => b.type === 'tool_use');
}

export function toolResults(message: MessageParam): ToolResultBlockParam[] {
  if (message.role !== 'user') return [];
  return contentBlocks(message).filter((b): b is ToolResultBlockParam => b.type === 'tool_result');
}
