/**
 * What a screen reader hears without looking: each finished answer of the model (polite) and each
 * permission prompt (assertive), through two visually hidden live regions. Items already there when a
 * session opens are not read out again; streamed text is read once its message ends, not chunk by chunk.
 */
import { useEffect, useRef, useState } from 'react';
import type { TranscriptItem } from './transcript-state.ts';

/** Longest answer read out in full (characters); longer ones are cut with a note. */
const MAX_ANNOUNCED_CHARS = 600;

export function LiveAnnouncer({
  items,
  sessionId,
}: {
  items: readonly TranscriptItem[];
  sessionId: string | null;
}) {
  const said = useRef<{ session: string | null; ids: Set<string> } | null>(null);
  const [answer, setAnswer] = useState('');
  const [alert, setAlert] = useState('');

  useEffect(() => {
    // A session just opened: what it shows was said before (or is history); only new items are read.
    if (!said.current || said.current.session !== sessionId) {
      said.current = { session: sessionId, ids: new Set(items.map(keyOf)) };
      return;
    }
    const ids = said.current.ids;
    for (const item of items) {
      const key = keyOf(item);
      if (ids.has(key)) continue;
      if (item.kind === 'assistant-text' && !item.streaming && !item.discarded) {
        ids.add(key);
        const text = item.text.trim();
        setAnswer(
          `tabcode: ${text.length > MAX_ANNOUNCED_CHARS ? `${text.slice(0, MAX_ANNOUNCED_CHARS)}… (continues on screen)` : text}`,
        );
      } else if (item.kind === 'tool' && item.card.permission) {
        ids.add(key);
        const title = item.card.view?.title ?? item.card.name;
        setAlert(
          `Permission needed: ${item.card.permission.message || `allow ${title}?`} The choices are in the ${title} card.`,
        );
      }
    }
  }, [items, sessionId]);

  return (
    <>
      <div className="visually-hidden" aria-live="polite" data-testid="live-answers">
        {answer}
      </div>
      <div className="visually-hidden" aria-live="assertive" data-testid="live-alerts">
        {alert}
      </div>
    </>
  );
}

/** An item's identity for "already read": a card is read again only for a new permission prompt. */
function keyOf(item: TranscriptItem): string {
  if (item.kind === 'tool') return item.card.permission ? `${item.id}:permission` : item.id;
  if (item.kind === 'assistant-text')
    return item.streaming || item.discarded ? `${item.id}:partial` : item.id;
  return item.id;
}
