/**
 * Context management before a request, in the loop: when the request would pass the auto-compaction
 * threshold, old large tool results are cleared first; only when that is not enough is the conversation
 * summarized. Both replace the transcript for good (later requests repeat the same bytes, so the cache
 * builds again from there). Events tell the page what happened. Never throws.
 */
import type { CompactionTrigger, QueryEvent } from '../events.ts';
import type { MessageParam } from '../messages.ts';
import { clearOldToolResults } from './clear.ts';
import { type ContextTracker, estimateRequestTokens, tokensOfChars } from './estimate.ts';
import { autoCompactRatio } from './ratio.ts';
import { type CompactParams, compactConversation } from './summarize.ts';

export { autoCompactRatio } from './ratio.ts';

/** The session's context-management settings. */
export interface ContextSettings {
  /** The model's context window (input tokens). */
  contextWindow: number;
  /** Summarize before a request that would pass this share of the window (default DEFAULT_AUTO_COMPACT_RATIO). */
  autoCompactRatio?: number;
  /** False: never summarize on its own (only /compact and a "prompt is too long" do). Default true. */
  autoCompact?: boolean;
  /** False: never clear old tool results. Default true. */
  clearToolResults?: boolean;
}

export interface ManageParams {
  settings: ContextSettings;
  tracker?: ContextTracker;
  /** The request about to be sent, as built (its tools and system count too). */
  body: { tools?: unknown; system?: unknown; messages: readonly unknown[] };
  /** The transcript (what is cleared or compacted). */
  messages: MessageParam[];
  /** How to summarize (everything but the messages, which come from above). */
  compact: Omit<CompactParams, 'messages'>;
  /** 'overflow': the API refused the request as too long: summarize whatever the estimate says. */
  force?: CompactionTrigger;
}

export interface ManageOutcome {
  messages: MessageParam[];
  /** True when the transcript was replaced (the tracker's measurement no longer applies). */
  changed: boolean;
  /** Compaction was tried and failed (the transcript is as it was). */
  failed?: boolean;
}

/**
 * Clears and/or compacts when needed, yielding `context-cleared`, `compaction-start`, `compaction-end`
 * or `compaction-failed`. Returns the transcript to send.
 */
export async function* manageContext(p: ManageParams): AsyncGenerator<QueryEvent, ManageOutcome> {
  const limit = Math.floor(p.settings.contextWindow * autoCompactRatio(p.settings));
  let estimate = estimateRequestTokens(p.tracker, p.body);
  if (!p.force && estimate <= limit) return { messages: p.messages, changed: false };
  let messages = p.messages;
  let changed = false;
  if (!p.force && p.settings.clearToolResults !== false) {
    const cleared = clearOldToolResults(messages);
    if (cleared.cleared > 0) {
      const after = Math.max(0, estimate - tokensOfChars(cleared.freedChars));
      yield {
        type: 'context-cleared',
        cleared: cleared.cleared,
        tokensBefore: estimate,
        tokensAfter: after,
        messages: cleared.messages,
      };
      messages = cleared.messages;
      estimate = after;
      changed = true;
      if (estimate <= limit) return { messages, changed };
    }
  }
  if (!p.force && p.settings.autoCompact === false) return { messages, changed };
  const trigger: CompactionTrigger = p.force ?? 'auto';
  yield { type: 'compaction-start', trigger, tokensBefore: estimate };
  const outcome = await compactConversation({
    // A refused request was larger than the real window, whatever the session believes it to be: the
    // compaction fits what was refused (its summary request, and the work in progress it keeps).
    contextWindow:
      p.force === 'overflow' ? Math.min(p.settings.contextWindow, estimate) : p.settings.contextWindow,
    ...p.compact,
    messages,
  });
  if (!outcome.ok) {
    yield { type: 'compaction-failed', trigger, error: outcome.error };
    return { messages, changed, failed: true };
  }
  yield {
    type: 'compaction-end',
    trigger,
    summary: outcome.summary,
    summarized: outcome.summarized,
    tokensBefore: estimate,
    tokensAfter: outcome.tokensAfter,
    usage: outcome.usage,
    model: outcome.model,
    messages: outcome.messages,
  };
  return { messages: outcome.messages, changed: true };
}
