import { describe, expect, it } from 'vitest';
import { MAX_DIFF_CHARS, MAX_DIFF_EDITS, unifiedDiff } from './unified-diff.ts';

describe('unifiedDiff', () => {
  it('shows one changed line with context and a hunk header', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    const d = unifiedDiff(before, after);
    expect(d.added).toBe(1);
    expect(d.removed).toBe(1);
    expect(d.rows[0]).toEqual({ op: 'hunk', text: '@@ -2,7 +2,7 @@' });
    expect(d.rows.filter((r) => r.op === 'del')).toEqual([{ op: 'del', text: 'e', oldLine: 5 }]);
    expect(d.rows.filter((r) => r.op === 'add')).toEqual([{ op: 'add', text: 'E', newLine: 5 }]);
    expect(d.rows.filter((r) => r.op === 'same')).toHaveLength(6);
  });

  it('a new file is all additions; identical texts have no rows', () => {
    const created = unifiedDiff('', 'x\ny\n');
    expect(created).toMatchObject({ added: 2, removed: 0 });
    expect(created.rows[0]).toEqual({ op: 'hunk', text: '@@ -0,0 +1,2 @@' });
    expect(unifiedDiff('same\n', 'same\n')).toMatchObject({ rows: [], added: 0, removed: 0 });
  });

  it('falls back to replace-all for very large texts instead of stalling', () => {
    const big = 'line\n'.repeat(MAX_DIFF_CHARS / 5 + 10);
    const d = unifiedDiff(big, `${big}more\n`);
    expect(d.fallback).toBe(true);
    expect(d.added).toBe(d.removed + 1);
  });

  it('gives up on texts too different to diff cheaply (a 10,000-line rewrite once took 87 s) and shows them replaced', () => {
    const n = 10_000;
    const before = Array.from({ length: n }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: n }, (_, i) => `new ${i}`).join('\n');
    expect(before.length + after.length).toBeLessThan(MAX_DIFF_CHARS);
    const d = unifiedDiff(before, after);
    expect(d).toMatchObject({ fallback: true, added: n, removed: n });
    expect(d.rows[0]).toEqual({ op: 'del', text: 'old 0' });
    expect(d.rows[n]).toEqual({ op: 'add', text: 'new 0' });
  });

  it('still diffs a large file with scattered edits under the edit limit, and gives up just past it', () => {
    const n = 5_000;
    const before = Array.from({ length: n }, (_, i) => `line ${i}`);
    const every = (k: number) => before.map((l, i) => (i % k === 0 ? `${l} changed` : l)).join('\n');
    // 100 lines changed: 200 edits, under the limit.
    expect(unifiedDiff(before.join('\n'), every(50))).toMatchObject({
      fallback: false,
      added: 100,
      removed: 100,
    });
    // 250 lines changed: 500 edits, past it.
    expect(2 * (n / 20)).toBeGreaterThan(MAX_DIFF_EDITS);
    expect(unifiedDiff(before.join('\n'), every(20))).toMatchObject({ fallback: true });
  });
});
