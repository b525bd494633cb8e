/** The prompt box: Enter sends, Shift+Enter adds a newline; typing stays possible while a turn runs. */
import { type KeyboardEvent, type RefObject, useLayoutEffect } from 'react';

interface PromptBoxProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  running: boolean;
  /** False until the session exists. */
  ready: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

const MAX_HEIGHT_PX = 240;

export function PromptBox({ value, onChange, onSend, onStop, running, ready, inputRef }: PromptBoxProps) {
  const canSend = ready && !running && value.trim() !== '';

  // Grow with the text up to a limit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure whenever the text changes
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [value, inputRef]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (canSend) onSend();
  };

  return (
    <form
      className="prompt-box"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) onSend();
      }}
    >
      <textarea
        ref={inputRef}
        className="prompt-input"
        data-testid="prompt-input"
        rows={1}
        value={value}
        placeholder={
          ready ? 'Ask tabcode to read, change or run something in the project…' : 'Starting the sandbox…'
        }
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label="Prompt"
        autoFocus
      />
      <div className="prompt-actions">
        <span className="prompt-hint muted">
          <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> newline · <kbd>Esc</kbd> stop
        </span>
        {running && (
          <button type="button" className="btn" onClick={onStop} data-testid="stop-button">
            <span className="stop-square" aria-hidden="true" /> Stop
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={!canSend} data-testid="send-button">
          Send
        </button>
      </div>
    </form>
  );
}
