/**
 * The app state the session's tools keep, for the page: the main agent's todo list (TodoWrite), read at
 * once and followed through `app-state` events. Null until the session says (a restored session's list
 * then comes from its transcript).
 */
import { useEffect, useState } from 'react';
import type { AgentSession } from '../agent/types.ts';
import { MAIN_AGENT_ID } from '../core/context.ts';
import type { Todo } from './todos.ts';

export function useAppTodos(session: AgentSession | null | undefined): Todo[] | null {
  const [todos, setTodos] = useState<Todo[] | null>(null);
  useEffect(() => {
    if (!session?.appState) {
      setTodos(null);
      return;
    }
    setTodos(session.appState().todos[MAIN_AGENT_ID] ?? null);
    return session.subscribe((event) => {
      if (event.type === 'app-state') setTodos(event.state.todos[MAIN_AGENT_ID] ?? null);
    });
  }, [session]);
  return todos;
}
