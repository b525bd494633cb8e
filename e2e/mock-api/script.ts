/**
 * The queue of scripted turns and the assistant message built from a turn.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CacheUsage } from './cache.ts';
import { estimateTokens } from './cache.ts';
import { messageId, toolUseId } from './ids.ts';
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

/** A scripted block as the API's content block (tool_use ids filled in). */
function toContentBlock(block: ScriptedBlock): Anthropic.ContentBlock {
  switch (block.type) {
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
    else if (block.type === 'tool_use') tokens += estimateTokens(block.name + JSON.stringify(block.input));
  }
  return Math.max(1, tokens);
}

/** The full assistant message for a turn, with final usage. */
export function buildMessage(spec: TurnSpec, model: string, input: CacheUsage): Anthropic.Message {
  const content = (spec.content ?? []).map(toContentBlock);
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
    },
  };
  return message as Anthropic.Message;
}
