/**
 * Where the conversation was compacted: a divider saying what was summarized (or which old tool results
 * were cleared) and how much context it freed, with the summary the model now works from. Everything
 * above it stays in the transcript and can still be scrolled; the model sees only the summary.
 */
import { useState } from 'react';
import type { HabitItem } from './habits-state.ts';
import { Markdown } from './markdown/Markdown.tsx';
import { formatTokens } from './usage-state.ts';
import './habits.css';

type CompactionItem = Extract<HabitItem, { kind: 'compaction' }>;

const TRIGGER: Record<CompactionItem['trigger'], string> = {
  manual: '/compact',
  auto: 'near the context limit',
  overflow: 'the API said the prompt was too long',
};

export function CompactionDivider({ item }: { item: CompactionItem }) {
  const [open, setOpen] = useState(false);
  const span =
    item.tokensAfter !== undefined && item.tokensBefore > 0
      ? ` (≈${formatTokens(item.tokensBefore)} → ${formatTokens(item.tokensAfter)} tokens)`
      : '';
  let text: string;
  switch (item.status) {
    case 'running':
      text = `Compacting the conversation (${TRIGGER[item.trigger]})…`;
      break;
    case 'cleared':
      text = `Cleared ${item.cleared} old tool result${item.cleared === 1 ? '' : 's'} to free context${span}`;
      break;
    case 'done':
      text = `Conversation compacted (${TRIGGER[item.trigger]}): ${item.summarized} message${item.summarized === 1 ? '' : 's'} summarized${span}`;
      break;
    case 'failed':
      text = `Compaction did not happen: ${item.error ?? 'it failed'}`;
      break;
  }
  return (
    <div
      className={`compaction compaction-${item.status}`}
      data-testid="compaction-divider"
      data-status={item.status}
      data-trigger={item.trigger}
      role={item.status === 'failed' ? 'alert' : undefined}
    >
      <div className="compaction-line">
        {item.status === 'running' && <span className="spinner spinner-small" aria-hidden="true" />}
        <span className="compaction-text">{text}</span>
        {item.status === 'done' && item.summary && (
          <button
            type="button"
            className="link-btn compaction-toggle"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
            data-testid="compaction-toggle"
          >
            {open ? 'Hide the summary' : 'Show the summary'}
          </button>
        )}
      </div>
      {item.status === 'done' && (
        <div className="compaction-note muted">
          Above: the messages as they were. The model now sees the summary instead.
        </div>
      )}
      {open && item.summary && (
        <div className="compaction-summary" data-testid="compaction-summary">
          <Markdown text={item.summary} />
        </div>
      )}
    </div>
  );
}
