/**
 * ExitPlanMode's approval: the plan (markdown, rendered safely) and three answers: approve and let
 * edits run without asking (acceptEdits), approve and keep asking before edits (default), or keep
 * planning with feedback for the model. Keys 1, 2, 3 (focus the feedback; Enter sends), Esc keeps
 * planning. The chosen mode travels with the approval and the session switches to it.
 */
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { PermissionAnswer } from '../core/events.ts';
import { Markdown } from './markdown/Markdown.tsx';
import type { ToolCardState } from './transcript-state.ts';
import './agent-tools.css';

export function PlanApproval({ card }: { card: ToolCardState }) {
  const request = card.permission;
  const plan = String((card.input as { plan?: unknown } | undefined)?.plan ?? '');
  const [answered, setAnswered] = useState<string | null>(null);
  const [feedback, setFeedback] = useState('');
  const rootRef = useRef<HTMLElement>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    if (request && !answered) rootRef.current?.focus({ preventScroll: false });
  }, [request, answered]);
  if (!request) return null;
  if (answered) {
    return (
      <div className="plan-approval plan-answered" data-testid="plan-answered">
        {answered}
      </div>
    );
  }
  const respond = (answer: PermissionAnswer, label: string) => {
    setAnswered(label);
    request.respond(answer);
  };
  const approve = (mode: 'acceptEdits' | 'default') =>
    respond(
      { decision: 'allow-once', mode },
      mode === 'acceptEdits' ? 'Approved: edits run without asking.' : 'Approved: edits ask first.',
    );
  const keepPlanning = (e?: FormEvent) => {
    e?.preventDefault();
    const text = feedback.trim();
    respond(
      { decision: 'deny', feedback: text || 'Keep planning: the plan is not approved yet.' },
      'Sent back to keep planning.',
    );
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      keepPlanning();
      return;
    }
    if (e.target === feedbackRef.current) {
      if (e.key === 'Enter' && !e.shiftKey) keepPlanning(e);
      return;
    }
    if (e.key === '1') approve('acceptEdits');
    else if (e.key === '2') approve('default');
    else if (e.key === '3') feedbackRef.current?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <section
      ref={rootRef}
      className="plan-approval"
      role="alertdialog"
      aria-label="Approve the plan"
      aria-describedby={`${id}-plan`}
      aria-keyshortcuts="1 2 3 Escape"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="plan-approval"
    >
      <div className="plan-head">Ready to code? Here is the plan:</div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard */}
      <div className="plan-body" id={`${id}-plan`} data-testid="plan-body" tabIndex={0}>
        <Markdown text={plan || '(no plan given)'} />
      </div>
      <div className="perm-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="plan-approve-accept"
          onClick={() => approve('acceptEdits')}
        >
          <kbd className="perm-key">1</kbd> Yes, and accept edits
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="plan-approve-default"
          onClick={() => approve('default')}
        >
          <kbd className="perm-key">2</kbd> Yes, ask before each edit
        </button>
      </div>
      <form className="plan-feedback" onSubmit={keepPlanning}>
        <label className="visually-hidden" htmlFor={`${id}-feedback`}>
          What should change in the plan
        </label>
        <textarea
          id={`${id}-feedback`}
          ref={feedbackRef}
          rows={2}
          className="perm-feedback"
          data-testid="plan-feedback"
          placeholder="3: no, say what to change"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
        <button type="submit" className="btn btn-small" data-testid="plan-keep-planning">
          Keep planning <kbd className="perm-key">Esc</kbd>
        </button>
      </form>
    </section>
  );
}
