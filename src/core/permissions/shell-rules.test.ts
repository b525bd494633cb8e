import { describe, expect, it } from 'vitest';
import { matchShellRule, strongest } from './shell-rules.ts';
import type { ShellWord } from './types.ts';

/** Words of a command; `$...` words are only known at run time. */
const w = (...words: string[]): ShellWord[] =>
  words.map((text) => ({ text, dynamic: text.startsWith('$'), glob: false }));

describe('Bash rule content', () => {
  it.each([
    // exact
    ['npm test', ['npm', 'test'], 'yes'],
    ['npm test', ['npm', 'test', '--watch'], 'no'],
    ['npm   test', ['npm', 'test'], 'yes'],
    // legacy prefix: word boundary
    ['npm test:*', ['npm', 'test'], 'yes'],
    ['npm test:*', ['npm', 'test', '--watch'], 'yes'],
    ['npm test:*', ['npm', 'tests'], 'no'],
    ['npm test:*', ['npm', 'run', 'test'], 'no'],
    // wildcards
    ['git *', ['git'], 'yes'],
    ['git *', ['git', 'push', '--force'], 'yes'],
    ['git *', ['gitk'], 'no'],
    ['git*', ['gitk'], 'yes'],
    ['git * main', ['git', 'push', 'origin', 'main'], 'yes'],
    ['git * main', ['git', 'push', 'origin', 'dev'], 'no'],
    ['echo \\*', ['echo', '*'], 'yes'],
    ['echo \\*', ['echo', 'x'], 'no'],
    ['* --force', ['git', 'push', '--force'], 'yes'],
  ] as const)('%j against %j: %s', (rule, words, expected) => {
    expect(matchShellRule(rule, w(...words))).toBe(expected);
  });

  it('words only known at run time make a match certain, possible or impossible', () => {
    expect(matchShellRule('rm:*', w('rm', '-rf', '$DIR'))).toBe('yes');
    expect(matchShellRule('rm *', w('rm', '$DIR'))).toBe('yes');
    expect(matchShellRule('rm:*', w('$X', '-rf', '/'))).toBe('maybe');
    expect(matchShellRule('rm -rf /', w('rm', '$FLAGS'))).toBe('maybe');
    expect(matchShellRule('rm -rf /', w('rm', '$FLAGS', '/'))).toBe('maybe');
    expect(matchShellRule('git push:*', w('git', '$SUB'))).toBe('maybe');
    expect(matchShellRule('git push:*', w('ls', '$X'))).toBe('no');
    expect(matchShellRule('npm test', w('npm', 'test', '$EXTRA'))).toBe('maybe');
    expect(strongest(['no', 'maybe', 'no'])).toBe('maybe');
    expect(strongest(['maybe', 'yes'])).toBe('yes');
    expect(strongest([])).toBe('no');
  });
});
