/**
 * An extended-thinking block, shown collapsed as Claude Code does ("✻ Thinking…" while it streams,
 * "✻ Thought" after); a click shows the text. The text is shown as plain text (never rendered as markup).
 */
import { useState } from 'react';
import type { HabitItem } from './habits-state.ts';
import './habits.css';

type ThinkingItem = Extract<HabitItem, { kind: 'thinking' }>;

export function ThinkingBlock({ item }: { item: ThinkingItem }) {
  const [open, setOpen] = useState(false);
  const words = item.text.trim() ? item.text.trim().split(/\s+/).length : 0;
  const label = item.redacted
    ? 'Thinking (encrypted by the API, not shown)'
    : item.streaming
      ? 'Thinking…'
      : item.discarded
        ? 'Thinking (not kept: the reply was cut off)'
        : `Thought · ${words} word${words === 1 ? '' : 's'}`;
  return (
    <div
      className={`thinking${item.discarded ? ' thinking-discarded' : ''}`}
      data-testid="thinking-block"
      data-state={item.streaming ? 'streaming' : item.redacted ? 'redacted' : 'done'}
    >
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={open}
        disabled={item.redacted}
        onClick={() => setOpen((o) => !o)}
        data-testid="thinking-toggle"
      >
        <span className="thinking-star" aria-hidden="true">
          ✻
        </span>{' '}
        {label}
        {!item.redacted && (
          <span className="thinking-chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
        )}
      </button>
      {open && !item.redacted && (
        <div className="thinking-text" data-testid="thinking-text">
          {item.text}
        </div>
      )}
    </div>
  );
}
