/**
 * A sub-agent's run inside its parent's card (Agent, a forked Skill): a collapsible, nested transcript
 * of what it said and the tools it called (their cards, permission prompts included), with its own
 * usage. Open while it runs; folded once it is done (the parent's result holds its report).
 */
import { memo, type ReactNode, useEffect, useState } from 'react';
import { Markdown } from './markdown/Markdown.tsx';
import type { SubagentView, ToolCardState } from './transcript-state.ts';
import { formatTokens } from './usage-state.ts';
import './agent-tools.css';

export interface SubagentTranscriptProps {
  view: SubagentView;
  /** Renders a nested tool card (the parent's ToolCard, so prompts and views are the same). */
  renderCard: (card: ToolCardState) => ReactNode;
}

export const SubagentTranscript = memo(function SubagentTranscript({
  view,
  renderCard,
}: SubagentTranscriptProps) {
  const running = view.transcript.running;
  const waiting = view.transcript.items.some((i) => i.kind === 'tool' && i.card.permission);
  const [open, setOpen] = useState(running);
  // A prompt inside opens it; finishing folds it (once, so the user's own toggle is kept after).
  useEffect(() => {
    if (waiting) setOpen(true);
  }, [waiting]);
  useEffect(() => {
    if (!running) setOpen(false);
  }, [running]);
  const tools = view.transcript.items.filter((i) => i.kind === 'tool').length;
  const { usage } = view;
  return (
    <section
      className="subagent"
      data-testid="subagent-transcript"
      data-agent-id={view.agentId}
      data-running={running}
    >
      <button
        type="button"
        className="subagent-head"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        data-testid="subagent-toggle"
      >
        <span className={`chevron ${open ? 'open' : ''}`} aria-hidden="true">
          ▸
        </span>
        <span className="subagent-title">{running ? 'Sub-agent working…' : 'Sub-agent transcript'}</span>
        <span className="subagent-usage muted" data-testid="subagent-usage">
          {tools} tool {tools === 1 ? 'use' : 'uses'} · {usage.requests}{' '}
          {usage.requests === 1 ? 'request' : 'requests'} · {formatTokens(usage.inputTokens)} in /{' '}
          {formatTokens(usage.outputTokens)} out
        </span>
      </button>
      {open && (
        <div className="subagent-body">
          {view.transcript.items.length === 0 && <div className="muted subagent-empty">Starting…</div>}
          {view.transcript.items.map((item) => {
            if (item.kind === 'tool') return <div key={item.id}>{renderCard(item.card)}</div>;
            if (item.kind === 'assistant-text') {
              return (
                <div key={item.id} className="subagent-text" data-testid="subagent-text">
                  <Markdown text={item.text} />
                </div>
              );
            }
            if (item.kind === 'notice') {
              return (
                <div key={item.id} className="muted subagent-notice">
                  {item.notice === 'interrupted' ? 'Interrupted.' : item.notice.replace('_', ' ')}
                </div>
              );
            }
            if (item.kind === 'error') {
              return (
                <div key={item.id} className="subagent-error" role="alert">
                  {item.error.message}
                </div>
              );
            }
            return null;
          })}
        </div>
      )}
    </section>
  );
});
