/** Small side panels: todo list and preview iframe. */
import { memo, useState } from 'react';
import type { Todo } from './todos.ts';

function TodoPanelView({ todos }: { todos: Todo[] | null }) {
  if (!todos) {
    return (
      <div className="panel-body panel-empty muted" data-testid="todo-panel">
        When the agent plans a multi-step task with its TodoWrite tool, the list shows here and updates as it
        works.
      </div>
    );
  }
  const done = todos.filter((t) => t.status === 'completed').length;
  return (
    <div className="panel-body" data-testid="todo-panel">
      <div className="panel-head">
        <span className="panel-title">Todos</span>
        <span className="muted panel-count">
          {done}/{todos.length} done
        </span>
      </div>
      <ul className="todo-list">
        {todos.map((t, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: todos are positional in the tool's input
          <li key={i} className={`todo todo-${t.status}`} data-testid="todo-item" data-status={t.status}>
            <span className="todo-box" aria-hidden="true">
              {t.status === 'completed' ? '✓' : t.status === 'in_progress' ? '◐' : ''}
            </span>
            <span>{t.status === 'in_progress' && t.activeForm ? t.activeForm : t.content}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The preview of a dev server running in the sandbox (an iframe), or how to get one. */
function PreviewPanelView({ url }: { url: string | null }) {
  const [nonce, setNonce] = useState(0);
  if (!url) {
    return (
      <div className="panel-body panel-empty muted" data-testid="preview-panel">
        No dev server is running. When the sandbox can run one (WebContainer) and the agent starts it, for
        example with <code>npm run dev</code>, the page shows here.
      </div>
    );
  }
  return (
    <div className="preview-panel" data-testid="preview-panel">
      <div className="panel-head">
        <span className="panel-title mono preview-url" title={url}>
          {url}
        </span>
        <button type="button" className="btn btn-ghost btn-tiny" onClick={() => setNonce((n) => n + 1)}>
          Reload
        </button>
        <a className="btn btn-ghost btn-tiny" href={url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      </div>
      <iframe
        key={nonce}
        className="preview-frame"
        src={url}
        title="Preview"
        sandbox="allow-scripts allow-forms allow-same-origin allow-popups"
      />
    </div>
  );
}

/** TodoPanel, re-rendered only when its props change. */
export const TodoPanel = memo(TodoPanelView);

/** PreviewPanel, re-rendered only when the URL changes. */
export const PreviewPanel = memo(PreviewPanelView);
