/**
 * A draggable, keyboard-operable divider between two panes (role="separator"): drag with the pointer,
 * Arrow keys move 16 px (Shift: 64 px), Home/End jump to the limits, double-click resets.
 */
import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

interface SplitterProps {
  label: string;
  value: number;
  min: number;
  max: number;
  /** +1 when dragging right grows the pane, -1 when it shrinks it (a pane on the right). */
  direction: 1 | -1;
  onChange: (value: number) => void;
  onReset: () => void;
  testId?: string;
}

export function Splitter({ label, value, min, max, direction, onChange, onReset, testId }: SplitterProps) {
  const drag = useRef<{ x: number; start: number } | null>(null);
  const clamp = (v: number) => Math.round(Math.min(max, Math.max(min, v)));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, start: value };
    document.body.classList.add('resizing');
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) onChange(clamp(d.start + (e.clientX - d.x) * direction));
  };
  const end = () => {
    drag.current = null;
    document.body.classList.remove('resizing');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 64 : 16;
    if (e.key === 'ArrowLeft') onChange(clamp(value - step * direction));
    else if (e.key === 'ArrowRight') onChange(clamp(value + step * direction));
    else if (e.key === 'Home') onChange(min);
    else if (e.key === 'End') onChange(max);
    else return;
    e.preventDefault();
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the ARIA pattern for a pane splitter
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      data-testid={testId}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
      onDoubleClick={onReset}
    />
  );
}
