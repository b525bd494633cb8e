/**
 * Compaction: the model summarizes the conversation so far, and the summary (with what must stay:
 * memory, deferred tools, discovered tools, the work in progress) replaces it. The summarization request
 * uses the session's own tools, system and settings, so it reads their cache, and the requests after
 * it keep the same tools and system bytes. A failed or interrupted summarization changes nothing.
 * Never throws.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { SchemaCache } from '../api-schema.ts';
import { COMPACTION_MAX_OUTPUT_TOKENS } from '../constants.ts';
import { type DeferredToolsState, definitionResolver, referencesToPortable } from '../deferred-tools.ts';
import type { QueryError } from '../events.ts';
import { ensureToolResultPairing, type MessageParam, type Usage, withUserText } from '../messages.ts';
import { classifyApiError } from '../model/anthropic.ts';
import { streamMessages } from '../model/beta-stream.ts';
import { contextWindowOf } from '../model/context-window.ts';
import { buildRequestBody, requestBetas, type ThinkingSetting } from '../request.ts';
import type { AnyTool } from '../tool.ts';
import { estimateJsonTokens } from './estimate.ts';
import {
  COMPACTION_MAX_MARGIN_SHARE,
  COMPACTION_MAX_OUTPUT_SHARE,
  COMPACTION_MAX_TAIL_SHARE,
  COMPACTION_REQUEST_MARGIN_TOKENS,
  COMPACTION_RETRY_FILL,
  COMPACTION_TOO_LONG_RETRIES,
} from './limits.ts';
import { extractSummary, summaryInstructions, viewNote } from './prompt.ts';
import { compactedTranscript, splitForCompaction } from './transcript.ts';
import { summaryView } from './view.ts';

export interface CompactParams {
  client: Anthropic;
  model: string;
  systemPrompt: string;
  /** The session's pool, in cache order (the same tools bytes as its other requests). */
  pool: readonly AnyTool[];
  schemaCache: SchemaCache;
  deferral: DeferredToolsState;
  cacheTtl?: '5m' | '1h';
  thinking?: ThinkingSetting;
  messages: readonly MessageParam[];
  /** The model's context window (input tokens); default: the table's window for `model`. */
  contextWindow?: number;
  /** What the user asked for in `/compact <instructions>`. */
  instructions?: string;
  signal?: AbortSignal;
}

export type CompactOutcome =
  | {
      ok: true;
      messages: MessageParam[];
      summary: string;
      summarized: number;
      tokensBefore: number;
      tokensAfter: number;
      usage: Usage;
      model: string;
    }
  | { ok: false; error: QueryError };

/** Why a transcript cannot be compacted (null when it can). */
export function nothingToCompact(messages: readonly MessageParam[]): string | null {
  const { head } = splitForCompaction(messages);
  if (head.length === 0)
    return 'There is nothing to compact yet: the conversation has no earlier messages to summarize.';
  return null;
}

/** True for the API's 400 for a request over the context window ("prompt is too long: N tokens > M maximum"). */
export function isPromptTooLong(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { status?: unknown; message?: unknown; error?: { error?: { message?: unknown } } };
  const text = `${String(e.error?.error?.message ?? '')} ${String(e.message ?? '')}`;
  return (
    (e.status === 400 || e.status === 413) &&
    /prompt is too long|too many tokens|context (window|length)|exceed context limit/i.test(text)
  );
}

function failure(message: string, kind: QueryError['kind'] = 'unknown'): CompactOutcome {
  return { ok: false, error: { kind, message } };
}

/** The two numbers of "prompt is too long: N tokens > M maximum", when the error states them. */
export function tooLongFigures(err: unknown): { tokens: number; maximum: number } | null {
  const e = err as { message?: unknown; error?: { error?: { message?: unknown } } } | null;
  const text = `${String(e?.error?.error?.message ?? '')} ${String(e?.message ?? '')}`;
  const m = /(\d+) tokens > (\d+) maximum/.exec(text);
  if (!m) return null;
  const tokens = Number(m[1]);
  const maximum = Number(m[2]);
  return tokens > 0 && maximum > 0 ? { tokens, maximum } : null;
}

type Answer = { text: string; usage: Usage; model: string } | { error: unknown };

/** The window compaction works within. */
function windowOf(p: CompactParams): number {
  return p.contextWindow ?? contextWindowOf(p.model).tokens;
}

/** The summarization request for `messages`. Its output budget leaves most of a small window to the input. */
function requestOf(p: CompactParams, window: number, messages: MessageParam[]) {
  return buildRequestBody({
    model: p.model,
    maxTokens: Math.min(COMPACTION_MAX_OUTPUT_TOKENS, Math.floor(window * COMPACTION_MAX_OUTPUT_SHARE)),
    systemPrompt: p.systemPrompt,
    tools: p.pool,
    messages,
    schemaCache: p.schemaCache,
    cacheTtl: p.cacheTtl,
    deferral: p.deferral,
    thinking: p.thinking,
  });
}

/** One summarization request; its text, or the error. Never throws. */
async function send(p: CompactParams, body: ReturnType<typeof requestOf>): Promise<Answer> {
  try {
    const stream = streamMessages(p.client, body, requestBetas(body), { signal: p.signal });
    const final = await stream.finalMessage();
    const text = final.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    return { text, usage: final.usage, model: final.model };
  } catch (error) {
    return { error };
  }
}

/**
 * Summarizes `head` through bounded views: the first sized to the window, and when the API still
 * refuses it as too long, at most COMPACTION_TOO_LONG_RETRIES smaller ones (sized from the figures of
 * the refusal when it gives them). Never throws.
 */
async function summarize(p: CompactParams, head: MessageParam[]): Promise<Answer> {
  /** The window the request must fit: the session's, or the maximum a refusal stated. */
  let window = windowOf(p);
  /** Real tokens per estimated token, once a refusal has measured it (1 before). */
  let density = 1;
  /** A cap on the view after a refusal without figures (half the refused one). */
  let cap = Number.POSITIVE_INFINITY;
  let answer: Answer = { error: new Error('no request was sent') };
  for (let attempt = 0; attempt <= COMPACTION_TOO_LONG_RETRIES; attempt++) {
    const bare = requestOf(p, window, [
      { role: 'user', content: summaryInstructions(p.instructions, viewNote(1, 1)) },
    ]);
    // What the request carries beside the conversation (tools, system, the instructions), and the room
    // its output and the estimate's margin take.
    const fixed =
      estimateJsonTokens(bare.tools) + estimateJsonTokens(bare.system) + estimateJsonTokens(bare.messages);
    const margin = Math.min(
      COMPACTION_REQUEST_MARGIN_TOKENS,
      Math.floor(window * COMPACTION_MAX_MARGIN_SHARE),
    );
    const fill = attempt === 0 ? 1 : COMPACTION_RETRY_FILL;
    const budget = Math.min(cap, Math.floor(((window - bare.max_tokens - margin) * fill) / density - fixed));
    // After a refusal, a view too small to be of use is not sent: the refusal stands.
    if (budget <= 0 && attempt > 0) return answer;
    if (budget <= 0) {
      return {
        error: new CompactionTooLong(
          `The session's tools, system prompt and the summary's output budget leave no room for the conversation in the ${window}-token window.`,
        ),
      };
    }
    const view = summaryView(head, budget);
    if (view.dropped >= head.length && attempt > 0) return answer;
    if (view.dropped >= head.length) {
      return {
        error: new CompactionTooLong(
          'Not even the latest message fits the summarization request, however shortened.',
        ),
      };
    }
    const note = viewNote(view.shortened, view.dropped);
    const messages = ensureToolResultPairing(
      withUserText(view.messages, summaryInstructions(p.instructions, note)),
    );
    answer = await send(p, requestOf(p, window, messages));
    if (!('error' in answer) || !isPromptTooLong(answer.error) || p.signal?.aborted) return answer;
    // The estimate was off (dense text counts more tokens per character, or the window is smaller than
    // the session believes): a smaller view, sized from what the API measured when it says so.
    const figures = tooLongFigures(answer.error);
    if (figures) {
      window = Math.min(window, figures.maximum);
      density = Math.max(density, figures.tokens / Math.max(1, fixed + view.tokens));
      cap = Math.floor(view.tokens * COMPACTION_RETRY_FILL);
    } else cap = Math.floor(view.tokens / 2);
  }
  return answer;
}

/** What a user can do when even a shortened summary request is too long. */
const START_OVER = 'Use /clear to start a new conversation if the next request is refused too.';

/** The summarization request could not be made small enough. */
class CompactionTooLong extends Error {}

/**
 * Summarizes `p.messages` into a compacted transcript. The summarizer reads a bounded view of every
 * message (see view.ts), so the summary covers the whole conversation, the latest turn included; a
 * work in progress too large to keep is summarized with the rest. When the summarization request
 * itself is refused as too long, smaller views are tried a bounded number of times, then it fails.
 * Never throws.
 */
export async function compactConversation(p: CompactParams): Promise<CompactOutcome> {
  const empty = nothingToCompact(p.messages);
  if (empty) return failure(empty, 'invalid_request');
  const window = windowOf(p);
  const { head, tail } = splitForCompaction(p.messages, {
    maxTailTokens: Math.floor(window * COMPACTION_MAX_TAIL_SHARE),
  });
  const tokensBefore = estimateJsonTokens(p.messages);
  const answer = await summarize(p, head);
  if ('error' in answer) {
    if (p.signal?.aborted)
      return failure('Compaction was interrupted; the conversation is unchanged.', 'aborted');
    if (answer.error instanceof CompactionTooLong) {
      return failure(
        `Compaction failed; the conversation is unchanged. ${answer.error.message} ${START_OVER}`,
        'invalid_request',
      );
    }
    const error = classifyApiError(answer.error);
    const tooLong = isPromptTooLong(answer.error)
      ? ' The summarization request was still too long after it was shortened.'
      : '';
    return {
      ok: false,
      error: {
        ...error,
        message: `Compaction failed; the conversation is unchanged.${tooLong} ${error.message}${tooLong ? ` ${START_OVER}` : ''}`,
      },
    };
  }
  const summary = extractSummary(answer.text);
  if (!summary)
    return failure('Compaction failed: the model returned no summary; the conversation is unchanged.');
  const resolve = definitionResolver(p.pool, p.schemaCache, p.deferral);
  const messages = compactedTranscript({
    summary,
    head,
    tail,
    pool: p.pool,
    mapReloadResult: p.deferral.mode === 'portable' ? (b) => referencesToPortable(b, resolve) : undefined,
    continueTurn: tail.length === 0 && p.messages.at(-1)?.role === 'user',
  });
  return {
    ok: true,
    messages,
    summary,
    summarized: head.length,
    tokensBefore,
    tokensAfter: estimateJsonTokens(messages),
    usage: answer.usage,
    model: answer.model,
  };
}
