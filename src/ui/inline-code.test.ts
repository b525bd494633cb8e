import { describe, expect, it } from 'vitest';
import { splitInlineCode } from './inline-code.ts';

describe('splitInlineCode', () => {
  it('takes the backticks off each code span and keeps the code as written', () => {
    expect(
      splitInlineCode("This command needs your approval for `node -e 'console.log(1+1)'`, `sh`."),
    ).toEqual([
      { code: false, text: 'This command needs your approval for ' },
      { code: true, text: "node -e 'console.log(1+1)'" },
      { code: false, text: ', ' },
      { code: true, text: 'sh' },
      { code: false, text: '.' },
    ]);
  });

  it('leaves text without spans, and an unclosed backtick, as text', () => {
    expect(splitInlineCode('Write wants to change a.ts.')).toEqual([
      { code: false, text: 'Write wants to change a.ts.' },
    ]);
    expect(splitInlineCode('an ` alone')).toEqual([{ code: false, text: 'an ` alone' }]);
    expect(splitInlineCode('')).toEqual([]);
    expect(splitInlineCode('`x`')).toEqual([{ code: true, text: 'x' }]);
  });
});
