/** The todo list of a session: the input of its latest TodoWrite call (Claude Code's schema). */
import type { TranscriptItem } from './transcript-state.ts';

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface Todo {
  content: string;
  status: TodoStatus;
  activeForm?: string;
}

export const TODO_TOOL = 'TodoWrite';

/** The todos of the latest TodoWrite call, or null when the session has none. Malformed entries are skipped. */
export function latestTodos(items: readonly TranscriptItem[]): Todo[] | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind !== 'tool' || item.card.name !== TODO_TOOL || item.card.input === undefined) continue;
    const raw = (item.card.input as { todos?: unknown }).todos;
    if (!Array.isArray(raw)) continue;
    return raw.flatMap((t): Todo[] => {
      if (typeof t !== 'object' || t === null) return [];
      const { content, status, activeForm } = t as Record<string, unknown>;
      if (typeof content !== 'string') return [];
      const s: TodoStatus = status === 'in_progress' || status === 'completed' ? status : 'pending';
      return [{ content, status: s, ...(typeof activeForm === 'string' ? { activeForm } : {}) }];
    });
  }
  return null;
}
