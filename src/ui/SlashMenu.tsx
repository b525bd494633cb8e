/** The slash-command menu above the prompt: name, argument hint, what it does, where it comes from. */
import type { SlashCommandInfo } from '../agent/slash/types.ts';
import { useActiveRowInView } from './use-active-row.ts';
import './habits.css';

const SOURCE_LABEL: Record<SlashCommandInfo['source'], string> = {
  builtin: '',
  project: 'project',
  skill: 'skill',
  mcp: 'MCP',
};

export function SlashMenu(props: {
  items: readonly SlashCommandInfo[];
  active: number;
  onPick: (index: number) => void;
}) {
  const listRef = useActiveRowInView(props.active);
  return (
    <div
      ref={listRef}
      className="completion-menu"
      role="listbox"
      aria-label="Commands"
      data-testid="slash-menu"
    >
      {props.items.map((c, i) => (
        <div
          key={`${c.source}:${c.name}`}
          role="option"
          tabIndex={-1}
          aria-selected={i === props.active}
          className={`completion-row${i === props.active ? ' completion-active' : ''}`}
          data-testid="slash-item"
          data-name={c.name}
          onMouseDown={(e) => {
            // Keeps the focus in the prompt.
            e.preventDefault();
            props.onPick(i);
          }}
        >
          <span className="completion-name mono">/{c.name}</span>
          {c.argumentHint && <span className="completion-hint mono muted">{c.argumentHint}</span>}
          <span className="completion-desc muted">{c.description}</span>
          {SOURCE_LABEL[c.source] && <span className="completion-source">{SOURCE_LABEL[c.source]}</span>}
        </div>
      ))}
    </div>
  );
}
