/**
 * A small line diff for the page (LCS over lines). Good for the file sizes an agent edits; larger
 * inputs fall back to "all removed, all added" so the page never stalls.
 */

export type DiffLine = { op: 'same' | 'add' | 'del'; text: string };

/** Cells of the LCS table above which the diff falls back to a plain replace. */
const MAX_CELLS = 2_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Trim the common head and tail first: edits are usually local.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: 'same', text }));
  out.push(...diffMiddle(midA, midB));
  out.push(...a.slice(a.length - tail).map((text): DiffLine => ({ op: 'same', text })));
  return out;
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_CELLS || a.length === 0 || b.length === 0) {
    return [
      ...a.map((text): DiffLine => ({ op: 'del', text })),
      ...b.map((text): DiffLine => ({ op: 'add', text })),
    ];
  }
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: LCS length of a[i..] and b[j..], flattened.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * (m + 1) + j + 1] + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) {
      out.push({ op: 'del', text: a[i++] });
    } else {
      out.push({ op: 'add', text: b[j++] });
    }
  }
  while (i < n) out.push({ op: 'del', text: a[i++] });
  while (j < m) out.push({ op: 'add', text: b[j++] });
  return out;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export type DiffRow = DiffLine | { op: 'skip'; count: number };

/** Collapses runs of unchanged lines longer than 2 × `context` into a "skip" row. */
export function withContext(lines: DiffLine[], context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  let run: DiffLine[] = [];
  const flush = (atStart: boolean, atEnd: boolean) => {
    const keepHead = atStart ? 0 : context;
    const keepTail = atEnd ? 0 : context;
    if (run.length > keepHead + keepTail + 1) {
      rows.push(...run.slice(0, keepHead));
      rows.push({ op: 'skip', count: run.length - keepHead - keepTail });
      rows.push(...run.slice(run.length - keepTail));
    } else {
      rows.push(...run);
    }
    run = [];
  };
  let seenChange = false;
  for (const line of lines) {
    if (line.op === 'same') {
      run.push(line);
      continue;
    }
    flush(!seenChange, false);
    seenChange = true;
    rows.push(line);
  }
  flush(!seenChange, true);
  return rows;
}
