/**
 * The loop guard against token burn: a model that repeats the same failing call (same tool, same input,
 * same error) is not getting anywhere. Counted per turn; the loop ends the turn once one call failed
 * this way `limit` times.
 */
import { SYNTHETIC_TOOL_RESULT_INTERRUPTED } from './constants.ts';
import type { ToolResultBlockParam, ToolUseBlockParam } from './messages.ts';

/** The text of a result's content (what the model read). */
function resultText(block: ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

/** Stable JSON (keys sorted), so equal inputs written in another key order count as the same call. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class RepeatedFailures {
  private readonly counts = new Map<string, number>();
  constructor(private readonly limit: number) {}

  /**
   * Counts the failed results of one assistant message's calls. Returns the call that reached the limit
   * (its tool, how many times, its error), or null. Interrupted calls do not count.
   */
  record(
    uses: readonly ToolUseBlockParam[],
    results: readonly ToolResultBlockParam[],
  ): { toolName: string; count: number; error: string } | null {
    if (this.limit <= 0) return null;
    let hit: { toolName: string; count: number; error: string } | null = null;
    for (const result of results) {
      if (result.is_error !== true) continue;
      const use = uses.find((u) => u.id === result.tool_use_id);
      const error = resultText(result);
      if (!use || error === SYNTHETIC_TOOL_RESULT_INTERRUPTED) continue;
      const key = `${use.name}\u0000${stableJson(use.input)}\u0000${error}`;
      const count = (this.counts.get(key) ?? 0) + 1;
      this.counts.set(key, count);
      if (count >= this.limit && !hit) hit = { toolName: use.name, count, error: error.slice(0, 500) };
    }
    return hit;
  }
}
