/** Renderers for the plain-data views tools return: call bodies (ToolUseMessage) and results (ToolResultView). */
import type { ToolResultView, ToolUseMessage } from '../core/tool.ts';
import { lineDiff, withContext } from './line-diff.ts';

export function DiffView({ path, before, after }: { path?: string; before: string; after: string }) {
  const rows = withContext(lineDiff(before, after));
  const added = rows.filter((r) => r.op === 'add').length;
  const removed = rows.filter((r) => r.op === 'del').length;
  return (
    <div className="diff" data-testid="diff-view">
      {path !== undefined && (
        <div className="diff-head">
          <span className="mono">{path}</span>
          <span className="diff-stat">
            <span className="diff-stat-add">+{added}</span> <span className="diff-stat-del">−{removed}</span>
          </span>
        </div>
      )}
      <pre className="diff-body">
        {added === 0 && removed === 0 && <span className="diff-line diff-skip">(no changes)</span>}
        {rows.map((row, i) => {
          // Rows have no identity beyond their position in this diff.
          const key = `${i}`;
          if (row.op === 'skip') {
            return (
              <span key={key} className="diff-line diff-skip">
                ⋯ {row.count} unchanged line{row.count === 1 ? '' : 's'}
              </span>
            );
          }
          const sign = row.op === 'add' ? '+' : row.op === 'del' ? '-' : ' ';
          return (
            <span key={key} className={`diff-line diff-${row.op}`} data-diff-op={row.op}>
              <span className="diff-sign">{sign}</span>
              {row.text}
            </span>
          );
        })}
      </pre>
    </div>
  );
}

export function CodeView({ code, path }: { code: string; path?: string }) {
  return (
    <div className="code-view">
      {path && <div className="code-head mono">{path}</div>}
      <pre className="code-body">{code}</pre>
    </div>
  );
}

/** The body of a call as the tool describes it (shown while running, and for calls without a result view). */
export function ToolBody({ body }: { body: ToolUseMessage['body'] }) {
  if (!body) return null;
  switch (body.kind) {
    case 'none':
      return null;
    case 'text':
      return <pre className="plain-text">{body.text}</pre>;
    case 'code':
      return <CodeView code={body.code} />;
    case 'terminal':
      return (
        <pre className="terminal terminal-command">
          <span className="prompt-sign">$ </span>
          {body.command}
        </pre>
      );
    case 'diff':
      return <DiffView path={body.path} before={body.before} after={body.after} />;
  }
}

export function ResultView({ view }: { view: ToolResultView }) {
  switch (view.kind) {
    case 'text':
      return <pre className="plain-text">{view.text}</pre>;
    case 'code':
      return <CodeView code={view.code} path={view.path} />;
    case 'diff':
      return <DiffView path={view.path} before={view.before} after={view.after} />;
    case 'files':
      return (
        <div className="files-result">
          {view.paths.length === 0 ? (
            <div className="muted">No files matched.</div>
          ) : (
            <ul>
              {view.paths.map((p) => (
                <li key={p} className="mono">
                  {p}
                </li>
              ))}
            </ul>
          )}
          {view.truncated && <div className="muted">(more results were cut)</div>}
        </div>
      );
    case 'terminal':
      return (
        <div className="terminal" data-testid="terminal-result">
          {view.stdout && <pre className="terminal-stdout">{view.stdout}</pre>}
          {view.stderr && <pre className="terminal-stderr">{view.stderr}</pre>}
          {!view.stdout && !view.stderr && <pre className="terminal-empty">(no output)</pre>}
          <div className="terminal-foot">
            <span className={view.exitCode === 0 ? 'exit-ok' : 'exit-bad'} data-testid="exit-code">
              exit {view.exitCode}
            </span>
            {view.timedOut && <span className="exit-bad">timed out</span>}
          </div>
        </div>
      );
  }
}
