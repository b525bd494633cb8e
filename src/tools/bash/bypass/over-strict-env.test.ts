/**
 * A variable that only picks a mode of the programs that read it (NODE_ENV, CI, NO_COLOR, FORCE_COLOR),
 * or one of the script's own, keeps a read-only command read-only, whether set before it, by `env`, or
 * for a shell it starts; a variable that changes what code, files or options mean still asks. Through
 * the real tool-call path in the real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { decisionOf, RULES } from './harness.ts';

describe('variables that change nothing a read-only command does keep it read-only', () => {
  it.each([
    "NODE_ENV=test bash -c 'ls src'",
    'NODE_ENV=test ls src',
    'env NODE_ENV=test ls src',
    'env dir=src ls src',
    'CI=1 NO_COLOR=1 cat notes.txt',
    'env FORCE_COLOR=0 grep alpha notes.txt',
  ])('%s runs in default mode', async (command) => {
    expect(await decisionOf(command, 'default', RULES)).toBe('allow');
  });

  it.each([
    'env HOME=/home/user/project/src ls src',
    'HOME=/home/user/project/x git log',
    'env HOME=/home/user/project/x git log',
    'LANG=C ls src',
    'env POSIXLY_CORRECT=1 cat notes.txt',
    'env NODE_ENV=test PATH=/tmp/b:/usr/bin ls src',
    'env NODE_ENV=test LD_PRELOAD=/tmp/x.so ls src',
    'env -i NODE_ENV=test ls src',
    'env -u NODE_ENV ls src',
  ])('%s still asks', async (command) => {
    expect(await decisionOf(command, 'default', RULES)).toBe('ask');
  });

  it('what they run is still checked against the rules', async () => {
    for (const command of ['env NODE_ENV=test cat .env', "NODE_ENV=test bash -c 'cat secrets/key.pem'"]) {
      expect(await decisionOf(command, 'default', RULES), command).toBe('deny');
    }
  });
});
