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
import { buildRequestBody, requestBetas, type ThinkingSetting } from '../request.ts';
import type { AnyTool } from '../tool.ts';
import { clearOldToolResults } from './clear.ts';
import { estimateJsonTokens } from './estimate.ts';
import { extractSummary, summaryInstructions } from './prompt.ts';
import { compactedTranscript, splitForCompaction } from './transcript.ts';

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
    /prompt is too long|too many tokens|context (window|length)/i.test(text)
  );
}

function failure(message: string, kind: QueryError['kind'] = 'unknown'): CompactOutcome {
  return { ok: false, error: { kind, message } };
}

/** One summarization request over `head`; its text, or the error. */
async function summarize(
  p: CompactParams,
  head: MessageParam[],
): Promise<{ text: string; usage: Usage; model: string } | { error: unknown }> {
  const messages = ensureToolResultPairing(withUserText(head, summaryInstructions(p.instructions)));
  const body = buildRequestBody({
    model: p.model,
    maxTokens: COMPACTION_MAX_OUTPUT_TOKENS,
    systemPrompt: p.systemPrompt,
    tools: p.pool,
    messages,
    schemaCache: p.schemaCache,
    cacheTtl: p.cacheTtl,
    deferral: p.deferral,
    thinking: p.thinking,
  });
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
 * Summarizes `p.messages` into a compacted transcript. When the summarization request itself is too
 * long, every old tool result of the summarized part is cleared and it is sent once more. Never throws.
 */
export async function compactConversation(p: CompactParams): Promise<CompactOutcome> {
  const empty = nothingToCompact(p.messages);
  if (empty) return failure(empty, 'invalid_request');
  const { head, tail } = splitForCompaction(p.messages);
  const tokensBefore = estimateJsonTokens(p.messages);
  let answer = await summarize(p, head);
  if ('error' in answer && isPromptTooLong(answer.error) && !p.signal?.aborted) {
    const cleared = clearOldToolResults(head, { keepRecent: 0, minChars: 0 });
    if (cleared.cleared > 0) answer = await summarize(p, cleared.messages);
  }
  if ('error' in answer) {
    if (p.signal?.aborted)
      return failure('Compaction was interrupted; the conversation is unchanged.', 'aborted');
    const error = classifyApiError(answer.error);
    return {
      ok: false,
      error: { ...error, message: `Compaction failed; the conversation is unchanged. ${error.message}` },
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
