import { describe, expect, it } from 'vitest';
import { READ_MAX_LINE_CHARS } from '../../core/constants.ts';
import {
  addLineNumbers,
  changedLineRange,
  changeSnippet,
  languageOf,
  numberedLine,
  splitLines,
  truncateLine,
} from './diff.ts';

describe('splitLines', () => {
  it('counts lines as cat -n does', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('\n')).toEqual(['']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
  });
});

describe('line numbering', () => {
  it('right-aligns the number in 6 columns followed by a tab', () => {
    expect(numberedLine(7, 'x')).toBe('     7\tx');
    expect(numberedLine(123456, '')).toBe('123456\t');
    expect(addLineNumbers(['a', 'b'], 9)).toBe('     9\ta\n    10\tb');
  });

  it('cuts long lines with a marker giving the full length', () => {
    const long = 'x'.repeat(READ_MAX_LINE_CHARS + 5);
    const cut = truncateLine(long);
    expect(cut.startsWith('x'.repeat(READ_MAX_LINE_CHARS))).toBe(true);
    expect(cut).toContain(`[line truncated: ${READ_MAX_LINE_CHARS + 5} characters]`);
    expect(truncateLine('short')).toBe('short');
    expect(truncateLine('abcdef', 3)).toMatch(/^abc… \[line truncated: 6 characters\]$/);
  });
});

describe('changedLineRange', () => {
  it('finds the lines between the common prefix and suffix', () => {
    expect(changedLineRange('a\nb\nc\n', 'a\nb\nc\n')).toBeNull();
    expect(changedLineRange('a\nb\nc\n', 'a\nX\nY\nc\n')).toEqual({ start: 2, endBefore: 2, endAfter: 3 });
    expect(changedLineRange('a\nb\nc\n', 'a\nc\n')).toEqual({ start: 2, endBefore: 2, endAfter: 1 });
    expect(changedLineRange('a\n', 'a\nb\n')).toEqual({ start: 2, endBefore: 1, endAfter: 2 });
    expect(changedLineRange('', 'new\n')).toEqual({ start: 1, endBefore: 0, endAfter: 1 });
  });
});

describe('changeSnippet', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  const before = `${lines.join('\n')}\n`;

  it('shows the changed lines with context, numbered from the file', () => {
    const after = before.replace('line 15\n', 'changed 15\n');
    const snippet = changeSnippet(before, after, 2);
    expect(snippet).toBe(addLineNumbers(['line 13', 'line 14', 'changed 15', 'line 16', 'line 17'], 13));
  });

  it('clamps context at the start and end of the file', () => {
    const after = before.replace('line 1\n', 'first\n');
    expect(changeSnippet(before, after, 3).split('\n')[0]).toBe('     1\tfirst');
    const tail = before.replace('line 30\n', 'last\n');
    const snippet = changeSnippet(before, tail, 3).split('\n');
    expect(snippet.at(-1)).toBe('    30\tlast');
    expect(snippet).toHaveLength(4);
  });

  it('caps long changes and says how many lines were not shown', () => {
    const after = before.replace(/line/g, 'row');
    const snippet = changeSnippet(before, after, 4, 10);
    const shown = snippet.split('\n');
    expect(shown.slice(0, 10)).toEqual(
      Array.from({ length: 10 }, (_, i) => numberedLine(i + 1, `row ${i + 1}`)),
    );
    expect(shown.at(-1)).toBe('... (20 more lines in the changed region not shown)');
  });

  it('is empty when nothing changed', () => {
    expect(changeSnippet(before, before)).toBe('');
  });
});

describe('languageOf', () => {
  it('maps known extensions and ignores dotfiles', () => {
    expect(languageOf('/p/src/a.ts')).toBe('typescript');
    expect(languageOf('/p/README.MD')).toBe('markdown');
    expect(languageOf('/p/.gitignore')).toBeUndefined();
    expect(languageOf('/p/Makefile')).toBeUndefined();
  });
});
