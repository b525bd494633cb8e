/**
 * How full the context is. The API measures it: the usage of a reply (input, cache reads and writes,
 * output) is the size of the conversation up to and including that reply. Messages added since are
 * estimated from their size (CHARS_PER_TOKEN). Without a measurement (a new, restored, cleared or
 * compacted transcript) the whole request body is estimated. Pure functions.
 */
import { CHARS_PER_TOKEN } from '../constants.ts';
import type { Usage } from '../messages.ts';

/** Tokens of `chars` characters of request JSON, estimated. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Estimated tokens of a value as it travels in a request body (its JSON). */
export function estimateJsonTokens(value: unknown): number {
  if (value === undefined) return 0;
  return tokensOfChars(JSON.stringify(value).length);
}

/** Every input token of a reply's usage plus its output: the context it leaves behind. */
export function contextTokensOfUsage(usage: Partial<Usage>): number {
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.output_tokens ?? 0)
  );
}

/**
 * The session's last measurement of its context, kept across turns (one object per session, updated by
 * the loop). `messageCount` is the transcript length the measurement covers (the reply included).
 */
export interface ContextTracker {
  measured?: { tokens: number; messageCount: number };
}

export function createContextTracker(): ContextTracker {
  return {};
}

/** Records a reply's usage: the transcript of `messageCount` messages (reply included) measures this much. */
export function recordUsage(tracker: ContextTracker, usage: Partial<Usage>, messageCount: number): void {
  tracker.measured = { tokens: contextTokensOfUsage(usage), messageCount };
}

/**
 * Estimated input tokens of the next request: the measurement plus the messages added since, or, without
 * a usable measurement (the transcript is shorter than what was measured: it was replaced), the whole body.
 */
export function estimateRequestTokens(
  tracker: ContextTracker | undefined,
  body: { tools?: unknown; system?: unknown; messages: readonly unknown[] },
): number {
  const m = tracker?.measured;
  if (m && m.messageCount <= body.messages.length && m.messageCount > 0) {
    return m.tokens + estimateJsonTokens(body.messages.slice(m.messageCount));
  }
  return estimateJsonTokens(body.tools) + estimateJsonTokens(body.system) + estimateJsonTokens(body.messages);
}
