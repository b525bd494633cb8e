/**
 * Transcript types and repairs. The transcript is the Messages API's own MessageParam list, so what
 * is stored is exactly what is sent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';

/** A transcript message: user or assistant (system text travels in the request's `system`). */
export type MessageParam = Anthropic.UserMessageParam | Anthropic.AssistantMessageParam;
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

import { SYNTHETIC_TOOL_RESULT_MISSING } from './constants.ts';

const EMPTY_PLACEHOLDER = '(empty)';

function isEmptyText(block: ContentBlockParam): boolean {
  return block.type === 'text' && block.text.trim() === '';
}

/** `block` without `cache_control` (an object, so the same one when it has none). */
function withoutCacheControl<T extends object>(block: T): T {
  if (!('cache_control' in block)) return block;
  const { cache_control: _dropped, ...rest } = block as T & { cache_control?: unknown };
  return rest as T;
}

/**
 * A block without cache_control, nested tool_result content included: breakpoints are placed per
 * request (request.ts); stored ones (e.g. from an imported session) would exceed the API's cap.
 */
function stripCacheControl(block: ContentBlockParam): ContentBlockParam {
  const out = withoutCacheControl(block);
  if (out.type !== 'tool_result' || !Array.isArray(out.content)) return out;
  if (!out.content.some((c) => 'cache_control' in c)) return out;
  return { ...out, content: out.content.map((c) => withoutCacheControl(c)) };
}

/**
 * Repairs a transcript so the API accepts it. Returns a new array (inputs are not mutated):
 * - consecutive messages of one role are merged; a transcript starting with an assistant message gets a
 *   user message in front;
 * - every tool_use gets exactly one tool_result in the next user message (a synthetic is_error result
 *   when missing), tool_results come first in that message in tool_use order, duplicates are dropped;
 * - tool_results without a tool_use in the previous assistant message are dropped;
 * - empty text blocks are dropped and an empty message gets a placeholder;
 * - stored `cache_control` markers are dropped (the request places its own breakpoints).
 * Never throws.
 */
export function ensureToolResultPairing(messages: readonly MessageParam[]): MessageParam[] {
  // 1. Normalize to block arrays and merge same-role runs.
  const merged: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const m of messages) {
    const blocks = contentBlocks(m)
      .filter((b) => !isEmptyText(b))
      .map(stripCacheControl);
    const last = merged[merged.length - 1];
    // One at a time: a spread of a message of 200,000 blocks would overflow the call stack.
    if (last && last.role === m.role) for (const b of blocks) last.content.push(b);
    else merged.push({ role: m.role, content: [...blocks] });
  }
  if (merged.length > 0 && merged[0].role === 'assistant') {
    merged.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation restored)' }] });
  }

  // 2. Pair tool_use with tool_result.
  const out: MessageParam[] = [];
  for (let i = 0; i < merged.length; i++) {
    const msg = merged[i];
    if (msg.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: msg.content.length ? msg.content : [{ type: 'text', text: EMPTY_PLACEHOLDER }],
      });
      const uses = msg.content.filter((b): b is ToolUseBlockParam => b.type === 'tool_use');
      if (uses.length > 0 && merged[i + 1]?.role !== 'user') {
        // Tool uses at the end (or before another assistant turn): give them results.
        merged.splice(i + 1, 0, { role: 'user', content: [] });
      }
      continue;
    }
    const prev = out[out.length - 1];
    const expected = prev ? toolUses(prev) : [];
    const byId = new Map<string, ToolResultBlockParam>();
    const rest: ContentBlockParam[] = [];
    for (const b of msg.content) {
      if (b.type === 'tool_result') {
        if (expected.some((u) => u.id === b.tool_use_id) && !byId.has(b.tool_use_id))
          byId.set(b.tool_use_id, b);
      } else rest.push(b);
    }
    const results: ToolResultBlockParam[] = expected.map(
      (u) =>
        byId.get(u.id) ?? {
          type: 'tool_result',
          tool_use_id: u.id,
          content: SYNTHETIC_TOOL_RESULT_MISSING,
          is_error: true,
        },
    );
    const content: ContentBlockParam[] = [...results, ...rest];
    out.push({
      role: 'user',
      content: content.length ? content : [{ type: 'text', text: EMPTY_PLACEHOLDER }],
    });
  }
  return out;
}

/** Converts a response content block to the param block sent back next time (drops response-only fields). */
export function responseBlockToParam(block: Anthropic.ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return block as unknown as ContentBlockParam;
  }
}

/**
 * `messages` with `text` appended to the last user message, or with a new user message when the last
 * one is the assistant's (roles must alternate). Returns a new array; the input is not mutated.
 */
export function withUserText(messages: readonly MessageParam[], text: string): MessageParam[] {
  const out = messages.slice();
  const last = out[out.length - 1];
  if (last?.role === 'user') {
    out[out.length - 1] = { role: 'user', content: [...contentBlocks(last), { type: 'text', text }] };
  } else out.push({ role: 'user', content: [{ type: 'text', text }] });
  return out;
}

// ---- transcript check (imports) ------------------------------------------------------------------

const str = z.string();
const looseObject = z.record(z.string(), z.unknown());
const text = z.looseObject({ type: z.literal('text'), text: str });
const image = z.looseObject({ type: z.literal('image'), source: looseObject });
const documentBlock = z.looseObject({ type: z.literal('document'), source: looseObject });
const searchResult = z.looseObject({
  type: z.literal('search_result'),
  source: str,
  title: str,
  content: z.array(text),
});
const toolReference = z.looseObject({ type: z.literal('tool_reference'), tool_name: str.min(1) });
const browserState = z.looseObject({ type: z.literal('browser_state') });
const toolResultContent = z.discriminatedUnion('type', [
  text,
  image,
  documentBlock,
  searchResult,
  toolReference,
  browserState,
]);
const toolUse = z.looseObject({
  type: z.literal('tool_use'),
  id: str.min(1),
  name: str.min(1),
  input: z.unknown(),
});
const toolResult = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: str.min(1),
  content: z.union([str, z.array(toolResultContent)]).optional(),
  is_error: z.boolean().optional(),
});
const thinking = z.looseObject({ type: z.literal('thinking'), thinking: str, signature: str });
const redactedThinking = z.looseObject({ type: z.literal('redacted_thinking'), data: str });
/** Server-side tool blocks the API may return (passed through by responseBlockToParam). */
const serverToolUse = z.looseObject({ type: z.literal('server_tool_use'), id: str.min(1), name: str.min(1) });
const serverResult = (type: string) => z.looseObject({ type: z.literal(type), tool_use_id: str.min(1) });
const containerUpload = z.looseObject({ type: z.literal('container_upload'), file_id: str });
const contentBlock = z.discriminatedUnion('type', [
  text,
  image,
  documentBlock,
  searchResult,
  toolUse,
  toolResult,
  thinking,
  redactedThinking,
  serverToolUse,
  serverResult('web_search_tool_result'),
  serverResult('web_fetch_tool_result'),
  serverResult('code_execution_tool_result'),
  serverResult('bash_code_execution_tool_result'),
  serverResult('text_editor_code_execution_tool_result'),
  serverResult('tool_search_tool_result'),
  containerUpload,
]);
const transcriptSchema = z.array(
  z.object({ role: z.enum(['user', 'assistant']), content: z.union([str, z.array(contentBlock)]) }),
);

/**
 * Why `value` cannot be a transcript, or null when it can: every message is a user or assistant message
 * of content blocks the Messages API takes (every kind tabcode writes, tool_reference inside tool
 * results included), tool_use only from the assistant, tool_result only from the user and only for a
 * tool_use seen before. A tool_use without a result is fine (ensureToolResultPairing answers it). For
 * untrusted input (an imported session). Never throws.
 */
export function transcriptProblem(value: unknown): string | null {
  const parsed = transcriptSchema.safeParse(value);
  if (!parsed.success) {
    const issue = deepestIssue(parsed.error.issues[0]);
    const where = issue.path.length ? ` at messages.${issue.path.join('.')}` : '';
    return `${issue.message}${where}`;
  }
  const seen = new Set<string>();
  const messages = parsed.data;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        if (m.role !== 'assistant') return `message ${i} is from the user but has a tool_use`;
        seen.add(String(b.id));
      } else if (b.type === 'tool_result') {
        if (m.role !== 'user') return `message ${i} is from the assistant but has a tool_result`;
        if (!seen.has(b.tool_use_id))
          return `message ${i} has a tool_result for an unknown tool_use ${b.tool_use_id}`;
      }
    }
  }
  return null;
}

interface Issue {
  message: string;
  path: PropertyKey[];
  errors?: Issue[][];
}

/**
 * The most specific problem under a union's failure (e.g. "content is a string or a list of blocks":
 * the block that is wrong, not the union), its path counted from the top.
 */
function deepestIssue(issue: Issue): Issue {
  let best = issue;
  for (const branch of issue.errors ?? []) {
    for (const inner of branch) {
      const deep = deepestIssue({ ...inner, path: [...issue.path, ...inner.path] });
      if (deep.path.length > best.path.length) best = deep;
    }
  }
  return best;
}
