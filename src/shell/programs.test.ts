// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands, not templates
/**
 * What the analysis knows of programs: files in option values (glued, abbreviated, after operands),
 * operand rules, read-only unless an option writes or runs, run-time words that could become options,
 * and code the shell evaluates. On just-bash's real parser.
 */
import { describe, expect, it } from 'vitest';
import { analyzeShell } from './analyze.ts';

/** `access:path` of every path of every command, sure ones plain, unsure ones with `?`. */
async function paths(command: string): Promise<string[]> {
  const a = await analyzeShell(command);
  expect(a.parsed, a.parseError).toBe(true);
  return a.commands.flatMap((c) => c.paths.map((p) => `${p.access}${p.sure ? '' : '?'}:${p.text}`));
}

const readOnly = async (command: string) => (await analyzeShell(command)).readOnly;

describe('option values that are files', () => {
  it.each([
    ['sort -oconfig/prod.env a', ['read:a', 'write:config/prod.env']],
    ['sort -o out a', ['read:a', 'write:out']],
    ['sort -ro out a', ['read:a', 'write:out']],
    ['sort a -o out', ['read:a', 'write:out']],
    ['sort --output=out a', ['read:a', 'write:out']],
    ['sort --out=out a', ['read:a', 'write:out']],
    ['sort --output out a', ['read:a', 'write:out']],
    ['sort -T tmp -k2 a', ['read:a', 'write:tmp']],
    ['grep -f pats.txt a b', ['read:a', 'read:b', 'read:pats.txt']],
    // A value that is not a file may be an operand, if the program takes the option's value glued only
    // (GNU's optional values: `diff --unified .env b`): maybe a file.
    ['grep -e x a', ['read:a', 'read?:x']],
    ['grep x a', ['read:a']],
    ['head -n 5 a', ['read:a']],
    // The destination may be a directory: the files written inside it count too.
    ['cp a b c/', ['read:a', 'read:b', 'write:c/', 'write:c/a', 'write:c/b']],
    ['cp -t dir a b', ['read:a', 'read:b', 'write:dir/a', 'write:dir/b', 'write:dir']],
    // A moved file's content stays readable under the new name: the source is read too.
    ['mv a b', ['read:a', 'write:a', 'write:b', 'write:b/a']],
    // just-bash names a source ending in `/` by its whole text inside the directory: t/../config.
    ['cp -r ../config/ t', ['read:../config/', 'write:t', 'write:t/config', 'write:t/../config']],
    ['mv a/ b/', ['read:a/', 'write:a/', 'write:b/', 'write:b/a']],
    ['mv src/a/ b', ['read:src/a/', 'write:src/a/', 'write:b', 'write:b/a', 'write:b/src/a']],
    // `-` keeps its place: the pattern is `-`, .env is searched; cp's `-` is a file named so.
    ['grep - .env', ['read:.env']],
    ['grep -- - .env', ['read:.env']],
    ['cp a -', ['read:a', 'write:-', 'write:-/a']],
    ['head -', ['read:-']],
    ['gzip -c a', ['read:a', 'write:a']],
    ['split -l 1 in out', ['read:in', 'write:out', 'write:out*']],
    // --additional-suffix ends each name; a `..` in it that leaves the generated name: beside PREFIX.
    ['split --additional-suffix=.txt in out', ['read:in', 'write:out', 'write:out*.txt']],
    [
      'split --additional-suffix /x/../../c/f in d/p',
      // (And, as GNU's long options may take their value glued only, the other reading, maybe.)
      [
        'read:in',
        'write:d/p',
        'write:d/p*/x/../../c/f',
        'write:d/c/f',
        'read?:/x/../../c/f',
        'write?:in',
        'write?:in*',
      ],
    ],
    ['split --additional-suffix=/../.. in p', ['read:in', 'write:p', 'write:p*/../..', 'write:..']],
    ['split --additional-suffix=/x/.. in p', ['read:in', 'write:p', 'write:p*/x/..']],
    ['xxd -l 16 in', ['read:in']],
    // A sum's check reads the files its list names.
    ['md5sum -c sums', ['read:sums', 'read?:(a file md5sum names)']],
    ['sha256sum --check sums', ['read:sums', 'read?:(a file sha256sum names)']],
    ['md5sum -bc sums', ['read:sums', 'read?:(a file md5sum names)']],
    ['md5sum sums', ['read:sums']],
    // just-bash's tac takes no options: every word may be its file.
    ['tac -s x -- a', ['read:-s', 'read:x', 'read:--', 'read:a']],
    ['tac - a', ['read:-', 'read:a']],
    ['sed -i s/x/y/ f', ['read:f', 'write:f']],
    ['zip out.zip a', ['read:out.zip', 'write:out.zip', 'read:a']],
    // A hard link: the source is written through the new name.
    ['ln a b', ['read:a', 'write:a', 'write:b', 'write:b/a']],
    ['ln -s a b', ['read:a', 'write:b', 'write:b/a']],
    ['cp -al a b', ['read:a', 'write:a', 'write:b', 'write:b/a']],
    ['tar -xf x.tar -C dir', ['read:x.tar', 'write:dir']],
    ['tar cf out.tar a', ['read:a', 'read:out.tar', 'write:out.tar']],
    ['tar -tf x.tar', ['read:x.tar']],
    ['chmod +x run.sh', ['write:run.sh']],
    // A mode that starts with `-` is read as flags: the operand is the file, not the mode.
    ['chmod -w config/prod.env', ['write:config/prod.env']],
    ['chmod -R -wx a b', ['write:a', 'write:b']],
    ['uniq in out', ['read:in', 'read:out', 'write:out']],
    ['tee -a log < in', ['write:log', 'read:in']],
    ['curl -oout.html http://x', ['write:out.html']],
    // No operand: nothing (it used to throw, and the line counted as unparseable).
    ['cp --help', []],
    ['mv --version', []],
  ])('%s', async (command, expected) => {
    expect((await paths(command)).sort()).toEqual([...expected].sort());
  });

  it('a program it does not know: every operand and glued value is only maybe a file', async () => {
    expect(await paths('frob -ofile x')).toEqual(expect.arrayContaining(['unknown?:file', 'unknown?:x']));
    expect(await paths('dd if=a of=b')).toEqual(expect.arrayContaining(['unknown?:a', 'unknown?:b']));
  });
});

describe('which word is the sed script or the awk program', () => {
  it.each([
    // just-bash's sed takes a word as the script when no -e or -f came before it; GNU sed as a file.
    ["sed 'w out' -e p f", ['read:w out', 'read:f', 'write:out']],
    ["sed -en 'w out' f", ['read:w out', 'read:f', 'write:out']],
    ['sed -ei s/a/b/ f', ['read:s/a/b/', 'write:s/a/b/', 'read:f', 'write:f']],
    // awk stops reading options at its program.
    ["awk '{print}' -e 1", ['read:-e', 'read:1']],
    ['awk -f p.awk -- f', ['read:p.awk', 'read:f']],
    // just-bash's awk skips a lone `-` among its options.
    ['awk - \'BEGIN{print > "out"}\'', ['read:BEGIN{print > "out"}', 'write:out']],
    // just-bash's awk opens a var=value operand as a file.
    ["awk '{print}' a=/../.env", ['read:a=/../.env']],
  ])('%s', async (command, expected) => {
    expect((await paths(command)).sort()).toEqual([...expected].sort());
  });
});

describe('read-only', () => {
  it.each([
    ['ls -la src', true],
    ['cat a | grep -n x | sort | uniq -c', true],
    ['sort -k2 -n data.txt', true],
    ['jq .name package.json', true],
    ['git log --oneline -n 5', true],
    ['git branch -a', true],
    ['find . -name "*.ts" -type f', true],
    ["sed -n '1,5p' a", true],
    ["awk '{print $1}' a", true],
    ['echo "$(cat a)"', true],
    ['test -f a && echo yes', true],
    ['[ "$x" = y ]', true],
    ['[ -n "$x" ]', true],
    ['[ $# -eq 0 ]', true],
    ['[[ -v HOME ]]', true],
    ['echo $((1 + 2))', true],
    ['date +%Y', true],
    ['cd src && ls', true],
    ['sort -o out a', false],
    ['sort $X a', false],
    ['sort * ', false],
    ['find . -delete', false],
    ['find $D -name x', false],
    ['git branch new', false],
    ['git diff --output=p', false],
    ['git -c core.pager=sh log', false],
    ['date -s 2020-01-01', false],
    ['date 0101', false],
    ['history -c', false],
    ['hostname evil', false],
    ['rg --pre ./x foo', false],
    ['tree -o out', false],
    ['file -C -m m', false],
    ['printf -v x hi', false],
    ['printf "$fmt" hi', false],
    ['node -e 1', false],
    ['npm test', false],
    ['python3 -c "print(1)"', false],
    ['FOO=1 ls', false],
    ['env FOO=1 ls', false],
    ['ls > out', false],
  ])('%s → %s', async (command, expected) => {
    expect(await readOnly(command)).toBe(expected);
  });
});

describe('code the shell evaluates makes a command not read-only, and its substitutions are found', () => {
  it.each([
    "test -v 'a[$(id)]'",
    "[ -v 'a[$(id)]' ]",
    "[[ -v 'a[$(id)]' ]]",
    "[[ 'a[$(id)]' -eq 0 ]]",
    '[[ $x -gt 1 ]]',
    '[ "$op" a ]',
    'echo $((x))',
    'echo $(( $x + 1 ))',
    'echo ${a[$(id)]}',
    'echo ${a[i]}',
    'echo ${s:x}',
    'echo ${!name}',
    'echo ${x@P}',
    'a[$(id)]=1',
    "declare -i z='a[$(id)]'",
    "unset 'a[$(id)]'",
    "printf -v 'a[$(id)]' x",
    'let x',
    '(( x ))',
    'for ((i=x; i<1; i++)); do :; done',
    'case 1 in $((x))) ;; esac',
  ])('%s', async (command) => {
    const a = await analyzeShell(command);
    expect(a.parsed, a.parseError).toBe(true);
    expect(a.readOnly, command).toBe(false);
    expect(a.commands.some((c) => c.opaque || /evaluat|expands/.test(c.reason ?? ''))).toBe(true);
    if (command.includes('$(id)')) expect(a.commands.some((c) => c.words[0]?.text === 'id')).toBe(true);
  });

  it('literal arithmetic and plain names evaluate nothing', async () => {
    for (const command of [
      'echo $((1 + 2 * 3))',
      '(( 1 ))',
      '[[ 2 -gt 1 ]]',
      'test -v HOME',
      'echo ${a[0]} ${a[@]}',
    ]) {
      expect(await readOnly(command), command).toBe(true);
    }
  });
});

describe('forms deny rules match', () => {
  const forms = async (command: string) =>
    (await analyzeShell(command)).commands.flatMap((c) =>
      c.forms.map((f) => `${f.sure ? '' : '~'}${f.words.map((w) => (w.dynamic ? '?' : w.text)).join(' ')}`),
    );

  it('what surely runs is sure; what only looks like it is not', async () => {
    expect(await forms('/bin/rm -rf x')).toEqual(expect.arrayContaining(['/bin/rm -rf x', 'rm -rf x']));
    expect(await forms('git -C . push origin')).toEqual(expect.arrayContaining(['git push origin']));
    expect(await forms('docker rm web')).toEqual(expect.arrayContaining(['docker rm web', '~rm web']));
    expect(await forms('rм x')).toEqual(expect.arrayContaining(['rм x', '~rm x']));
    expect(await forms("su -c 'rm -rf x'")).toEqual(expect.arrayContaining(['~rm -rf x']));
    expect(await forms('f() { :; }; f x')).toEqual(expect.arrayContaining(['~f x']));
  });
});
