// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands, not templates
import { describe, expect, it } from 'vitest';
import { analyzeShell as analyzeShellCommand, MAX_ANALYZED_CHARS, MAX_ANALYZED_NESTING } from './analyze.ts';

/** The programs a line runs, in the order the analysis lists them (nested scripts before their host). */
async function programs(command: string): Promise<string[]> {
  const m = await analyzeShellCommand(command);
  expect(m.parsed, m.parseError).toBe(true);
  return m.commands.map((s) => s.words.map((w) => (w.dynamic ? '<?>' : w.text)).join(' '));
}

describe('splitting a command line into what it runs', () => {
  it.each([
    ['a && b || c; d | e |& f', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['(a; (b)) && { c; }', ['a', 'b', 'c']],
    ['echo $(a) `b` "$(c)"', ['a', 'b', 'c', 'echo <?> <?> <?>']],
    ['diff <(a) >(b)', ['a', 'b', 'diff <?> <?>']],
    ['x=$(a) y', ['a', 'y']],
    ['if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
    ['for i in $(a); do b "$i"; done', ['a', 'b <?>']],
    ['while a; do b; done; until c; do d; done', ['a', 'b', 'c', 'd']],
    ['case $(a) in x) b;; *) c;; esac', ['a', 'b', 'c']],
    // The body where it is defined, the definition, the body again where it is called (from there), the call.
    ['f() { a; }; f', ['a', '', 'a', 'f']],
    ["bash -c 'a && b'", ['a', 'b', 'bash -c a && b']],
    ['sh -ec "a"', ['a', 'sh -ec a']],
    ['eval "a; b"', ['a', 'b', 'eval a; b']],
    ['env -S "a b" c', ['a b c', 'c']],
    ['bash <<EOF\na\nb\nEOF', ['a', 'b', 'bash']],
    ['trap "a" EXIT', ['a', 'trap a EXIT']],
    ["alias x='a | b'", ['a', 'b', 'alias x=a | b']],
    ['command a; builtin b; env c; timeout 5 d; nice -n 2 e; nohup f', ['a', 'b', 'c', 'd', 'e', 'f']],
    ['sudo -u me env FOO=1 a x', ['a x']],
    ['ls | xargs -n1 a', ['ls', 'a <?>', 'xargs -n1 a']],
    ['ls | xargs -I{} a {} b', ['ls', 'a <?> b', 'xargs -I{} a {} b']],
    ['echo $((1 + $(a)))', ['a', 'echo <?>']],
    ['ls # ; a', ['ls']],
  ])('%j', async (command, expected) => {
    expect(await programs(command)).toEqual(expected);
  });

  it('shells without visible code, eval of run-time text and source are opaque', async () => {
    for (const command of [
      'sh script.sh',
      'echo a | bash',
      'eval "$X"',
      'bash -c "$X"',
      'source x.sh',
      '. x.sh',
      // just-bash's bash runs any first word but `-c` as a script file (here `-e`, `-lc`, `-s`).
      'bash -e -c ls',
      'bash -lc ls',
      'bash -s <<< ls',
    ]) {
      const m = await analyzeShellCommand(command);
      expect(
        m.commands.some((s) => s.opaque),
        command,
      ).toBe(true);
      expect(m.readOnly).toBe(false);
    }
  });

  it("where just-bash's env and time take no value but GNU's take one, the program is only known at run time", async () => {
    for (const command of [
      'env -iu cat ./.env',
      'command time -pf rm ls x',
      'env time --out rm ls x',
      'env time - rm x',
    ]) {
      const m = await analyzeShellCommand(command);
      expect(m.commands[0]?.words[0]?.dynamic, command).toBe(true);
      expect(m.readOnly, command).toBe(false);
    }
    expect(await programs('env time -p -o t.txt ls; env -u HOME -i ls')).toEqual(['ls', 'ls']);
  });

  it('a line too long or nested too deeply is not parsed at all (a hostile input cannot hold the page)', async () => {
    const deep = `${'$('.repeat(MAX_ANALYZED_NESTING + 1)}echo x${')'.repeat(MAX_ANALYZED_NESTING + 1)}`;
    const long = Array.from({ length: 6_000 }, (_, i) => `echo ${i}`).join(' && ');
    expect(long.length).toBeGreaterThan(MAX_ANALYZED_CHARS);
    for (const [command, why] of [
      [deep, /nests brackets too deeply/],
      [`${'{ '.repeat(300)}true${'; }'.repeat(300)}`, /nests brackets too deeply/],
      [long, /too long to analyse/],
    ] as const) {
      const m = await analyzeShellCommand(command);
      expect(m).toMatchObject({ parsed: false, readOnly: false, destructive: true, parserRuns: 0 });
      expect(m.parseError).toMatch(why);
    }
    // At the limits, still analysed.
    const nested = `${'$('.repeat(20)}echo x${')'.repeat(20)}`;
    expect((await analyzeShellCommand(nested)).parserRuns).toBeGreaterThan(0);
    const heredoc = `cat > notes.txt <<'EOF'\n${'a line of notes (with brackets) {x}\n'.repeat(1_000)}EOF`;
    expect(heredoc.length).toBeLessThan(MAX_ANALYZED_CHARS);
    expect((await analyzeShellCommand(heredoc)).parsed).toBe(true);
  });

  it('brace expansion is analysed: its words are paths known at run time, its substitutions are walked', async () => {
    const ls = await analyzeShellCommand('ls {src,test}/*.js');
    expect(ls).toMatchObject({ parsed: true, readOnly: true });
    expect(ls.commands[0].paths.map((p) => [p.access, p.dynamic])).toEqual([['read', true]]);
    const inner = await analyzeShellCommand('echo {$(rm -f a.txt),b}');
    expect(inner.parsed).toBe(true);
    expect(inner.commands.map((c) => c.words[0].text)).toEqual(['rm', 'echo']);
    expect(inner.readOnly).toBe(false);
  });

  it('what the parser refuses is unparseable (the engine asks)', async () => {
    for (const command of ['echo "open', 'if true; then', ')', 'coproc x', 'echo $(ls']) {
      const m = await analyzeShellCommand(command);
      expect(m.parsed, command).toBe(false);
      expect(m.parseError).toBeTruthy();
    }
  });
});

describe('what a command touches', () => {
  it('redirections to files are writes; /dev/null and fd duplication are not', async () => {
    const m = await analyzeShellCommand(
      'a > out 2>&1; b >> log 2>/dev/null; c &> all; d < in; e >&2; f >| x',
    );
    const redirects = (access: string) =>
      m.commands.flatMap((s) => s.paths.filter((p) => p.redirect && p.access === access).map((p) => p.text));
    expect(redirects('write')).toEqual(['out', 'log', 'all', 'x']);
    expect(redirects('read')).toEqual(['in']);
    const compound = await analyzeShellCommand('{ ls; } > listing.txt');
    expect(
      compound.commands.flatMap((s) => s.paths.filter((p) => p.access === 'write').map((w) => w.text)),
    ).toEqual(['listing.txt']);
    expect(compound.readOnly).toBe(false);
  });

  it('read-only only when every part is read-only and nothing is written', async () => {
    expect((await analyzeShellCommand('ls -la && cat a | grep x | wc -l')).readOnly).toBe(true);
    expect((await analyzeShellCommand('echo $(cat a) && cd src && pwd')).readOnly).toBe(true);
    expect((await analyzeShellCommand('timeout 5 ls')).readOnly).toBe(true);
    expect((await analyzeShellCommand('find . -name x | xargs grep -n y')).readOnly).toBe(true);
    expect((await analyzeShellCommand('ls > out')).readOnly).toBe(false);
    expect((await analyzeShellCommand('echo $(rm a)')).readOnly).toBe(false);
    expect((await analyzeShellCommand('find . -delete')).readOnly).toBe(false);
    expect((await analyzeShellCommand('FOO=1 ls')).readOnly).toBe(false);
  });

  it('file arguments, with the cd targets that may have moved the command', async () => {
    const m = await analyzeShellCommand('cd src && rm a.ts; (cd /tmp); cp b c; cd $X; touch d');
    const byProgram = Object.fromEntries(
      m.commands
        .filter((s) => s.words.length > 0)
        .map((s) => [s.words[0].text, s.paths.map((p) => [p.text, p.cdTrail])]),
    );
    expect(byProgram.rm).toEqual([['a.ts', ['src']]]);
    expect(byProgram.cp).toEqual([
      ['b', ['src']],
      ['c', ['src']],
      ['c/b', ['src']],
    ]);
    expect(byProgram.touch).toEqual([['d', null]]);
    const grep = await analyzeShellCommand('grep -rn pattern src');
    expect(grep.commands[0].paths.map((p) => p.text)).toEqual(['src']);
    expect(grep.commands[0].paths[0].recursive).toBe(true);
    const echo = await analyzeShellCommand('echo .env');
    expect(echo.commands[0].paths).toEqual([]);
  });

  it('file-only commands and allow texts', async () => {
    const m = await analyzeShellCommand('timeout 60 npm test && mkdir -p out && FOO=1 make && npm run $T');
    expect(m.commands.map((s) => s.allowTexts)).toEqual([
      ['timeout 60 npm test', 'npm test'],
      ['mkdir -p out'],
      [],
      [],
    ]);
    expect(m.commands.map((s) => s.fileOnly)).toEqual([false, true, false, false]);
  });
});

describe("bash's network redirections", () => {
  it.each([
    'cat < /dev/tcp/example.com/80',
    'exec 3<>/dev/tcp/example.com/80',
    'cat <//dev//udp/10.0.0.1/53',
    'read -r line < /dev/tcp/$HOST/80',
    'cat < "$f"',
    '{ cat; } < /dev/tcp/example.com/80',
    'echo hi > /dev/tcp/example.com/80',
  ])('%s may reach the network: not read-only', async (command) => {
    const a = await analyzeShellCommand(command);
    expect(a.parsed, a.parseError).toBe(true);
    expect(a.readOnly).toBe(false);
    expect(a.commands.some((c) => /network/.test(c.reason ?? ''))).toBe(true);
  });

  it.each(['cat < notes.txt', 'cat < src/$f', 'ls 2>/dev/null', 'grep x < /dev/stdin'])(
    '%s stays read-only',
    async (command) => {
      expect((await analyzeShellCommand(command)).readOnly).toBe(true);
    },
  );
});

describe('commands find -exec and xargs run, through wrappers', () => {
  it.each([
    'find . -maxdepth 0 -exec sudo ls \\;',
    'find . -maxdepth 0 -exec env X=1 ls \\;',
    'find . -maxdepth 0 -exec env LD_PRELOAD=/tmp/e.so ls \\;',
    'find . -maxdepth 0 -exec su -c ls \\;',
  ])('%s is not read-only', async (command) => {
    const a = await analyzeShellCommand(command);
    expect(a.parsed, a.parseError).toBe(true);
    expect(a.readOnly).toBe(false);
  });

  it('find -exec cat stays read-only', async () => {
    expect((await analyzeShellCommand('find . -name "*.ts" -exec cat {} +')).readOnly).toBe(true);
  });
});

describe('a shell reading its commands from standard input', () => {
  it('sh -s ARGS runs the here-string, its operands are arguments', async () => {
    const a = await analyzeShellCommand("sh -s .env <<< 'rm -f x'");
    expect(a.commands.map((c) => c.words.map((w) => w.text).join(' '))).toContain('rm -f x');
    expect(a.commands.flatMap((c) => c.paths.map((p) => p.text))).not.toContain('.env');
  });
});
