import { describe, expect, it } from 'vitest';
import { firstLines, lineCount } from './ToolViews.tsx';

describe('firstLines (what a folded view renders)', () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');

  it('keeps the first n lines, without the newline after the last', () => {
    const head = firstLines(text, 40);
    expect(lineCount(head)).toBe(40);
    expect(head.endsWith('line 40')).toBe(true);
    expect(text.startsWith(head)).toBe(true);
  });

  it('returns a text of n lines or fewer unchanged', () => {
    expect(firstLines('a\nb', 2)).toBe('a\nb');
    expect(firstLines('a\nb\n', 2)).toBe('a\nb');
    expect(firstLines('', 40)).toBe('');
    expect(firstLines('one line', 1)).toBe('one line');
  });

  it('keeps empty lines as lines', () => {
    expect(firstLines('\n\n\nd', 2)).toBe('\n');
  });
});
