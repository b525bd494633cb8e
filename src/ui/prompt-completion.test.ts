import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../agent/slash/builtins.ts';
import {
  commandMenuItems,
  completionContext,
  insertMention,
  MENTION_MENU_ROWS,
  mentionMenuItems,
} from './prompt-completion.ts';

describe('prompt completion', () => {
  it('the slash menu for "/" lists every command (/model and /resume too), the best match first', () => {
    const all = commandMenuItems('', BUILTIN_COMMANDS).map((c) => c.name);
    expect(all).toHaveLength(BUILTIN_COMMANDS.length);
    expect(all).toEqual(expect.arrayContaining(['model', 'permissions', 'resume']));
    expect(commandMenuItems('mo', BUILTIN_COMMANDS)[0].name).toBe('model');
    const files = Array.from({ length: 80 }, (_, i) => `src/f${i}.ts`);
    expect(mentionMenuItems('', files)).toHaveLength(MENTION_MENU_ROWS);
  });

  it('completes a command only while the first word is typed', () => {
    expect(completionContext('/co', 3)).toEqual({ kind: 'command', query: 'co' });
    expect(completionContext('/', 1)).toEqual({ kind: 'command', query: '' });
    expect(completionContext('/compact now', 12)).toBeNull();
    expect(completionContext('/src/a.ts', 9)).toBeNull();
  });

  it('completes the @word at the caret, not MCP resources or e-mail addresses', () => {
    expect(completionContext('fix @src/ap please', 11)).toEqual({
      kind: 'mention',
      query: 'src/ap',
      start: 4,
      end: 11,
    });
    expect(completionContext('mail me@example.com', 10)).toBeNull();
    expect(completionContext('see @docs:readme', 16)).toBeNull();
    expect(insertMention('fix @src/ap please', 4, 11, 'src/app.ts')).toEqual({
      value: 'fix @src/app.ts please',
      caret: 16,
    });
    expect(insertMention('@my f', 0, 3, 'my file.txt').value).toBe('@"my file.txt" f');
  });
});
