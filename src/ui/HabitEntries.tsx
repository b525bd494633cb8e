/**
 * Transcript rows of the prompt box's habits: a `!` line and what it printed, the output of a slash
 * command run in the page, and short notes (memory read, hooks, attached files, the loop guard, a prompt
 * that was not sent). Model and command output are shown as text or safe markdown.
 */
import type { HabitItem } from './habits-state.ts';
import { Markdown } from './markdown/Markdown.tsx';
import './habits.css';

type Shell = Extract<HabitItem, { kind: 'shell' }>;
type Command = Extract<HabitItem, { kind: 'command' }>;
type Note = Extract<HabitItem, { kind: 'note' }>;

export function ShellEntry({ item }: { item: Shell }) {
  const failed = item.status === 'done' && (item.exitCode ?? 0) !== 0;
  return (
    <div
      className="habit-shell"
      data-testid="shell-run"
      data-status={item.status}
      data-exit-code={item.exitCode ?? ''}
    >
      <div className="habit-shell-command mono">
        <span className="habit-shell-bang" aria-hidden="true">
          !
        </span>{' '}
        {item.command}
        {item.status === 'running' && <span className="spinner spinner-small" aria-hidden="true" />}
      </div>
      {(item.stdout || item.stderr || failed) && (
        <pre className="habit-shell-output mono" data-testid="shell-output">
          {item.stdout}
          {item.stderr && <span className="habit-shell-stderr">{item.stderr}</span>}
          {failed && (
            <span className="habit-shell-exit">{`\n[exit code ${item.exitCode}${item.timedOut ? ', timed out' : ''}]`}</span>
          )}
        </pre>
      )}
      {item.status === 'done' && (
        <div className="habit-hint muted">The model sees this with your next prompt.</div>
      )}
    </div>
  );
}

export function CommandEntry({ item }: { item: Command }) {
  return (
    <div
      className={`habit-command habit-command-${item.tone}`}
      data-testid="command-output"
      data-tone={item.tone}
    >
      <div className="habit-command-input mono">{item.input}</div>
      <div className="habit-command-output">
        <Markdown text={item.output} />
      </div>
    </div>
  );
}

export function NoteEntry({ item }: { item: Note }) {
  return (
    <div
      className={`habit-note habit-note-${item.tone}`}
      data-testid="habit-note"
      data-topic={item.topic}
      data-tone={item.tone}
      role={item.tone === 'error' ? 'alert' : undefined}
    >
      <div className="habit-note-text">{item.text}</div>
      {item.detail && <div className="habit-note-detail mono">{item.detail}</div>}
    </div>
  );
}
