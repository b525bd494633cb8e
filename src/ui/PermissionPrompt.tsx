/**
 * The permission prompt shown inside a tool card while the call waits for the user: allow once, allow
 * always for this session (showing the rule it adds), or deny with optional feedback for the model.
 * Several pending calls queue: the oldest gets the full prompt, later ones say they wait their turn.
 *
 * Standalone: `usePermissionSlot(session)` gives the `permissionSlot` the transcript's tool cards mount.
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import type { AgentSession } from '../agent/types.ts';
import type { PermissionAnswer } from '../core/events.ts';
import type { PermissionSlot } from './ToolCard.tsx';
import type { ToolCardState } from './transcript-state.ts';
import './permissions.css';

/**
 * Tool-use ids of the session's calls waiting for a permission answer, oldest first. A call leaves the
 * queue when it starts, ends, or the run ends.
 */
export function usePermissionQueue(session: AgentSession | null | undefined): string[] {
  const [queue, setQueue] = useState<string[]>([]);
  useEffect(() => {
    setQueue([]);
    if (!session) return;
    return session.subscribe((event) => {
      if (event.type === 'permission-request') {
        setQueue((q) => (q.includes(event.toolUseId) ? q : [...q, event.toolUseId]));
      } else if (event.type === 'tool-run-start' || event.type === 'tool-result') {
        setQueue((q) => (q.includes(event.toolUseId) ? q.filter((id) => id !== event.toolUseId) : q));
      } else if (event.type === 'run-end') {
        setQueue([]);
      }
    });
  }, [session]);
  return queue;
}

/** The slot for `<Transcript permissionSlot={...}>`: a queue-aware prompt in each waiting card. */
export function usePermissionSlot(session: AgentSession | null | undefined): PermissionSlot {
  const queue = usePermissionQueue(session);
  return useCallback(
    ({ card }: { card: ToolCardState }) => (
      <PermissionPrompt
        key={card.toolUseId}
        card={card}
        position={Math.max(0, queue.indexOf(card.toolUseId))}
        total={Math.max(queue.length, 1)}
      />
    ),
    [queue],
  );
}

export interface PermissionPromptProps {
  card: ToolCardState;
  /** Place in the queue of waiting calls (0: answer this one now). */
  position: number;
  total: number;
}

export function PermissionPrompt({ card, position, total }: PermissionPromptProps) {
  const [answered, setAnswered] = useState<PermissionAnswer['decision'] | null>(null);
  const [feedback, setFeedback] = useState('');
  const feedbackId = useId();
  const request = card.permission;
  if (!request) return null;
  const title = card.view?.title ?? card.name;

  if (answered) {
    return (
      <div className="perm-prompt perm-answered" data-testid="permission-answered" data-decision={answered}>
        {answered === 'deny' ? 'Denied.' : 'Allowed.'}
      </div>
    );
  }
  if (position > 0) {
    return (
      <div
        className="perm-prompt perm-waiting"
        data-testid="permission-waiting"
        data-tool-use-id={card.toolUseId}
      >
        Waiting for permission ({position + 1} of {total}): answer the earlier request first.
      </div>
    );
  }

  const respond = (answer: PermissionAnswer) => {
    setAnswered(answer.decision);
    request.respond(answer);
  };
  const deny = (e?: FormEvent) => {
    e?.preventDefault();
    const text = feedback.trim();
    respond(text ? { decision: 'deny', feedback: text } : { decision: 'deny' });
  };
  const rule = request.suggestedRule;

  return (
    <section
      className="perm-prompt"
      role="alertdialog"
      aria-label={`Permission for ${title}`}
      data-testid="permission-request"
      data-tool-use-id={card.toolUseId}
    >
      <div className="perm-head">
        <span className="perm-title">Allow {title}?</span>
        {total > 1 && (
          <span className="perm-count" data-testid="permission-queue-count">
            1 of {total} waiting
          </span>
        )}
      </div>
      <p className="perm-message" data-testid="permission-message">
        {request.message || `${title} needs your permission to run.`}
      </p>
      <div className="perm-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="permission-allow-once"
          onClick={() => respond({ decision: 'allow-once' })}
        >
          Allow once
        </button>
        {rule && (
          <button
            type="button"
            className="btn btn-small perm-always"
            data-testid="permission-allow-always"
            title="Adds this rule to the session's allow rules (see the Permissions tab)"
            onClick={() => respond({ decision: 'allow-always', rule })}
          >
            Allow always this session: <code data-testid="permission-rule">{rule}</code>
          </button>
        )}
      </div>
      <form className="perm-deny" onSubmit={deny}>
        <label className="visually-hidden" htmlFor={feedbackId}>
          Feedback for the model (optional)
        </label>
        <input
          id={feedbackId}
          className="perm-feedback"
          data-testid="permission-feedback"
          placeholder="Deny, and optionally tell the model what to do instead"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
        <button type="submit" className="btn btn-small perm-deny-btn" data-testid="permission-deny">
          Deny
        </button>
      </form>
    </section>
  );
}
