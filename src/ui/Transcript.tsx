/**
 * The conversation: user prompts, streamed assistant markdown, tool cards, errors and notices. It follows
 * new content unless the user scrolled up to read. Long sessions (VIRTUALIZE_FROM items or more) are
 * virtualized: only the rows near the viewport are in the DOM, so a 2,000-message session scrolls smoothly.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { QueryError } from '../core/events.ts';
import { CompactionDivider } from './CompactionDivider.tsx';
import { describeError, describeRetry } from './format.ts';
import { CommandEntry, NoteEntry, ShellEntry } from './HabitEntries.tsx';
import { Markdown } from './markdown/Markdown.tsx';
import { ThinkingBlock } from './ThinkingBlock.tsx';
import { type PermissionSlot, ToolCard } from './ToolCard.tsx';
import type { Notice, RetryWait, TranscriptItem } from './transcript-state.ts';
import { useNow } from './use-now.ts';

/** Item count from which the list is virtualized. */
export const VIRTUALIZE_FROM = 150;
/** Distance from the bottom (px) within which the view keeps following new content. */
const STICK_PX = 48;
/** A scroll this soon (ms) after the user's wheel, touch, key or pointer input is taken as theirs. */
const USER_SCROLL_MS = 400;

interface TranscriptProps {
  items: TranscriptItem[];
  running: boolean;
  /** A failed request being retried: shown with its countdown. */
  retry?: RetryWait;
  onOpenSettings: () => void;
  permissionSlot?: PermissionSlot;
  /** False turns virtualization off (benchmark baseline). */
  virtualize?: boolean;
}

export function Transcript({
  items,
  running,
  retry,
  onOpenSettings,
  permissionSlot,
  virtualize = true,
}: TranscriptProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [away, setAway] = useState(false);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Only the user stops the following, by scrolling up. A scroll event is dispatched a frame after the
    // scroll, so when new cards arrive in between, the view is no longer within STICK_PX of the bottom
    // although nobody moved it; and the virtualizer moves scrollTop itself when it measures rows above
    // the viewport. So a scroll leaves the bottom only when it went up while the user was at the controls:
    // just after their wheel, touch or key input, or with a pointer held on the list (its scrollbar).
    let userAt = Number.NEGATIVE_INFINITY;
    let pressed = false;
    let lastTop = el.scrollTop;
    const byUser = () => {
      userAt = performance.now();
    };
    // A wheel turned down never means "stop following"; nor does a click on something in the list (a
    // card's toggle, "↓ Latest"): counting one as scroll input once stopped the following when the click
    // on "↓ Latest" was followed, inside the window, by a quick turn's layout shift. A press on the list
    // itself (its scrollbar) counts, and so does any pointer held on it.
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) byUser();
    };
    const press = (e: PointerEvent) => {
      pressed = true;
      if (e.target === el) byUser();
    };
    const release = () => {
      pressed = false;
    };
    const onScroll = () => {
      const top = el.scrollTop;
      const atBottom = el.scrollHeight - top - el.clientHeight < STICK_PX;
      const up = top < lastTop;
      lastTop = top;
      if (atBottom) stick.current = true;
      else if (up && (pressed || performance.now() - userAt < USER_SCROLL_MS)) stick.current = false;
      setAway(!stick.current);
    };
    const inputs = ['touchmove', 'keydown'] as const;
    for (const type of inputs) el.addEventListener(type, byUser, { passive: true });
    el.addEventListener('wheel', onWheel, { passive: true });
    el.addEventListener('pointerdown', press, { passive: true });
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      for (const type of inputs) el.removeEventListener(type, byUser);
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('pointerdown', press);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      el.removeEventListener('scroll', onScroll);
    };
  }, []);

  // Content also grows without a new item: a card's fold or highlighting settles, a run of lines laid
  // out once on screen (content-visibility) takes its real height. While following, keep to the bottom.
  useEffect(() => {
    const el = scroller.current;
    const inner = el?.firstElementChild;
    if (!el || !inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    performance.mark('tabcode:transcript-rendered');
  }, []);

  const last = items[items.length - 1];
  const showWorking = running && !(last?.kind === 'tool' && last.card.status === 'running');
  const virtual = virtualize && items.length >= VIRTUALIZE_FROM;

  const jump = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = true;
    el.scrollTop = el.scrollHeight;
  };

  return (
    <section
      className="transcript"
      ref={scroller}
      data-testid="transcript"
      data-virtual={virtual ? 'yes' : 'no'}
      aria-label="Conversation"
      // A scrolling region is reachable by keyboard (it scrolls with the arrow keys once focused).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
      tabIndex={0}
    >
      <div className="transcript-inner">
        {virtual ? (
          <VirtualRows
            items={items}
            scroller={scroller}
            stick={stick}
            onOpenSettings={onOpenSettings}
            permissionSlot={permissionSlot}
          />
        ) : (
          <PlainRows
            items={items}
            scroller={scroller}
            stick={stick}
            running={running}
            onOpenSettings={onOpenSettings}
            permissionSlot={permissionSlot}
          />
        )}
        {retry && <RetryBanner retry={retry} />}
        {showWorking && !retry && (
          <div className="working" data-testid="working-indicator" role="status">
            <span className="spinner" aria-hidden="true" /> Working…{' '}
            <span className="muted">Esc to stop</span>
          </div>
        )}
      </div>
      {away && (
        <button type="button" className="btn btn-small jump-latest" onClick={jump} data-testid="jump-latest">
          ↓ Latest
        </button>
      )}
    </section>
  );
}

interface RowsProps {
  items: TranscriptItem[];
  scroller: RefObject<HTMLDivElement | null>;
  stick: RefObject<boolean>;
  onOpenSettings: () => void;
  permissionSlot?: PermissionSlot;
}

function PlainRows({
  items,
  scroller,
  stick,
  running,
  onOpenSettings,
  permissionSlot,
}: RowsProps & { running: boolean }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of the items
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !stick.current) return;
    // Scrolled at the next frame, before it paints: reading scrollHeight here would force the layout of
    // every new card inside this commit's task (90 ms for a heavy turn's cards), where in the frame it is
    // the layout the frame does anyway.
    const frame = requestAnimationFrame(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [items, running]);
  return (
    <>
      {items.map((item) => (
        <TranscriptEntry
          key={item.id}
          item={item}
          onOpenSettings={onOpenSettings}
          permissionSlot={permissionSlot}
        />
      ))}
    </>
  );
}

function VirtualRows({ items, scroller, stick, onOpenSettings, permissionSlot }: RowsProps) {
  const rows = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimateHeight(items[i]),
    getItemKey: (i) => items[i].id,
    overscan: 8,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow new items while stuck to the bottom
  useLayoutEffect(() => {
    if (stick.current && items.length > 0) rows.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, items[items.length - 1]]);
  return (
    <div className="virtual-rows" style={{ height: rows.getTotalSize() }}>
      {rows.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={rows.measureElement}
          className="virtual-row"
          style={{ transform: `translateY(${row.start}px)` }}
        >
          <TranscriptEntry
            item={items[row.index]}
            onOpenSettings={onOpenSettings}
            permissionSlot={permissionSlot}
          />
        </div>
      ))}
    </div>
  );
}

/** A first guess of a row's height before it is measured. */
function estimateHeight(item: TranscriptItem | undefined): number {
  if (!item) return 60;
  switch (item.kind) {
    case 'user':
      return 56 + Math.floor(item.text.length / 90) * 21;
    case 'assistant-text':
      return 40 + Math.floor(item.text.length / 90) * 22 + (item.text.split('\n').length - 1) * 10;
    case 'tool':
      return item.card.result ? 160 : 60;
    default:
      return 52;
  }
}

const TranscriptEntry = memo(function TranscriptEntry({
  item,
  onOpenSettings,
  permissionSlot,
}: {
  item: TranscriptItem;
  onOpenSettings: () => void;
  permissionSlot?: PermissionSlot;
}) {
  switch (item.kind) {
    case 'user':
      return (
        <div
          className={item.returned ? 'msg msg-user msg-discarded' : 'msg msg-user'}
          data-testid="user-message"
          {...(item.returned ? { 'data-returned': 'true' } : {})}
        >
          {item.returned && (
            <div className="discarded-note" data-testid="returned-note">
              Not sent: the API refused this prompt, so the model will not see it. It is back in the prompt
              box to change and send again.
            </div>
          )}
          <div className="msg-user-text">{item.text}</div>
        </div>
      );
    case 'assistant-text':
      return item.discarded ? (
        <div className="msg msg-assistant msg-discarded" data-testid="assistant-text" data-discarded="true">
          <div className="discarded-note" data-testid="discarded-note">
            Not kept: the reply was cut off before it ended, so the model will not see this text.
          </div>
          <Markdown text={item.text} />
        </div>
      ) : (
        <div className="msg msg-assistant" data-testid="assistant-text">
          <Markdown text={item.text} />
        </div>
      );
    case 'tool':
      return <ToolCard card={item.card} permissionSlot={permissionSlot} />;
    case 'error':
      return <ErrorBanner error={item.error} onOpenSettings={onOpenSettings} />;
    case 'notice':
      return <NoticeLine notice={item.notice} onOpenSettings={onOpenSettings} />;
    case 'thinking':
      return <ThinkingBlock item={item} />;
    case 'compaction':
      return <CompactionDivider item={item} />;
    case 'shell':
      return <ShellEntry item={item} />;
    case 'command':
      return <CommandEntry item={item} />;
    case 'note':
      return <NoteEntry item={item} />;
  }
});

/** A failed request waiting to be sent again, with the seconds left. */
function RetryBanner({ retry }: { retry: RetryWait }) {
  const now = useNow(true);
  const left = Math.max(0, Math.ceil((retry.until - now) / 1000));
  return (
    <div
      className="banner banner-warn"
      role="status"
      data-testid="retry-banner"
      data-error-kind={retry.error.kind}
      data-seconds-left={left}
    >
      <span className="spinner spinner-small" aria-hidden="true" />
      <div className="banner-text">{describeRetry(retry.error, left, retry.attempt, retry.maxRetries)}</div>
    </div>
  );
}

function ErrorBanner({ error, onOpenSettings }: { error: QueryError; onOpenSettings: () => void }) {
  const { text, ran, detail, offerSettings } = describeError(error);
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner" data-error-kind={error.kind}>
      <div className="banner-text">
        <div>{text}</div>
        {ran && (
          <div className="banner-detail" data-testid="error-ran">
            {ran}
          </div>
        )}
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
            A key is kept in this tab's memory only, so a reload forgets it, unless you tick "Remember" in
            Settings. Or run the dev server with ANTHROPIC_API_KEY set and use the proxy base URL
            /api/anthropic.
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
