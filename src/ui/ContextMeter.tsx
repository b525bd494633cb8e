/**
 * The context meter: how much of the model's context window the conversation fills, from the last
 * request's real usage (input, cache reads and writes, and its output, which the next request carries).
 * In the header a compact figure; in the Usage panel a bar with the window's source and what happens
 * next. It warns from CONTEXT_WARNING_RATIO on.
 */
import { CONTEXT_WARNING_RATIO } from '../core/constants.ts';
import type { ContextWindow } from '../core/model/context-window.ts';
import { formatTokens } from './usage-state.ts';
import './habits.css';

const SOURCE: Record<ContextWindow['source'], string> = {
  'models-api': 'as the Models API gives it',
  table: "from tabcode's table of models",
  default: 'a default: the model is unknown',
};

export interface ContextMeterProps {
  /** Tokens of the context now (undefined before the first request). */
  used: number | undefined;
  window: ContextWindow | null;
  /** The auto-compaction threshold (share of the window); absent: off. */
  compactAt?: number;
  variant: 'header' | 'panel';
  onOpen?: () => void;
}

export function ContextMeter({ used, window, compactAt, variant, onOpen }: ContextMeterProps) {
  if (!window) return null;
  const share = used === undefined ? 0 : Math.min(1, used / window.tokens);
  const pct = Math.round(share * 100);
  const level = share >= (compactAt ?? 1) ? 'full' : share >= CONTEXT_WARNING_RATIO ? 'warn' : 'ok';
  const figure = used === undefined ? '—' : `${formatTokens(used)} / ${formatTokens(window.tokens)}`;
  const title =
    used === undefined
      ? `Context window: ${window.tokens.toLocaleString('en-US')} tokens (${SOURCE[window.source]}). Nothing sent yet.`
      : `Context: ${used.toLocaleString('en-US')} of ${window.tokens.toLocaleString('en-US')} tokens (${pct}%), from the last request's usage`;
  if (variant === 'header') {
    // The accessible name starts with the words shown, so a voice user can say what they see.
    const shown = `ctx ${used === undefined ? '—' : `${pct}%`}`;
    return (
      <button
        type="button"
        className={`context-meter context-${level}`}
        data-testid="context-meter"
        data-level={level}
        data-percent={pct}
        title={title}
        onClick={onOpen}
        aria-label={`${shown}. ${title}`}
      >
        <span className="context-bar" aria-hidden="true">
          <span className="context-fill" style={{ width: `${pct}%` }} />
        </span>
        <span>
          <span className="muted">ctx</span> {used === undefined ? '—' : `${pct}%`}
        </span>
      </button>
    );
  }
  return (
    <div
      className={`context-panel context-${level}`}
      data-testid="usage-context"
      data-level={level}
      data-percent={pct}
    >
      <div className="context-panel-head">
        <span>Context</span>
        <span className="mono">
          {figure} ({pct}%)
        </span>
      </div>
      <div className="context-bar context-bar-wide" aria-hidden="true">
        <span className="context-fill" style={{ width: `${pct}%` }} />
        {compactAt !== undefined && (
          <span className="context-mark" style={{ left: `${Math.round(compactAt * 100)}%` }} />
        )}
      </div>
      <div className="muted context-panel-note">
        Window {window.tokens.toLocaleString('en-US')} tokens, {SOURCE[window.source]}.{' '}
        {compactAt !== undefined
          ? `Compacted automatically at ${Math.round(compactAt * 100)}%; /compact does it now.`
          : 'Auto-compaction is off; /compact summarizes the conversation.'}
      </div>
      {level !== 'ok' && (
        <div className="context-warning" role="status" data-testid="context-warning">
          The context is {pct}% full.{' '}
          {compactAt !== undefined
            ? 'It will be compacted before the next request that passes the threshold.'
            : 'Use /compact before it runs out.'}
        </div>
      )}
    </div>
  );
}
