/**
 * The compacted transcript: which messages are summarized and which stay, and the transcript that
 * replaces them. Everything needed for the next request to be valid and cache-friendly is re-stated in
 * the first user message: the summary, the project memory, the full list of deferred tools. Tools found
 * through ToolSearch stay loaded through a ToolSearch call re-made at the start (their definitions then
 * stay in `tools`, byte for byte). Pure functions.
 */
import { TOOL_SEARCH_TOOL_NAME } from '../constants.ts';
import {
  deferredToolsReminder,
  discoveredToolNames,
  partitionPool,
  toolReferenceBlock,
} from '../deferred-tools.ts';
import { lastMemoryReminder } from '../memory.ts';
import {
  type ContentBlockParam,
  contentBlocks,
  ensureToolResultPairing,
  type MessageParam,
  type ToolResultBlockParam,
  toolResults,
} from '../messages.ts';
import type { AnyTool } from '../tool.ts';
import { estimateJsonTokens } from './estimate.ts';
import { RELOADED_TOOLS_ACK, RELOADED_TOOLS_NOTE, summaryMessageText } from './prompt.ts';

export interface SplitOptions {
  /**
   * The largest work in progress kept as it is (estimated tokens). A larger tool-loop tail is summarized
   * with the rest (a compacted transcript that still holds it would be as large as before). A trailing
   * prompt of the user stays whatever its size: those are the user's own words. Default: no limit.
   */
  maxTailTokens?: number;
}

/**
 * The split of a transcript: `head` is summarized, `tail` stays as it is. The tail is the work in
 * progress: the last assistant message and its tool results when the transcript ends in a tool loop
 * (when they fit `maxTailTokens`; else nothing), the last user message when it ends with a prompt,
 * nothing when it ends with the assistant's answer.
 */
export function splitForCompaction(
  messages: readonly MessageParam[],
  options: SplitOptions = {},
): {
  head: MessageParam[];
  tail: MessageParam[];
} {
  const n = messages.length;
  const last = messages[n - 1];
  let at = n;
  if (last?.role === 'user') {
    const toolLoop = toolResults(last).length > 0 && n >= 2;
    at = toolLoop ? n - 2 : n - 1;
    const max = options.maxTailTokens;
    if (toolLoop && max !== undefined && estimateJsonTokens(messages.slice(at)) > max) at = n;
  }
  return { head: messages.slice(0, Math.max(0, at)), tail: messages.slice(Math.max(0, at)) };
}

/** A tool_use id for the synthetic ToolSearch call (the API's id alphabet). */
function syntheticId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `toolu_compact_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export interface CompactedTranscriptParams {
  summary: string;
  head: readonly MessageParam[];
  tail: readonly MessageParam[];
  /** The request's pool: which deferred tools to announce. */
  pool: readonly AnyTool[];
  /** Tool search mode: in portable mode the re-made ToolSearch result carries full schemas (see query). */
  mapReloadResult?: (block: ToolResultBlockParam) => ToolResultBlockParam;
  /**
   * The summarized transcript ended with a user message that is summarized too (a tool loop too large
   * to keep): the compacted transcript ends with a user message as well, so the turn goes on from it.
   */
  continueTurn?: boolean;
}

/**
 * The transcript after compaction: [summary, memory, deferred tools] as one user message, the re-made
 * ToolSearch call for discovered tools (with a short assistant note when the tail does not open with
 * the assistant, unless the turn goes on from it), then the tail. Valid for the API
 * (ensureToolResultPairing).
 */
export function compactedTranscript(p: CompactedTranscriptParams): MessageParam[] {
  const first: ContentBlockParam[] = [
    { type: 'text', text: summaryMessageText(p.summary, p.head.length, p.tail.length > 0) },
  ];
  const memory = lastMemoryReminder(p.head);
  // The tail may state memory itself (a prompt of this turn): only the head's statement is carried.
  if (memory && !lastMemoryReminder(p.tail)) first.push(memory);
  const deferred = partitionPool(p.pool).deferred.map((t) => t.name);
  const announcement = deferredToolsReminder(new Set(), deferred);
  if (announcement) first.push({ type: 'text', text: announcement });
  const out: MessageParam[] = [{ role: 'user', content: first }];

  const inTail = new Set(discoveredToolNames(p.tail));
  const reload = discoveredToolNames(p.head).filter((n) => !inTail.has(n));
  if (reload.length > 0 && p.pool.some((t) => t.name === TOOL_SEARCH_TOOL_NAME)) {
    const id = syntheticId();
    out.push({
      role: 'assistant',
      content: [
        { type: 'tool_use', id, name: TOOL_SEARCH_TOOL_NAME, input: { query: `select:${reload.join(',')}` } },
      ],
    });
    let result: ToolResultBlockParam = {
      type: 'tool_result',
      tool_use_id: id,
      content: [
        ...reload.map(toolReferenceBlock),
        { type: 'text', text: `${RELOADED_TOOLS_NOTE} ${reload.join(', ')}` },
      ] as never,
    };
    if (p.mapReloadResult) result = p.mapReloadResult(result);
    out.push({ role: 'user', content: [result] });
    if (p.tail[0]?.role !== 'assistant' && !(p.continueTurn && p.tail.length === 0))
      out.push({ role: 'assistant', content: [{ type: 'text', text: RELOADED_TOOLS_ACK }] });
  }
  return ensureToolResultPairing([...out, ...p.tail]);
}

/** The text blocks of a message joined (for the UI's note of what the summary replaced). */
export function messageText(message: MessageParam): string {
  return contentBlocks(message)
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n');
}
