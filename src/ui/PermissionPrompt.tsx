/**
 * The permission prompt shown inside a tool card while the call waits for the user: allow once, allow
 * always (showing the rule it adds, kept for the project), or deny with optional feedback for the
 * model. The prompt takes focus and answers by key: 1 allow once, 2 allow always, 3 deny with
 * feedback (focuses the feedback field; Enter sends), Esc deny. Several pending calls queue: the oldest
 * gets the full prompt, later ones say they wait their turn.
 *
 * Standalone: `usePermissionSlot(session)` gives the `permissionSlot` the transcript's tool cards mount.
 */
import { type FormEvent, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { AgentSession } from '../agent/types.ts';
import type { PermissionAnswer } from '../core/events.ts';
import { splitInlineCode } from './inline-code.ts';
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
    return session.subscribe((outer) => {
      // A sub-agent's prompts queue with the others.
      let event = outer;
      while (event.type === 'subagent-event') event = event.event;
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
  const keepsRules = session?.permissions.persistsAllowAlways === true;
  return useCallback(
    ({ card }: { card: ToolCardState }) => (
      <PermissionPrompt
        key={card.toolUseId}
        card={card}
        position={Math.max(0, queue.indexOf(card.toolUseId))}
        total={Math.max(queue.length, 1)}
        keepsRules={keepsRules}
      />
    ),
    [queue, keepsRules],
  );
}

export interface PermissionPromptProps {
  card: ToolCardState;
  /** Place in the queue of waiting calls (0: answer this one now). */
  position: number;
  total: number;
  /** "Allow always" rules are kept for the project (else for this session). */
  keepsRules?: boolean;
}

export function PermissionPrompt({ card, position, total, keepsRules = false }: PermissionPromptProps) {
  const [answered, setAnswered] = useState<PermissionAnswer['decision'] | null>(null);
  const [feedback, setFeedback] = useState('');
  const feedbackId = useId();
  const promptRef = useRef<HTMLElement>(null);
  const feedbackRef = useRef<HTMLInputElement>(null);
  const request = card.permission;
  const active = request !== undefined && !answered && position === 0;
  // The prompt that must be answered now takes focus, so its keys work at once.
  useEffect(() => {
    if (active) promptRef.current?.focus({ preventScroll: false });
  }, [active]);
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
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const inFeedback = e.target === feedbackRef.current;
    if (e.key === 'Escape') {
      // Esc answers this prompt (deny) rather than interrupting the whole run.
      e.preventDefault();
      e.stopPropagation();
      deny();
      return;
    }
    if (inFeedback) return;
    if (e.key === '1') respond({ decision: 'allow-once' });
    else if (e.key === '2' && rule) respond({ decision: 'allow-always', rule });
    else if (e.key === '3') feedbackRef.current?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const alwaysWhere = keepsRules ? 'for this project' : 'for this session';

  return (
    <section
      ref={promptRef}
      className="perm-prompt"
      role="alertdialog"
      aria-label={`Permission for ${title}`}
      aria-describedby={`${feedbackId}-message`}
      aria-keyshortcuts="1 2 3 Escape"
      tabIndex={-1}
      onKeyDown={onKeyDown}
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
      <p className="perm-message" id={`${feedbackId}-message`} data-testid="permission-message">
        {/* Commands and paths in <code>, as written: the message's backticks are for the model. */}
        {splitInlineCode(request.message || `${title} needs your permission to run.`).map((piece, i) =>
          piece.code ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed message, in order.
            <code key={i}>{piece.text}</code>
          ) : (
            piece.text
          ),
        )}
        {request.agentLabel && (
          <span className="perm-agent" data-testid="permission-agent">
            Asked by the sub-agent {request.agentLabel}
          </span>
        )}
        {request.destructive && (
          <span className="perm-destructive" data-testid="permission-destructive">
            It may delete or overwrite something.
          </span>
        )}
      </p>
      <div className="perm-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="permission-allow-once"
          aria-keyshortcuts="1"
          onClick={() => respond({ decision: 'allow-once' })}
        >
          <kbd className="perm-key">1</kbd> Allow once
        </button>
        {rule && (
          <button
            type="button"
            className="btn btn-small perm-always"
            data-testid="permission-allow-always"
            aria-keyshortcuts="2"
            title={`Adds this allow rule ${alwaysWhere} (listed in the Permissions tab, where it can be removed)`}
            onClick={() => respond({ decision: 'allow-always', rule })}
          >
            <kbd className="perm-key">2</kbd> Allow always {alwaysWhere}:{' '}
            <code data-testid="permission-rule">{rule}</code>
          </button>
        )}
      </div>
      <form className="perm-deny" onSubmit={deny}>
        <label className="visually-hidden" htmlFor={feedbackId}>
          Feedback for the model (optional)
        </label>
        <input
          id={feedbackId}
          ref={feedbackRef}
          className="perm-feedback"
          data-testid="permission-feedback"
          aria-keyshortcuts="3"
          placeholder="3: deny with a note"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
        <button
          type="submit"
          className="btn btn-small perm-deny-btn"
          data-testid="permission-deny"
          aria-keyshortcuts="Escape"
        >
          Deny <kbd className="perm-key">Esc</kbd>
        </button>
      </form>
    </section>
  );
}
