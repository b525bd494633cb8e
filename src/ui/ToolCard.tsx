/**
 * One card per tool call, built from the tool's own plain-data description (renderToolUseMessage):
 * title, subtitle, status, elapsed time, streamed output while it runs, and its result (collapsible).
 * Edit and Write show a unified diff; Bash shows terminal-style output.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { formatDuration } from './format.ts';
import { SubagentTranscript } from './SubagentTranscript.tsx';
import { PlainText, ResultView, ToolBody } from './ToolViews.tsx';
import type { ToolCardState, ToolStatus } from './transcript-state.ts';
import { useNow } from './use-now.ts';

const STATUS_LABEL: Record<ToolStatus, string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  error: 'error',
  interrupted: 'interrupted',
};

/** A permission prompt component mounted inside the card while the call waits for the user. */
export type PermissionSlot = (props: { card: ToolCardState }) => React.ReactNode;

export const ToolCard = memo(function ToolCard({
  card,
  permissionSlot,
}: {
  card: ToolCardState;
  permissionSlot?: PermissionSlot;
}) {
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
    Boolean(body && body.kind !== 'none') ||
    Boolean(result) ||
    card.progress !== '' ||
    Boolean(card.note) ||
    Boolean(card.statusText) ||
    Boolean(card.subagent);
  const running = card.status === 'running';
  // A background command's call is done (it started the command) while the command runs on.
  const view = result?.view;
  const inBackground = view?.kind === 'terminal' && view.running === true;
  const now = useNow(running && card.startedAt !== undefined);
  // The time it ran: from its start (after any wait for permission) to its result.
  const elapsed = result
    ? card.startedAt !== undefined && card.endedAt !== undefined
      ? Math.max(0, card.endedAt - card.startedAt)
      : result.durationMs
    : running && card.startedAt !== undefined
      ? Math.max(0, now - card.startedAt)
      : undefined;

  return (
    <article
      className={`tool-card status-${card.status}`}
      data-testid="tool-card"
      data-tool-name={card.name}
      data-status={card.status}
      data-tool-use-id={card.toolUseId}
      aria-busy={running}
    >
      <header className="tool-head">
        <button
          type="button"
          className="tool-toggle"
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          disabled={!hasDetails}
          data-testid="tool-toggle"
          aria-label={`${open ? 'Collapse' : 'Expand'} ${title}`}
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
          {elapsed !== undefined && (
            <span className="tool-duration" data-testid="tool-elapsed">
              {formatDuration(elapsed)}
            </span>
          )}
          <span
            className={`status-pill status-${inBackground ? 'running' : card.status}`}
            data-testid="tool-status"
            {...(inBackground ? { 'data-background': 'running' } : {})}
          >
            {running || inBackground ? (
              <span className="spinner spinner-small" aria-hidden="true" />
            ) : (
              <span className="status-dot" aria-hidden="true" />
            )}
            {inBackground ? 'in background' : STATUS_LABEL[card.status]}
          </span>
        </span>
      </header>

      {card.permission && permissionSlot?.({ card })}
      {card.permission && !permissionSlot && <InlinePermission card={card} title={title} />}

      {open && hasDetails && (
        <div className="tool-details">
          {showBody && body && <ToolBody body={body} />}
          {card.subagent && (
            <SubagentTranscript
              view={card.subagent}
              renderCard={(c) => <ToolCard card={c} permissionSlot={permissionSlot} />}
            />
          )}
          {!result && card.progress && <Progress text={card.progress} />}
          {!result && card.statusText && <div className="muted tool-status-text">{card.statusText}</div>}
          {!result && card.note && (
            <div className="tool-note" data-testid="tool-note">
              {card.note}
            </div>
          )}
          {result && (
            <section
              className={`tool-result ${card.status === 'interrupted' ? 'is-interrupted' : result.isError ? 'is-error' : ''}`}
              data-testid="tool-result"
              aria-label={`Result of ${title}`}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
              tabIndex={0}
            >
              {resultView && !result.isError ? (
                <ResultView view={resultView} />
              ) : (
                <PlainText text={result.content || '(empty result)'} />
              )}
            </section>
          )}
        </div>
      )}
    </article>
  );
});

/** Output streamed by a running tool, kept scrolled to its end. */
function Progress({ text }: { text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow every new chunk
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text]);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
    <pre ref={ref} className="terminal terminal-progress" data-testid="tool-progress" tabIndex={0}>
      {text}
    </pre>
  );
}

/** The built-in allow/deny prompt, used until a permissions UI is mounted. */
function InlinePermission({ card, title }: { card: ToolCardState; title: string }) {
  const p = card.permission;
  if (!p) return null;
  return (
    <div className="permission-prompt" data-testid="permission-prompt">
      <span className="permission-message">{p.message || `Allow ${title}?`}</span>
      <span className="permission-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="permission-allow"
          onClick={() => p.respond({ decision: 'allow-once' })}
        >
          Allow once
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="permission-deny"
          onClick={() => p.respond({ decision: 'deny' })}
        >
          Deny
        </button>
      </span>
    </div>
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
