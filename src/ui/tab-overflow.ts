/**
 * Which tabs of a one-row tab strip go into its More menu. `widths` are the tabs' widths in order,
 * `room` the row's width, `more` the More button's. When every tab fits, none goes. Otherwise the
 * selected tab stays, the others stay in order while they fit beside it and the More button, and from
 * the first that does not fit on, the rest go (the row keeps the tabs' order, the menu the rest).
 */
export function overflowing(
  widths: readonly number[],
  room: number,
  more: number,
  selected: number,
): boolean[] {
  if (widths.reduce((a, w) => a + w, 0) <= room + 0.5) return widths.map(() => false);
  let left = room + 0.5 - more - (widths[selected] ?? 0);
  let full = false;
  return widths.map((w, i) => {
    if (i === selected) return false;
    full ||= w > left;
    if (!full) left -= w;
    return full;
  });
}
