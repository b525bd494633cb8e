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
    // just-bash's sed reads its plain file /dev/stdin, which a link may replace.
    ['r /dev/stdin', { reads: ['/dev/stdin'] }],
    ['s/[[:alpha:]]/x/g; s/[[:space:][:digit:]]//', { writes: [], opaque: null }],
    ['R in', { reads: ['in'] }],
    ['1e echo hi', { commands: ['echo hi'] }],
    ['a\\\ntext', { opaque: null }],
    ['$!N; P; D', { opaque: null }],
    [':a;N;$!ba;s/\\n/ /g', { opaque: null }],
  ])('%j', (script, expected) => {
    expect(readSedScript(script)).toMatchObject(expected);
  });

  it.each([
    'e',
    's/a/b/e',
    's/[/]/x/w out/',
    's/a/b',
    'k',
    '1,2,3p',
    // just-bash's bracket ends at the first `]`: a class holding the delimiter, `]` or a newline.
    's/[[:]/x/;r .env;#:]]/y/',
    '/[[:]/p;w out;#:]]/p',
    's/[[:a]/x/;w out;:]]/y/',
  ])('opaque: %j', (script) => {
    expect(readSedScript(script).opaque).not.toBeNull();
  });
});

describe("where just-bash's sed ends a name or command", () => {
  it('at `;` only: a `}` before it is part of the name, and what follows `;` runs', () => {
    expect(readSedScript('r notes.txt}a x;r .env').reads).toContain('.env');
    expect(readSedScript('1w x}a x;w out').writes).toContain('out');
    expect(readSedScript('/zz/e ls;r .env').reads).toContain('.env');
  });
});

describe('awk programs', () => {
  it('`>>` reads the file it appends to (just-bash reads it and writes it whole)', () => {
    expect(readAwkProgram('{ print >> "log" }')).toMatchObject({ writes: ['log'], reads: ['log'] });
    expect(readAwkProgram('{ print >> "/dev/stderr" }')).toMatchObject({
      writes: [],
      reads: ['/dev/stderr'],
    });
    expect(readAwkProgram('{ print > "out" }').reads).toEqual([]);
    expect(readAwkProgram('{ print >> $2 }')).toMatchObject({ dynamicWrite: true, dynamicRead: true });
  });

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
    [
      'BEGIN{ x = "ls" | getline; if (y && "pwd" | getline) print }',
      { commands: ['ls', 'pwd'], opaque: null },
    ],
    ['/[a-z]/ { print }', { opaque: null }],
    ['/a>b/ {print}', { writes: [], opaque: null }],
  ])('%j', (program, expected) => {
    expect(readAwkProgram(program)).toMatchObject(expected);
  });

  it.each([
    'BEGIN{system(cmd)}',
    '{print | cmd}',
    '@include "x"',
    '{print "open',
    // just-bash's awk ends a regex at its first `/`, a bracket or not.
    'BEGIN { x = /[/; getline < ".env"; y = /]/ }',
    '/[/]/ { print }',
    // The command of `| getline` is the whole expression before it.
    'BEGIN { (a) "ls" | getline }',
    'BEGIN { a[1] "ls" | getline }',
    '{ $"0" | getline }',
    'BEGIN { "cat .env; " x == "ls" | getline }',
  ])('opaque: %j', (program) => {
    expect(readAwkProgram(program).opaque).not.toBeNull();
  });
});
