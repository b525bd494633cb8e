/**
 * The app state a saved conversation implies: its todo list is the input of its last TodoWrite call that
 * succeeded (the main agent's; sub-agents' lists live and end with them): a call refused, interrupted or
 * never answered changed nothing. Pure; malformed entries are skipped.
 */
import { type AppState, createAppState, MAIN_AGENT_ID, type TodoItem } from '../core/context.ts';
import type { MessageParam } from '../core/messages.ts';

const STATUSES = new Set(['pending', 'in_progress', 'completed']);

/** The todo items of a TodoWrite input, or null when it holds none. */
export function todosOfInput(input: unknown): TodoItem[] | null {
  const raw = (input as { todos?: unknown } | null)?.todos;
  if (!Array.isArray(raw)) return null;
  return raw.flatMap((t): TodoItem[] => {
    if (typeof t !== 'object' || t === null) return [];
    const { content, status, activeForm } = t as Record<string, unknown>;
    if (typeof content !== 'string' || !STATUSES.has(String(status))) return [];
    return [
      {
        content,
        status: status as TodoItem['status'],
        activeForm: typeof activeForm === 'string' ? activeForm : content,
      },
    ];
  });
}

/** The ids of the tool calls whose result is not an error. */
function succeededCalls(messages: readonly MessageParam[]): Set<string> {
  const ok = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result' && b.is_error !== true) ok.add(b.tool_use_id);
  }
  return ok;
}

export function appStateFromTranscript(messages: readonly MessageParam[]): AppState {
  const state = createAppState();
  const succeeded = succeededCalls(messages);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const b = m.content[j];
      if (b.type !== 'tool_use' || b.name !== 'TodoWrite' || !succeeded.has(b.id)) continue;
      const todos = todosOfInput(b.input);
      if (!todos) continue;
      // A finished list is cleared, as TodoWrite does.
      const done = todos.length > 0 && todos.every((t) => t.status === 'completed');
      return { ...state, todos: { [MAIN_AGENT_ID]: done ? [] : todos } };
    }
  }
  return state;
}
