import { describe, expect, it } from 'vitest';
import { lineDiff, withContext } from './line-diff.ts';

describe('lineDiff', () => {
  it('marks a changed line as removed then added, keeping the rest', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'B' },
      { op: 'same', text: 'c' },
    ]);
  });

  it('finds insertions and deletions in the middle', () => {
    const ops = lineDiff('1\n2\n3\n4', '1\n3\nx\n4').map((l) => `${l.op}:${l.text}`);
    expect(ops).toEqual(['same:1', 'del:2', 'same:3', 'add:x', 'same:4']);
  });

  it('treats an empty before as all added', () => {
    expect(lineDiff('', 'a\nb')).toEqual([
      { op: 'add', text: 'a' },
      { op: 'add', text: 'b' },
    ]);
  });
});

describe('withContext', () => {
  it('collapses long unchanged runs around a change', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'LINE 10');
    const rows = withContext(lineDiff(before, after), 2);
    expect(rows[0]).toEqual({ op: 'skip', count: 8 });
    expect(rows.filter((r) => r.op === 'del' || r.op === 'add')).toHaveLength(2);
    expect(rows[rows.length - 1]).toEqual({ op: 'skip', count: 7 });
  });
});
