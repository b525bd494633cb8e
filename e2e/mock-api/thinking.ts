/**
 * Extended thinking as the real API checks it: a request that enables thinking needs a budget of at
 * least 1024 tokens below max_tokens; every thinking block sent back must carry the signature the API
 * gave it, over the same text (a changed or invented one is refused); and when the request continues a
 * tool loop, the assistant message holding the last tool_use must start with its thinking block. The
 * registry remembers what this server signed.
 */
import { createHash } from 'node:crypto';
import { blocksOf } from './validate.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The smallest budget the API takes. */
export const MIN_THINKING_BUDGET = 1024;

/** A signature for a thinking text (what the mock gives a scripted block without one). */
export function signThinking(text: string): string {
  return `mocksig_${createHash('sha256').update(`mock-thinking\n${text}`).digest('base64url').slice(0, 43)}`;
}

/** The signatures this server issued, each with the text it signed. */
export class ThinkingSignatures {
  private readonly issued = new Set<string>();

  /** Records a thinking block the server sent. */
  issue(signature: string, thinking: string): void {
    this.issued.add(`${signature}\u0000${thinking}`);
  }

  clear(): void {
    this.issued.clear();
  }

  /** True when `signature` was issued for exactly `thinking` (or is the mock's own signature of it). */
  valid(signature: unknown, thinking: unknown): boolean {
    if (typeof signature !== 'string' || typeof thinking !== 'string') return false;
    return this.issued.has(`${signature}\u0000${thinking}`) || signature === signThinking(thinking);
  }
}

/**
 * The 400 message for a thinking problem of `body`, or null. Requests without `thinking` enabled are not
 * checked (the API ignores earlier thinking blocks then).
 */
export function checkThinking(body: Json, signatures: ThinkingSignatures): string | null {
  const thinking = body.thinking;
  if (!isObject(thinking) || thinking.type !== 'enabled') return null;
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget))
    return 'thinking.enabled.budget_tokens: Field required';
  if (budget < MIN_THINKING_BUDGET) {
    return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET}`;
  }
  if (typeof body.max_tokens === 'number' && body.max_tokens <= budget) {
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  const messages = (Array.isArray(body.messages) ? body.messages : []).filter(isObject);
  for (let i = 0; i < messages.length; i++) {
    if (messages[i].role !== 'assistant') continue;
    const blocks = blocksOf(messages[i].content);
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j];
      if (b.type === 'thinking' && !signatures.valid(b.signature, b.thinking)) {
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  // A tool loop in progress: the last message answers tool_use blocks of the assistant message before it.
  const last = messages[messages.length - 1];
  const prev = messages[messages.length - 2];
  if (
    last?.role === 'user' &&
    prev?.role === 'assistant' &&
    blocksOf(last.content).some((b) => b.type === 'tool_result')
  ) {
    const first = blocksOf(prev.content)[0];
    if (first && first.type !== 'thinking' && first.type !== 'redacted_thinking') {
      return `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`;
    }
  }
  return null;
}

/** The 400 message of a request over the context window, or null. */
export function checkContextWindow(inputTokens: number, window: number | undefined): string | null {
  if (window === undefined || inputTokens <= window) return null;
  return `prompt is too long: ${inputTokens} tokens > ${window} maximum`;
}
