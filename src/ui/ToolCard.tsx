/** One card per tool call: status, what the call does, streamed output, and its result. */
import { useState } from 'react';
import { formatDuration } from './format.ts';
import { ResultView, ToolBody } from './ToolViews.tsx';
import type { ToolCardState, ToolStatus } from './transcript-state.ts';

const STATUS_LABEL: Record<ToolStatus, string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  error: 'error',
  interrupted: 'interrupted',
};

export function ToolCard({ card }: { card: ToolCardState }) {
  const [open, setOpen] = useState(true);
  const title = card.view?.title ?? card.name;
  const body = card.view?.body;
  const fullSubtitle = card.view?.subtitle ?? inputPreview(card);
  // An open Bash card shows its command in the terminal body: do not repeat it in the header.
  const subtitle =
    open && body?.kind === 'terminal' && body.command === fullSubtitle ? undefined : fullSubtitle;
  const result = card.result;
  const resultView = result?.view;
  // A diff result shows what a code or diff body showed (Write, Edit): show it once.
  const bodyKind = body?.kind;
  const showBody = !(
    resultView?.kind === 'diff' &&
    !result?.isError &&
    (bodyKind === 'diff' || bodyKind === 'code')
  );
  const hasDetails =
    Boolean(card.view?.body && card.view.body.kind !== 'none') || Boolean(result) || card.progress !== '';

  return (
    <article
      className={`tool-card status-${card.status}`}
      data-testid="tool-card"
      data-tool-name={card.name}
      data-status={card.status}
      data-tool-use-id={card.toolUseId}
    >
      <header className="tool-head">
        <button
          type="button"
          className="tool-toggle"
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          disabled={!hasDetails}
          data-testid="tool-toggle"
          title={open ? 'Collapse' : 'Expand'}
        >
          <span className={`chevron ${open ? 'open' : ''}`} aria-hidden="true">
            ▸
          </span>
        </button>
        <span className="tool-title">{title}</span>
        {subtitle && (
          <span className="tool-subtitle mono" title={subtitle}>
            {subtitle}
          </span>
        )}
        <span className="tool-meta">
          {result && <span className="tool-duration">{formatDuration(result.durationMs)}</span>}
          <span className={`status-pill status-${card.status}`} data-testid="tool-status">
            <span className="status-dot" aria-hidden="true" />
            {STATUS_LABEL[card.status]}
          </span>
        </span>
      </header>

      {card.permission && (
        <div className="permission-prompt" data-testid="permission-prompt">
          <span className="permission-message">{card.permission.message || `Allow ${title}?`}</span>
          <span className="permission-actions">
            <button
              type="button"
              className="btn btn-primary btn-small"
              data-testid="permission-allow"
              onClick={() => card.permission?.respond({ decision: 'allow-once' })}
            >
              Allow once
            </button>
            <button
              type="button"
              className="btn btn-small"
              data-testid="permission-deny"
              onClick={() => card.permission?.respond({ decision: 'deny' })}
            >
              Deny
            </button>
          </span>
        </div>
      )}

      {open && hasDetails && (
        <div className="tool-details">
          {showBody && body && <ToolBody body={body} />}
          {!result && card.progress && (
            <pre className="terminal terminal-progress" data-testid="tool-progress">
              {card.progress}
            </pre>
          )}
          {!result && card.statusText && <div className="muted tool-status-text">{card.statusText}</div>}
          {result && (
            <div
              className={`tool-result ${card.status === 'interrupted' ? 'is-interrupted' : result.isError ? 'is-error' : ''}`}
              data-testid="tool-result"
            >
              {resultView && !result.isError ? (
                <ResultView view={resultView} />
              ) : (
                <pre className="plain-text">{result.content || '(empty result)'}</pre>
              )}
            </div>
          )}
        </div>
      )}
    </article>
  );
}

/** A short preview of the input before the tool describes itself (while the input streams). */
function inputPreview(card: ToolCardState): string | undefined {
  if (card.input !== undefined) return compactJson(card.input);
  if (!card.inputJson) return undefined;
  return card.inputJson.length > 120 ? `${card.inputJson.slice(0, 120)}…` : card.inputJson;
}

function compactJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {
    return String(value);
  }
}
