/** Project memory in the transcript: stated once per change, cut with a note, gone when removed. */
import { describe, expect, it } from 'vitest';
import { MAX_MEMORY_CHARS } from './constants.ts';
import {
  isMemoryReminder,
  lastMemoryReminder,
  MEMORY_GONE_NOTE,
  memoryDelta,
  memoryReminder,
} from './memory.ts';
import type { MessageParam } from './messages.ts';

const turn = (...texts: string[]): MessageParam => ({
  role: 'user',
  content: texts.map((text) => ({ type: 'text', text })),
});

describe('memory', () => {
  it('is stated once, again when it changes, and as gone when removed', () => {
    const v1 = memoryReminder([{ label: 'CLAUDE.md', text: 'Use tabs.' }]);
    const first = memoryDelta([], v1);
    expect(first?.text).toContain('Contents of CLAUDE.md:\n\nUse tabs.');
    expect(first && isMemoryReminder(first)).toBe(true);
    const transcript = [
      turn(first?.text ?? '', 'hello'),
      { role: 'assistant', content: 'hi' } as MessageParam,
    ];
    expect(memoryDelta(transcript, v1)).toBeNull();
    const v2 = memoryReminder([
      { label: 'CLAUDE.md', text: 'Use spaces.' },
      { label: '.claude/CLAUDE.md', text: 'Be brief.' },
    ]);
    const second = memoryDelta(transcript, v2);
    expect(second?.text).toContain('Use spaces.');
    expect(second?.text).toContain('Contents of .claude/CLAUDE.md:\n\nBe brief.');
    const gone = memoryDelta([...transcript, turn(second?.text ?? '', 'x')], null);
    expect(gone?.text).toContain(MEMORY_GONE_NOTE);
    expect(memoryDelta([...transcript, turn(gone?.text ?? '')], null)).toBeNull();
    expect(memoryDelta([], null)).toBeNull();
    expect(lastMemoryReminder([turn('plain')])).toBeUndefined();
  });

  it('cuts a 1 MB CLAUDE.md with a note saying how much was left out', () => {
    const huge = 'rule\n'.repeat(210_000);
    const r = memoryReminder([{ label: 'CLAUDE.md', text: huge }]);
    expect(r?.cutChars).toBe(huge.trimEnd().length - MAX_MEMORY_CHARS);
    expect(r?.text.length).toBeLessThan(MAX_MEMORY_CHARS + 1_000);
    expect(r?.text).toContain(`[The memory was cut: ${r?.cutChars} more characters were left out`);
  });
});
