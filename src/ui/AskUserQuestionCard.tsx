/**
 * AskUserQuestion's card: the questions the agent asks, answered by click or key (1-4 pick an option of
 * the current question, 5 focuses "Other", Enter sends once every question has an answer, Esc
 * dismisses). The answers go back as the approved input's `answers` (question → label; several labels
 * of a multi-select question comma-separated), which the tool returns to the model.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { PermissionAnswer } from '../core/events.ts';
import { keepAnswers } from './kept-answers.ts';
import type { ToolCardState } from './transcript-state.ts';
import './agent-tools.css';

interface Option {
  label: string;
  description?: string;
}

interface Question {
  question: string;
  header?: string;
  options: Option[];
  multiSelect?: boolean;
}

/** The questions of a card's input, or an empty list when it holds none that can be shown. */
export function questionsOf(input: unknown): Question[] {
  const raw = (input as { questions?: unknown } | undefined)?.questions;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((q): Question[] => {
    if (typeof q !== 'object' || q === null) return [];
    const { question, header, options, multiSelect } = q as Record<string, unknown>;
    if (typeof question !== 'string' || !Array.isArray(options)) return [];
    const opts = options.flatMap((o): Option[] =>
      typeof o === 'object' && o !== null && typeof (o as Option).label === 'string'
        ? [{ label: (o as Option).label, description: String((o as Option).description ?? '') }]
        : [],
    );
    return [
      {
        question,
        header: typeof header === 'string' ? header : undefined,
        options: opts,
        multiSelect: multiSelect === true,
      },
    ];
  });
}

/** The answer text of one question: chosen labels (and the free answer) joined with commas. */
function answerText(chosen: ReadonlySet<string>, other: string): string {
  return [...chosen, ...(other.trim() ? [other.trim()] : [])].join(', ');
}

export function AskUserQuestionCard({ card }: { card: ToolCardState }) {
  const request = card.permission;
  const questions = questionsOf(card.input);
  const [chosen, setChosen] = useState<Set<string>[]>(() => questions.map(() => new Set()));
  const [other, setOther] = useState<string[]>(() => questions.map(() => ''));
  const [current, setCurrent] = useState(0);
  const [sent, setSent] = useState<'answered' | 'dismissed' | null>(null);
  const rootRef = useRef<HTMLElement>(null);
  const otherRefs = useRef<(HTMLInputElement | null)[]>([]);
  const id = useId();
  useEffect(() => {
    if (request && !sent) rootRef.current?.focus({ preventScroll: false });
  }, [request, sent]);
  if (!request) return null;
  if (sent) {
    return (
      <div className="ask-card ask-sent" data-testid="question-sent">
        {sent === 'answered' ? 'Answers sent.' : 'Dismissed.'}
      </div>
    );
  }
  const respond = (answer: PermissionAnswer, how: 'answered' | 'dismissed') => {
    setSent(how);
    request.respond(answer);
  };
  const answers = questions.map((_, i) => answerText(chosen[i] ?? new Set(), other[i] ?? ''));
  const complete = answers.every((a) => a !== '');
  const submit = () => {
    if (!complete) return;
    const byQuestion = Object.fromEntries(questions.map((q, i) => [q.question, answers[i]]));
    keepAnswers(card.toolUseId, byQuestion);
    respond(
      {
        decision: 'allow-once',
        updatedInput: { ...(card.input as Record<string, unknown>), answers: byQuestion },
      },
      'answered',
    );
  };
  const pick = (qi: number, label: string) => {
    const q = questions[qi];
    setChosen((all) =>
      all.map((set, i) => {
        if (i !== qi) return set;
        if (!q.multiSelect) return new Set([label]);
        const next = new Set(set);
        if (next.has(label)) next.delete(label);
        else next.add(label);
        return next;
      }),
    );
    // A single choice clears the free answer (and moves on to the next question).
    if (!q.multiSelect) {
      setOther((all) => all.map((o, i) => (i === qi ? '' : o)));
      if (qi < questions.length - 1) setCurrent(qi + 1);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const typing = e.target instanceof HTMLInputElement;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      respond(
        { decision: 'deny', feedback: 'The user dismissed the questions without answering.' },
        'dismissed',
      );
      return;
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      submit();
      return;
    }
    if (typing) return;
    const n = Number(e.key);
    const q = questions[current];
    if (q && n >= 1 && n <= q.options.length) pick(current, q.options[n - 1].label);
    else if (q && n === q.options.length + 1) otherRefs.current[current]?.focus();
    else if (e.key === 'ArrowDown' || e.key === 'Tab') {
      if (e.key === 'Tab' && current >= questions.length - 1) return;
      setCurrent((c) => Math.min(questions.length - 1, c + 1));
    } else if (e.key === 'ArrowUp') setCurrent((c) => Math.max(0, c - 1));
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <section
      ref={rootRef}
      className="ask-card"
      role="dialog"
      aria-label="Questions from the agent"
      aria-keyshortcuts="1 2 3 4 5 Enter Escape"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="question-card"
    >
      {questions.map((q, qi) => (
        <fieldset
          key={q.question}
          className={`ask-question${qi === current ? ' is-current' : ''}`}
          data-testid="question"
          onFocus={() => setCurrent(qi)}
        >
          <legend className="ask-legend">
            {q.header && <span className="ask-chip">{q.header}</span>}
            <span className="ask-text">{q.question}</span>
            {q.multiSelect && <span className="muted ask-multi">(choose any)</span>}
          </legend>
          <div className="ask-options">
            {q.options.map((o, oi) => {
              const on = chosen[qi]?.has(o.label) ?? false;
              return (
                <button
                  key={o.label}
                  type="button"
                  aria-pressed={on}
                  className={`ask-option${on ? ' is-on' : ''}`}
                  data-testid="question-option"
                  onClick={() => pick(qi, o.label)}
                >
                  <kbd className="perm-key">{oi + 1}</kbd>
                  <span className="ask-option-label">{o.label}</span>
                  {o.description && <span className="ask-option-desc muted">{o.description}</span>}
                </button>
              );
            })}
            <label className="ask-other">
              <kbd className="perm-key">{q.options.length + 1}</kbd>
              <span className="visually-hidden">Other answer to: {q.question}</span>
              <input
                id={`${id}-other-${qi}`}
                ref={(el) => {
                  otherRefs.current[qi] = el;
                }}
                data-testid="question-other"
                placeholder="Other: type your own answer"
                value={other[qi] ?? ''}
                onChange={(e) => {
                  const text = e.target.value;
                  setOther((all) => all.map((v, i) => (i === qi ? text : v)));
                  if (!q.multiSelect && text)
                    setChosen((all) => all.map((s, i) => (i === qi ? new Set() : s)));
                }}
              />
            </label>
          </div>
        </fieldset>
      ))}
      <div className="ask-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          data-testid="question-submit"
          disabled={!complete}
          onClick={submit}
        >
          Send answers <kbd className="perm-key">Enter</kbd>
        </button>
        <button
          type="button"
          className="btn btn-small"
          data-testid="question-dismiss"
          onClick={() =>
            respond(
              { decision: 'deny', feedback: 'The user dismissed the questions without answering.' },
              'dismissed',
            )
          }
        >
          Dismiss <kbd className="perm-key">Esc</kbd>
        </button>
      </div>
    </section>
  );
}
