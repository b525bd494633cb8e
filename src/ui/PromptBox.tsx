/**
 * The prompt box, with Claude Code's keys: Enter sends (or queues while the agent works), Shift+Enter
 * adds a newline, Up/Down walk the prompt history, Shift+Tab cycles the permission mode, Esc (handled by
 * the page) interrupts. Queued prompts show above the box and can be removed before they are sent.
 */
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
} from 'react';
import { PERMISSION_MODES, type PermissionMode } from '../core/permissions/types.ts';
import { MODE_LABEL, MODE_SHORT_LABEL } from './SettingsDialog.tsx';

interface PromptBoxProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** Adds the text to the queue (while a turn runs). */
  onQueue: () => void;
  onStop: () => void;
  running: boolean;
  /** False until the session exists. */
  ready: boolean;
  /** Another tab has the session: nothing can be sent from this one. */
  readOnly?: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** Prompts sent in this session, oldest first. */
  history: readonly string[];
  queued: readonly string[];
  onRemoveQueued: (index: number) => void;
  mode: PermissionMode;
  onModeChange: (mode: PermissionMode) => void;
  /**
   * The autocomplete (slash commands, `@` files): its menu, shown above the input, and its key handler,
   * which sees every key first (true: it took the key).
   */
  completion?: { menu: ReactNode; onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean };
  /** A phone-width layout: the mode menu names each mode in a word or two (the full name is its title). */
  compact?: boolean;
}

const MAX_HEIGHT_PX = 240;

export function PromptBox(props: PromptBoxProps) {
  const { value, onChange, running, inputRef, history, queued } = props;
  const ready = props.ready && !props.readOnly;
  const canSend = ready && !running && value.trim() !== '';
  /** `!` mode: the line runs in the sandbox shell instead of going to the model. */
  const shellMode = value.trimStart().startsWith('!');
  // While the session starts, Enter queues the prompt: it goes out once the agent is up.
  const canQueue = (ready ? running : !props.readOnly) && value.trim() !== '';
  /** Position in the history while walking it with Up/Down (history.length = the draft). */
  const walk = useRef<{ index: number; draft: string } | null>(null);

  // Grow with the text up to a limit; measured again when the width changes (the text rewraps).
  const measure = useCallback(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [inputRef]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useLayoutEffect(measure, [value, measure]);
  useEffect(() => {
    const el = inputRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      measure();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [inputRef, measure]);

  const recall = (el: HTMLTextAreaElement, direction: -1 | 1): boolean => {
    if (history.length === 0) return false;
    const w = walk.current ?? { index: history.length, draft: value };
    const index = Math.min(history.length, Math.max(0, w.index + direction));
    if (index === w.index) return false;
    walk.current = { index, draft: w.draft };
    const text = index === history.length ? w.draft : history[index];
    onChange(text);
    requestAnimationFrame(() => el.setSelectionRange(text.length, text.length));
    return true;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const el = e.currentTarget;
    if (e.nativeEvent.isComposing) return;
    if (props.completion?.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      walk.current = null;
      if (canSend) props.onSend();
      else if (canQueue) props.onQueue();
      return;
    }
    if (e.key === 'Tab' && e.shiftKey) {
      e.preventDefault();
      const i = PERMISSION_MODES.indexOf(props.mode);
      props.onModeChange(PERMISSION_MODES[(i + 1) % PERMISSION_MODES.length]);
      return;
    }
    const noModifiers = !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey;
    // Up on the first line (Down on the last) walks the history, as in a shell.
    if (noModifiers && e.key === 'ArrowUp' && !value.slice(0, el.selectionStart).includes('\n')) {
      if (recall(el, -1)) e.preventDefault();
    } else if (
      noModifiers &&
      e.key === 'ArrowDown' &&
      walk.current &&
      !value.slice(el.selectionEnd).includes('\n')
    ) {
      if (recall(el, 1)) e.preventDefault();
    }
  };

  return (
    <form
      className={shellMode ? 'prompt-box prompt-shell' : 'prompt-box'}
      data-mode={shellMode ? 'shell' : 'prompt'}
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) props.onSend();
        else if (canQueue) props.onQueue();
      }}
    >
      {queued.length > 0 && (
        <ol className="queue" data-testid="prompt-queue" aria-label="Queued prompts">
          {queued.map((q, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a queue entry is its position
            <li key={i} className="queued" data-testid="queued-prompt">
              <span className="queued-label muted">queued</span>
              <span className="queued-text">{q}</span>
              <button
                type="button"
                className="icon-btn"
                aria-label="Remove from queue"
                onClick={() => props.onRemoveQueued(i)}
              >
                ×
              </button>
            </li>
          ))}
        </ol>
      )}
      {props.completion?.menu}
      <textarea
        ref={inputRef}
        className="prompt-input"
        data-testid="prompt-input"
        rows={1}
        value={value}
        disabled={props.readOnly}
        data-ready={ready}
        placeholder={
          props.readOnly
            ? 'Open in another tab: read-only here.'
            : !ready
              ? 'Starting the sandbox…'
              : running
                ? 'Working… Enter queues your next prompt.'
                : 'Ask tabcode to read, change or run code…'
        }
        onChange={(e) => {
          walk.current = null;
          onChange(e.target.value);
        }}
        onKeyDown={onKeyDown}
        aria-label="Prompt"
        autoFocus
      />
      <div className="prompt-actions">
        <label
          className="mode-switch"
          title={`Permission mode: ${MODE_LABEL[props.mode]} (Shift+Tab cycles)`}
        >
          <span className="visually-hidden">Permission mode</span>
          <select
            data-testid="mode-switch"
            value={props.mode}
            onChange={(e) => props.onModeChange(e.target.value as PermissionMode)}
          >
            {PERMISSION_MODES.map((m) => (
              <option key={m} value={m}>
                {(props.compact ? MODE_SHORT_LABEL : MODE_LABEL)[m]}
              </option>
            ))}
          </select>
        </label>
        {shellMode && (
          <span className="prompt-shell-label" data-testid="shell-mode">
            ! runs in the sandbox shell
          </span>
        )}
        {!running && (
          <span className="prompt-hint muted">
            <kbd>Enter</kbd> send · <kbd>⇧ Enter</kbd> newline · <kbd>↑</kbd> history · <kbd>⇧ Tab</kbd> mode
          </span>
        )}
        {running && <span className="prompt-hint muted">Enter queues · Esc stops</span>}
        {running && (
          <>
            <button type="submit" className="btn" disabled={!canQueue} data-testid="queue-button">
              Queue
            </button>
            <button type="button" className="btn" onClick={props.onStop} data-testid="stop-button">
              <span className="stop-square" aria-hidden="true" /> Stop
            </button>
          </>
        )}
        <button type="submit" className="btn btn-primary" disabled={!canSend} data-testid="send-button">
          Send
        </button>
      </div>
    </form>
  );
}
