// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands, not templates
import { describe, expect, it } from 'vitest';
import {
  classifyCommand,
  isDestructiveCommand,
  isReadOnlyCommand,
  isSafeSedScript,
  parseCommand,
  splitCommand,
} from './command-classify.ts';

/** [command, read-only?] */
const CASES: Array<[string, boolean]> = [
  // plain read-only commands
  ['ls', true],
  ['ls -la src', true],
  ['cat package.json', true],
  ['head -n 20 src/a.ts', true],
  ['wc -l src/*.ts', true],
  ['pwd', true],
  ['echo hello world', true],
  ['echo "a;b"', true],
  ["echo 'a && rm -rf /'", true],
  ['echo "x > y"', true],
  ["grep -rn 'a|b' src", true],
  ['grep -c foo src/a.ts | sort | uniq -c', true],
  ['cat a.txt && ls; pwd || true', true],
  ['ls\npwd', true],
  ['ls 2>&1', true],
  ['ls missing 2>/dev/null', true],
  ['ls >/dev/null 2>&1', true],
  ['find . -name "*.ts" -type f', true],
  ['find . -name \\*.ts', true],
  ["sed -n '1,5p' src/a.ts", true],
  ["sed 's/foo/bar/g' a.txt", true],
  ['git status', true],
  ['git log --oneline -n 5', true],
  ['git --no-pager diff HEAD~1', true],
  ['git branch -a', true],
  ['echo "héllo wörld" | rev', true],
  ['cat файл.txt', true],
  ['echo $HOME', true],
  ['[ -f package.json ]', true],
  ['sort -k2 -n data.txt', true],
  ['env', true],
  ['jq .name package.json', true],
  ['ls # trailing comment; rm -rf /', true],
  // writes, side effects and unknown programs
  ['cat x > y', false],
  ['echo hi >> log.txt', false],
  ['echo a>b', false],
  ['cat < input.txt', false],
  ['ls > /dev/null; cat a >& out.txt', false],
  ['rm -rf /', false],
  ['mkdir build', false],
  ['touch a', false],
  ['npm install', false],
  ['cd src', false],
  ['ls && rm a', false],
  ['ls | xargs rm', false],
  ['ls | tee out.txt', false],
  ['awk "{print}" a.txt', false],
  ['find . -delete', false],
  ['find . -name x -exec rm {} \\;', false],
  ['find . -fprint out.txt', false],
  ['find *', false],
  ['sed -i "s/a/b/" a.txt', false],
  ['sed -ni p a.txt', false],
  ['sed --in-place=.bak "s/a/b/" a.txt', false],
  ["sed 's/a/b/w out.txt' a.txt", false],
  ["sed -e p -e 'w out' a.txt", false],
  ["sed '1e rm x' a.txt", false],
  ['sed -n 1p *.txt', false],
  ['sort -o out.txt in.txt', false],
  ['sort --output=out.txt in.txt', false],
  ['uniq in.txt out.txt', false],
  ['printf -v x hi', false],
  ['tree -o out.txt', false],
  ['rg --pre ./run.sh foo', false],
  ['date -s 2020-01-01', false],
  ['env FOO=1 ls', false],
  ['git push', false],
  ['git commit -m x', false],
  ['git branch new-feature', false],
  ['git branch -D main', false],
  ['git -c core.pager=evil log', false],
  ['git diff --output=patch.txt', false],
  ['FOO=1 ls', false],
  ['FOO=1', false],
  // unsupported syntax fails closed
  ['ls $(rm -rf /)', false],
  ['echo "$(rm -rf /)"', false],
  ['ls `rm -rf /`', false],
  ['(ls)', false],
  ['{ ls; }', false],
  ['ls &', false],
  ['diff <(ls a) <(ls b)', false],
  ['cat <<EOF\nhi\nEOF', false],
  ['eval ls', false],
  ['exec ls', false],
  ['source script.sh', false],
  ['. script.sh', false],
  ["find . $'-delete'", false],
  ['echo ${X:=1}', false],
  ['echo $((1+2))', false],
  ['$CMD', false],
  ['{rm,-rf,x}', false],
  ['/bin/rm x', false],
  ['"unterminated', false],
  ['ls\u00a0-la', false],
  ['', false],
];

describe('isReadOnlyCommand', () => {
  it.each(CASES)('%j → %s', (command, expected) => {
    expect(isReadOnlyCommand(command)).toBe(expected);
  });

  it('has a large table of cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });
});

describe('parseCommand', () => {
  it('removes quotes and escapes, and splits on operators', () => {
    const parsed = parseCommand(`echo "a;b" 'c d' e\\ f && ls -la | wc -l`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.commands.map((c) => c.argv)).toEqual([
      ['echo', 'a;b', 'c d', 'e f'],
      ['ls', '-la'],
      ['wc', '-l'],
    ]);
    expect(parsed.operators).toEqual(['&&', '|']);
  });

  it('records redirections and assignments', () => {
    const parsed = parseCommand('FOO=1 BAR+=2 cmd arg 2>&1 >out.txt');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [cmd] = parsed.commands;
    expect(cmd.assignments).toEqual(['FOO=1', 'BAR+=2']);
    expect(cmd.argv).toEqual(['cmd', 'arg']);
    expect(cmd.redirects).toEqual([
      { fd: '2', op: '>&', target: '1' },
      { fd: '', op: '>', target: 'out.txt' },
    ]);
  });

  it('treats a quoted name=value as a word, not an assignment', () => {
    const parsed = parseCommand('"FOO=1" ls');
    expect(parsed.ok && parsed.commands[0].assignments).toEqual([]);
  });

  it('marks expansions and unquoted globs', () => {
    const parsed = parseCommand('ls $HOME "${USER}" *.ts "*.js"');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.commands[0].words.map((w) => [w.value, w.expanded, w.glob])).toEqual([
      ['ls', false, false],
      ['$HOME', true, false],
      ['${USER}', true, false],
      ['*.ts', false, true],
      ['*.js', false, false],
    ]);
  });

  it('reports why it cannot parse', () => {
    expect(parseCommand('ls $(pwd)')).toEqual({ ok: false, reason: 'command substitution' });
    expect(parseCommand("echo 'open")).toEqual({ ok: false, reason: 'unterminated quote' });
    expect(parseCommand('ls >')).toEqual({ ok: false, reason: 'redirection without a target' });
  });

  it('joins backslash-newline continuations', () => {
    const parsed = parseCommand('ls \\\n  -la');
    expect(parsed.ok && parsed.commands[0].argv).toEqual(['ls', '-la']);
  });
});

describe('splitCommand', () => {
  it('returns the text of each sub-command', () => {
    expect(splitCommand('npm test && git status; echo "x;y"')).toEqual([
      'npm test',
      'git status',
      'echo "x;y"',
    ]);
  });

  it('returns null for unsupported syntax', () => {
    expect(splitCommand('echo `date`')).toBeNull();
  });
});

describe('classifyCommand', () => {
  it('gives the reason a command is not read-only', () => {
    expect(classifyCommand('ls && rm x').reason).toBe('rm is not a known read-only command');
    expect(classifyCommand('cat a > b').reason).toBe('redirection >b');
    expect(classifyCommand('FOO=1 ls').reason).toBe('variable assignment');
    expect(classifyCommand('ls $(x)')).toMatchObject({
      parsed: false,
      readOnly: false,
      reason: 'command substitution',
    });
  });

  it('returns parsed sub-commands for read-only lines', () => {
    const c = classifyCommand('git log -n 3 | head -1');
    expect(c.readOnly).toBe(true);
    expect(c.commands.map((x) => x.argv[0])).toEqual(['git', 'head']);
  });
});

describe('isSafeSedScript', () => {
  it.each([
    ['p', true],
    ['1,10p', true],
    ['$d', true],
    ['/foo/,/bar/!d', true],
    ['s/a/b/g; s|x|y|2', true],
    ['s/[0-9]\\+/N/g', true],
    ['y/abc/xyz/', true],
    ['10q', true],
    ['s/a/b/w file', false],
    ['s/a/b/e', false],
    ['w out', false],
    ['r other', false],
    ['1e date', false],
    ['s/[/]/x/', false],
    ['s/a/b', false],
    ['a\\text', false],
  ])('%j → %s', (script, expected) => {
    expect(isSafeSedScript(script)).toBe(expected);
  });
});

describe('isDestructiveCommand', () => {
  it.each([
    ['rm -rf build', true],
    ['ls && /bin/rm x', true],
    ['find . -name "*.tmp" -delete', true],
    ['git reset --hard HEAD~1', true],
    ['git push --force origin main', true],
    ['git clean -fd', true],
    ['echo hi > notes.md', true],
    ['echo hi >> notes.md', false],
    ['ls > /dev/null', false],
    ['git status && git log', false],
    ['cat a | wc -l', false],
    ['echo $(date)', true],
  ])('%j: %s', (command, expected) => {
    expect(isDestructiveCommand(command)).toBe(expected);
  });
});
