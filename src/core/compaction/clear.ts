/**
 * The first step of context management, the way Anthropic's context editing does it: old tool results
 * are the bulk of a long session, so the large ones are replaced by a short note before anything is
 * summarized. The most recent results stay, as do ToolSearch results (their tool_reference blocks keep
 * the discovered tools loaded) and results already cleared. tool_use/tool_result pairing is untouched:
 * only the content of a result changes. Pure; the input is not mutated.
 */
import {
  CLEAR_KEEP_RECENT_TOOL_RESULTS,
  CLEAR_MIN_TOOL_RESULT_CHARS,
  CLEARED_TOOL_RESULT_TEXT,
  TOOL_SEARCH_TOOL_NAME,
} from '../constants.ts';
import { contentBlocks, type MessageParam, type ToolResultBlockParam } from '../messages.ts';

export interface ClearOptions {
  /** The newest results kept as they are (default CLEAR_KEEP_RECENT_TOOL_RESULTS). */
  keepRecent?: number;
  /** Only results longer than this many characters are cleared (default CLEAR_MIN_TOOL_RESULT_CHARS). */
  minChars?: number;
  /** Tools whose results are never cleared (ToolSearch always). */
  excludeTools?: readonly string[];
}

export interface ClearOutcome {
  messages: MessageParam[];
  /** Results cleared. */
  cleared: number;
  /** Characters of result content removed (their JSON), net of the notes put in. */
  freedChars: number;
}

/** The JSON size of a result's content (what it weighs in the request). */
function contentChars(block: ToolResultBlockParam): number {
  return block.content === undefined ? 0 : JSON.stringify(block.content).length;
}

function isCleared(block: ToolResultBlockParam): boolean {
  return block.content === CLEARED_TOOL_RESULT_TEXT;
}

/** `messages` with old large tool results replaced by CLEARED_TOOL_RESULT_TEXT. Never throws. */
export function clearOldToolResults(
  messages: readonly MessageParam[],
  options: ClearOptions = {},
): ClearOutcome {
  const keepRecent = Math.max(0, options.keepRecent ?? CLEAR_KEEP_RECENT_TOOL_RESULTS);
  const minChars = Math.max(0, options.minChars ?? CLEAR_MIN_TOOL_RESULT_CHARS);
  const excluded = new Set([TOOL_SEARCH_TOOL_NAME, ...(options.excludeTools ?? [])]);
  const toolNames = new Map<string, string>();
  const positions: Array<{ message: number; block: number }> = [];
  messages.forEach((m, i) => {
    contentBlocks(m).forEach((b, j) => {
      if (b.type === 'tool_use') toolNames.set(b.id, b.name);
      else if (b.type === 'tool_result') positions.push({ message: i, block: j });
    });
  });
  const candidates = positions.slice(0, Math.max(0, positions.length - keepRecent));
  const out = messages.slice();
  let cleared = 0;
  let freedChars = 0;
  const noteChars = JSON.stringify(CLEARED_TOOL_RESULT_TEXT).length;
  for (const { message, block } of candidates) {
    const blocks = contentBlocks(out[message]);
    const b = blocks[block] as ToolResultBlockParam;
    if (isCleared(b) || excluded.has(toolNames.get(b.tool_use_id) ?? '')) continue;
    const chars = contentChars(b);
    if (chars <= minChars || chars <= noteChars) continue;
    const next = blocks.slice();
    next[block] = { ...b, content: CLEARED_TOOL_RESULT_TEXT };
    out[message] = { ...out[message], content: next } as MessageParam;
    cleared++;
    freedChars += chars - noteChars;
  }
  return { messages: cleared ? out : (messages as MessageParam[]), cleared, freedChars };
}
