/** The conversation: user prompts, streamed assistant text, tool cards, errors and notices. */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { QueryError } from '../core/events.ts';
import { describeError } from './format.ts';
import { ToolCard } from './ToolCard.tsx';
import type { Notice, TranscriptItem } from './transcript-state.ts';

interface TranscriptProps {
  items: TranscriptItem[];
  running: boolean;
  onOpenSettings: () => void;
}

export function Transcript({ items, running, onOpenSettings }: TranscriptProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  // Follow new content unless the user scrolled up to read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of the items
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [items, running]);

  const last = items[items.length - 1];
  const showWorking = running && !(last?.kind === 'tool' && last.card.status === 'running');

  return (
    <div className="transcript" ref={scroller} data-testid="transcript">
      <div className="transcript-inner">
        {items.map((item) => (
          <TranscriptEntry key={item.id} item={item} onOpenSettings={onOpenSettings} />
        ))}
        {showWorking && (
          <div className="working" data-testid="working-indicator">
            <span className="spinner" aria-hidden="true" /> Working…{' '}
            <span className="muted">Esc to stop</span>
          </div>
        )}
      </div>
    </div>
  );
}

function TranscriptEntry({ item, onOpenSettings }: { item: TranscriptItem; onOpenSettings: () => void }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="msg msg-user" data-testid="user-message">
          <div className="msg-user-text">{item.text}</div>
        </div>
      );
    case 'assistant-text':
      return (
        <div className="msg msg-assistant" data-testid="assistant-text">
          {item.text}
        </div>
      );
    case 'tool':
      return <ToolCard card={item.card} />;
    case 'error':
      return <ErrorBanner error={item.error} onOpenSettings={onOpenSettings} />;
    case 'notice':
      return <NoticeLine notice={item.notice} onOpenSettings={onOpenSettings} />;
  }
}

function ErrorBanner({ error, onOpenSettings }: { error: QueryError; onOpenSettings: () => void }) {
  const { text, detail, offerSettings } = describeError(error);
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner" data-error-kind={error.kind}>
      <div className="banner-text">
        <div>{text}</div>
        {detail && detail !== text && <div className="banner-detail mono">{detail}</div>}
      </div>
      {offerSettings && (
        <button
          type="button"
          className="btn btn-small"
          onClick={onOpenSettings}
          data-testid="error-open-settings"
        >
          Open Settings
        </button>
      )}
    </div>
  );
}

const NOTICE_TEXT: Record<Exclude<Notice, 'missing-key'>, string> = {
  interrupted: 'Interrupted',
  max_turns: 'Stopped: the turn reached the maximum number of model requests.',
  max_tokens: 'The reply was cut: it reached the max tokens limit (raise it in Settings).',
  refusal: 'The model declined to continue.',
};

function NoticeLine({ notice, onOpenSettings }: { notice: Notice; onOpenSettings: () => void }) {
  if (notice === 'missing-key') {
    return (
      <div
        className="banner banner-warn"
        role="alert"
        data-testid="error-banner"
        data-error-kind="missing-key"
      >
        <div className="banner-text">
          <div>Add an Anthropic API key in Settings to start.</div>
          <div className="banner-detail">
            The key stays in this tab's memory. Or run the dev server with ANTHROPIC_API_KEY set and use the
            proxy base URL /api/anthropic.
          </div>
        </div>
        <button type="button" className="btn btn-small btn-primary" onClick={onOpenSettings}>
          Open Settings
        </button>
      </div>
    );
  }
  return (
    <div
      className={`notice notice-${notice}`}
      data-testid={notice === 'interrupted' ? 'interrupted-marker' : 'notice'}
    >
      <span>{NOTICE_TEXT[notice]}</span>
    </div>
  );
}
