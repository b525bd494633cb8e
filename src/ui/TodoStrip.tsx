/**
 * The compact todo list above the prompt box (as Claude Code shows it under the spinner): the item in
 * progress in its active form, the others as small marks; a click opens the Todos panel.
 */
import { memo } from 'react';
import type { Todo } from './todos.ts';
import './agent-tools.css';

function TodoStripView({ todos, onOpen }: { todos: Todo[] | null; onOpen?: () => void }) {
  if (!todos || todos.length === 0) return null;
  const done = todos.filter((t) => t.status === 'completed').length;
  const current = todos.find((t) => t.status === 'in_progress');
  return (
    <div className="todo-strip" data-testid="todo-strip">
      <button type="button" className="todo-strip-head" onClick={onOpen} title="Open the Todos panel">
        <span className="todo-strip-count">
          {done}/{todos.length}
        </span>
        <span className="todo-strip-current" data-testid="todo-strip-current">
          {current ? (current.activeForm ?? current.content) : done === todos.length ? 'All done' : 'Next up'}
        </span>
      </button>
      <ol className="todo-strip-list" aria-label="Todo list">
        {todos.map((t, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: todos are positional in the tool's input
            key={i}
            className={`todo-strip-item todo-${t.status}`}
            data-testid="todo-strip-item"
            data-status={t.status}
          >
            <span aria-hidden="true">
              {t.status === 'completed' ? '☑' : t.status === 'in_progress' ? '◐' : '☐'}
            </span>{' '}
            {t.content}
          </li>
        ))}
      </ol>
    </div>
  );
}

export const TodoStrip = memo(TodoStripView);
