/**
 * A unified diff of two texts for the page, computed with the `diff` package: hunks with their
 * `@@ -a,b +c,d @@` headers and 3 lines of context, plus added/removed counts. It runs on the main
 * thread while a card renders, so its cost is bounded: Myers' algorithm grows with the square of the
 * edit distance (two different 10,000-line texts took 87 s here), and past MAX_DIFF_EDITS the lines
 * are shown as replaced instead. The limit is on edits, not time, so the same texts always give the
 * same card (a time budget gave up on a 30-line file while the page was still compiling the library).
 */
import { structuredPatch } from 'diff';

export type DiffRow =
  | { op: 'hunk'; text: string }
  | { op: 'add' | 'del' | 'same'; text: string; oldLine?: number; newLine?: number };

export interface UnifiedDiff {
  rows: DiffRow[];
  added: number;
  removed: number;
  /** True when the texts were too large or too different to diff and every line is shown as replaced. */
  fallback: boolean;
}

/** Combined size (characters) above which the diff is not computed line by line. */
export const MAX_DIFF_CHARS = 400_000;
export const DIFF_CONTEXT_LINES = 3;
/**
 * Edit distance (lines added + removed) past which the diff gives up: beyond it, a rewrite. Giving up
 * at 400 costs 20–60 ms here for texts of 1,000 to 40,000 lines (2,000 edits cost about a second).
 */
export const MAX_DIFF_EDITS = 400;

/**
 * The diff of `before` and `after`. `firstLine` is the file line `before` starts at when the texts are
 * a snippet of a file (an Edit): line numbers and hunk headers then count from it.
 */
export function unifiedDiff(before: string, after: string, firstLine = 1): UnifiedDiff {
  const shift = Math.max(0, Math.floor(firstLine) - 1);
  if (before.length + after.length > MAX_DIFF_CHARS) return replaced(before, after);
  const patch = structuredPatch('before', 'after', before, after, '', '', {
    context: DIFF_CONTEXT_LINES,
    maxEditLength: MAX_DIFF_EDITS,
  });
  if (patch === undefined) return replaced(before, after);
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    // An empty range names the line before it (unified diff convention: a new file is "-0,0").
    const oldHead = (h.oldLines === 0 ? h.oldStart - 1 : h.oldStart) + shift;
    const newHead = (h.newLines === 0 ? h.newStart - 1 : h.newStart) + shift;
    rows.push({ op: 'hunk', text: `@@ -${oldHead},${h.oldLines} +${newHead},${h.newLines} @@` });
    let oldLine = h.oldStart + shift;
    let newLine = h.newStart + shift;
    for (const line of h.lines) {
      const sign = line[0];
      const text = line.slice(1);
      if (sign === '+') {
        added++;
        rows.push({ op: 'add', text, newLine: newLine++ });
      } else if (sign === '-') {
        removed++;
        rows.push({ op: 'del', text, oldLine: oldLine++ });
      } else if (sign === ' ') rows.push({ op: 'same', text, oldLine: oldLine++, newLine: newLine++ });
      // '\ No newline at end of file' markers are left out.
    }
  }
  return { rows, added, removed, fallback: false };
}

/** Every line of `before` removed and every line of `after` added (no line numbers: no alignment). */
function replaced(before: string, after: string): UnifiedDiff {
  const del = lines(before).map((text): DiffRow => ({ op: 'del', text }));
  const add = lines(after).map((text): DiffRow => ({ op: 'add', text }));
  return { rows: [...del, ...add], added: add.length, removed: del.length, fallback: true };
}

function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}
