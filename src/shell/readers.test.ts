/**
 * The sed and awk readers: files their programs write and read, commands they run, and the fail-closed
 * answer (opaque) for anything they cannot follow.
 */
import { describe, expect, it } from 'vitest';
import { readAwkProgram } from './awk.ts';
import { readSedScript } from './sed.ts';

describe('sed scripts', () => {
  it.each([
    ['p', { writes: [], reads: [], commands: [], opaque: null }],
    ['1,10p; $d; /a/,/b/!d; s/a/b/g; s|x|y|2; y/abc/xyz/; 10q', { writes: [], opaque: null }],
    ['w out.txt', { writes: ['out.txt'] }],
    ['s/a/b/w out.txt', { writes: ['out.txt'] }],
    ['/re/w out.txt', { writes: ['out.txt'] }],
    ['1{w out\n}', { writes: ['out'] }],
    ['W out', { writes: ['out'] }],
    ['w /dev/stdout', { writes: [] }],
    ['r .env', { reads: ['.env'] }],
    ['R in', { reads: ['in'] }],
    ['1e echo hi', { commands: ['echo hi'] }],
    ['a\\\ntext', { opaque: null }],
    ['$!N; P; D', { opaque: null }],
    [':a;N;$!ba;s/\\n/ /g', { opaque: null }],
  ])('%j', (script, expected) => {
    expect(readSedScript(script)).toMatchObject(expected);
  });

  it.each(['e', 's/a/b/e', 's/[/]/x/w out/', 's/a/b', 'k', '1,2,3p'])('opaque: %j', (script) => {
    expect(readSedScript(script).opaque).not.toBeNull();
  });
});

describe('awk programs', () => {
  it.each([
    ['{print $1}', { writes: [], commands: [], opaque: null, dynamicWrite: false }],
    ['$1 > 5 {print}', { writes: [], opaque: null }],
    ['{if ($2 > 1) print $1}', { writes: [], opaque: null }],
    ['{print > "out"}', { writes: ['out'] }],
    ['{print $1, $2 >> "log"}', { writes: ['log'] }],
    ['{printf("%s", $0) > "out"}', { writes: ['out'] }],
    ['{print > "/dev/stderr"}', { writes: [] }],
    ['{print > $3}', { dynamicWrite: true }],
    ['BEGIN{system("rm -rf x")}', { commands: ['rm -rf x'] }],
    ['{print | "sort"}', { commands: ['sort'] }],
    ['BEGIN{while (("ls" | getline l) > 0) print l}', { commands: ['ls'] }],
    ['BEGIN{while ((getline l < ".env") > 0) print l}', { reads: ['.env'] }],
    ['/a>b/ {print}', { writes: [], opaque: null }],
  ])('%j', (program, expected) => {
    expect(readAwkProgram(program)).toMatchObject(expected);
  });

  it.each(['BEGIN{system(cmd)}', '{print | cmd}', '@include "x"', '{print "open'])(
    'opaque: %j',
    (program) => {
      expect(readAwkProgram(program).opaque).not.toBeNull();
    },
  );
});
