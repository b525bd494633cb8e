/** Keeps a menu's active row (`aria-selected="true"`) in view as the arrow keys move it. */
import { type RefObject, useLayoutEffect, useRef } from 'react';

/**
 * A ref for a scrolling listbox: whenever `active` changes, the selected option is scrolled into the
 * list's view (only as far as needed), so keyboard navigation can reach rows below the fold.
 */
export function useActiveRowInView(active: number): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again whenever the active row changes
  useLayoutEffect(() => {
    const row = ref.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    row?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  return ref;
}
