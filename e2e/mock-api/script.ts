/**
 * The queue of scripted turns and the assistant message built from a turn.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CacheUsage } from './cache.ts';
import { estimateTokens } from './cache.ts';
import { messageId, randomId, toolUseId } from './ids.ts';
import type { RecordedRequest, ScriptedBlock, ScriptedTurn, TurnSpec } from './types.ts';

/** The text answered when the script has no turn left. */
export const EXHAUSTED_TEXT = '[mock] no scripted turn left';
/** Signature of a scripted thinking block that gives none. */
export const DEFAULT_SIGNATURE = 'mock-signature';

/** FIFO of scripted turns. */
export class TurnQueue {
  private turns: ScriptedTurn[] = [];

  replace(turns: ScriptedTurn[]): void {
    this.turns = [...turns];
  }

  push(...turns: ScriptedTurn[]): void {
    this.turns.push(...turns);
  }

  pending(): number {
    return this.turns.length;
  }

  clear(): void {
    this.turns = [];
  }

  /** Takes the next turn, or undefined when the script is exhausted. */
  shift(): ScriptedTurn | undefined {
    return this.turns.shift();
  }
}

/** A turn resolved to its spec. `exhausted` when there was no turn left. May throw (a function turn). */
export async function resolveTurn(
  turn: ScriptedTurn | undefined,
  req: RecordedRequest,
): Promise<{ spec: TurnSpec; exhausted: boolean }> {
  if (turn === undefined)
    return { spec: { content: [{ type: 'text', text: EXHAUSTED_TEXT }] }, exhausted: true };
  const spec = typeof turn === 'function' ? await turn(req) : turn;
  return { spec, exhausted: false };
}

/**
 * A scripted block as the API's content block (tool_use ids filled in). `lastServerUse` is the id of the
 * nearest server_tool_use before it (a result block without its own tool_use_id answers that one).
 */
function toContentBlock(block: ScriptedBlock, lastServerUse: () => string): Anthropic.ContentBlock {
  switch (block.type) {
    case 'server_tool_use':
      return {
        type: 'server_tool_use',
        id: block.id ?? randomId('srvtoolu_'),
        name: block.name,
        input: block.input ?? {},
      } as unknown as Anthropic.ContentBlock;
    case 'web_search_tool_result':
    case 'web_fetch_tool_result':
      return {
        type: block.type,
        tool_use_id: block.tool_use_id ?? lastServerUse(),
        content: block.content,
      } as unknown as Anthropic.ContentBlock;
    case 'text':
      return { type: 'text', text: block.text } as Anthropic.TextBlock;
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id ?? toolUseId(),
        name: block.name,
        input: block.input ?? {},
      } as Anthropic.ToolUseBlock;
    case 'thinking':
      return {
        type: 'thinking',
        thinking: block.thinking,
        signature: block.signature ?? DEFAULT_SIGNATURE,
      };
  }
}

/** Output tokens of a content list: ⌈chars / 4⌉ of texts, thinking and tool inputs; at least 1. */
export function outputTokens(content: Anthropic.ContentBlock[]): number {
  let tokens = 0;
  for (const block of content) {
    if (block.type === 'text') tokens += estimateTokens(block.text);
    else if (block.type === 'thinking') tokens += estimateTokens(block.thinking);
    else if (block.type === 'tool_use' || block.type === 'server_tool_use')
      tokens += estimateTokens(block.name + JSON.stringify(block.input));
  }
  return Math.max(1, tokens);
}

/** The full assistant message for a turn, with final usage. */
export function buildMessage(spec: TurnSpec, model: string, input: CacheUsage): Anthropic.Message {
  const content: Anthropic.ContentBlock[] = [];
  let lastServerUse = '';
  for (const scripted of spec.content ?? []) {
    const block = toContentBlock(scripted, () => lastServerUse);
    if (block.type === 'server_tool_use') lastServerUse = block.id;
    content.push(block);
  }
  const searches = content.filter((b) => b.type === 'server_tool_use' && b.name === 'web_search').length;
  const fetches = content.filter((b) => b.type === 'server_tool_use' && b.name === 'web_fetch').length;
  const stopReason =
    spec.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const message = {
    id: messageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? (spec.stop_sequence ?? '') : null,
    usage: {
      input_tokens: input.input_tokens,
      cache_creation_input_tokens: input.cache_creation_input_tokens,
      cache_read_input_tokens: input.cache_read_input_tokens,
      cache_creation: input.cache_creation,
      output_tokens: outputTokens(content),
      service_tier: 'standard',
      // How many server-tool calls the answer ran (billed per use by the real API).
      ...(searches || fetches
        ? { server_tool_use: { web_search_requests: searches, web_fetch_requests: fetches } }
        : {}),
    },
  };
  return message as Anthropic.Message;
}
