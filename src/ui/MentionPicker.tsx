/** The `@` file picker above the prompt: workspace files matching what follows the @. */
import { useActiveRowInView } from './use-active-row.ts';
import './habits.css';

export function MentionPicker(props: {
  items: readonly string[];
  active: number;
  onPick: (index: number) => void;
}) {
  const listRef = useActiveRowInView(props.active);
  return (
    <div
      ref={listRef}
      className="completion-menu"
      role="listbox"
      aria-label="Files"
      data-testid="mention-picker"
    >
      {props.items.map((path, i) => (
        <div
          key={path}
          role="option"
          tabIndex={-1}
          aria-selected={i === props.active}
          className={`completion-row${i === props.active ? ' completion-active' : ''}`}
          data-testid="mention-item"
          data-path={path}
          onMouseDown={(e) => {
            e.preventDefault();
            props.onPick(i);
          }}
        >
          <span className="completion-name mono">@{path}</span>
        </div>
      ))}
    </div>
  );
}
