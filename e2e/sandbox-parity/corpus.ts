/**
 * The differential corpus: shell commands an agent really runs, each sent as one Bash tool call, in
 * Node (record.ts, the unit tests' sandbox) and in Chromium (the app's Worker sandbox,
 * e2e/sandbox-parity.spec.ts). SETUP builds the fixtures in /tmp/parity (outside the project, so the
 * file tree and its persistence do not churn): 1 B, 70 KB and 1 MB files, binary files of 256 B and
 * 128 KB, 300 small files, a 12-deep directory, symlinks, JSON/YAML/CSV, unicode, a gzip file. Every
 * command starts from /tmp/parity and is independent of the others (the page may run read-only ones
 * side by side).
 */

/** Where the fixtures live. */
export const PARITY_DIR = '/tmp/parity';

/** "héllo wörld", Japanese, an emoji and Greek, one per line (UTF-8). */
const UNICODE_B64 =
  'aMOpbGxvIHfDtnJsZArml6XmnKzoqp7jga7jg4bjgq3jgrnjg4gKZW1vamkg8J+OiSBvawrOkc67z4bOsSDOss6uz4TOsQo=';
const GZ_B64 = 'H4sIAAAAAAAAA8tIzcnJV0ivyizgKk5Nzs9LUcjJzEvlAgBjeGbrFwAAAA==';
const BYTES_B64 =
  'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==';

/** One command that builds every fixture (must exit 0 on both sides). */
export const SETUP = [
  `mkdir -p ${PARITY_DIR} && cd ${PARITY_DIR}`,
  'printf x > one.txt',
  "printf 'banana\\napple\\ncherry\\napple\\ndate\\nbanana\\napple\\n' > fruit.txt",
  "printf 'name,age,city\\nann,31,Oslo\\nbob,27,Lima\\ncy,45,Rome\\n' > people.csv",
  // Non-ASCII text arrives base64-encoded: a command that holds look-alike characters is asked about.
  `echo '${UNICODE_B64}' | base64 -d > unicode.txt`,
  'seq 1 14000 > 70k.txt',
  'seq 1 90000 > /tmp/s90k && cat /tmp/s90k /tmp/s90k > 1m.txt && rm /tmp/s90k',
  `echo '${BYTES_B64}' | base64 -d > bytes.bin`,
  'cat bytes.bin bytes.bin > b2 && cat b2 b2 > b4 && cat b4 b4 > b8 && cat b8 b8 > b16 && cat b16 b16 > b32',
  'cat b32 b32 > b64 && cat b64 b64 > b128 && cat b128 b128 > b256 && cat b256 b256 > bin128k.bin',
  'rm b2 b4 b8 b16 b32 b64 b128 b256',
  `echo '${GZ_B64}' | base64 -d > hello.txt.gz`,
  'echo \'{"name":"demo","items":[{"id":1,"tag":"a"},{"id":2,"tag":"b"},{"id":3,"tag":"a"}],"ok":true}\' > data.json',
  "printf 'name: demo\\nversion: 2\\nlist:\\n  - one\\n  - two\\n' > data.yaml",
  'mkdir -p many && for i in $(seq 1 300); do echo "file $i" > many/f$i.txt; done',
  'mkdir -p deep/a/b/c/d/e/f/g/h/i/j/k/l && echo leaf > deep/a/b/c/d/e/f/g/h/i/j/k/l/leaf.txt',
  'ln -s fruit.txt fruit.link && ln -s deep/a/b deep.link && ln -s missing.txt dangling.link',
  "printf 'line one\\nline two\\nline three\\n' > a.txt && printf 'line one\\nline 2\\nline three\\nline four\\n' > b.txt",
  "mkdir -p src && printf 'export const a = 1;\\n// TODO fix\\n' > src/a.ts && printf 'export const b = 2;\\n' > src/b.ts",
  'echo setup-done',
].join(' && ');

const C = (cmd: string): string => `cd ${PARITY_DIR} && ${cmd}`;

/** The commands, in order. */
// biome-ignore-start lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not templates.
export const COMMANDS: string[] = [
  // Reading files of every size.
  'cat one.txt',
  'cat fruit.txt',
  'cat unicode.txt',
  'cat 70k.txt | tail -n 2',
  'cat 1m.txt | wc -l',
  'head -n 3 70k.txt',
  'head -c 100 1m.txt | tail -n 1',
  'tail -n 3 1m.txt',
  'tail -c 20 70k.txt',
  'wc 70k.txt',
  'wc -c 1m.txt one.txt bytes.bin bin128k.bin',
  'wc -l many/*.txt | tail -n 1',
  'wc -m unicode.txt',
  // Binary files.
  'sha256sum bytes.bin bin128k.bin 70k.txt 1m.txt one.txt',
  'md5sum bytes.bin bin128k.bin 1m.txt',
  'base64 bytes.bin | head -n 2',
  'base64 bin128k.bin | wc -c',
  'base64 -w 0 one.txt',
  'echo aGVsbG8gd29ybGQ= | base64 -d',
  'od -A x -t x1z bytes.bin | head -n 3',
  'xxd bytes.bin | head -n 2',
  'head -c 16 bytes.bin | od -c | head -n 2',
  'cat bytes.bin | wc -c',
  'cp bin128k.bin /tmp/copy.bin && cmp bin128k.bin /tmp/copy.bin && echo same',
  'cat bin128k.bin > /tmp/cat.bin && sha256sum /tmp/cat.bin | cut -c1-16',
  'strings bytes.bin | head -n 3',
  'file bytes.bin one.txt data.json hello.txt.gz',
  // Compression and archives.
  'gunzip -c hello.txt.gz',
  'zcat hello.txt.gz',
  'cp fruit.txt /tmp/z.txt && gzip -f /tmp/z.txt && ls /tmp/z.txt.gz && gunzip -c /tmp/z.txt.gz',
  'gzip -c 70k.txt | gunzip -c | sha256sum',
  'gzip -c 1m.txt | gunzip | tail -n 1',
  'gzip -c bin128k.bin | gzip -dc | cmp - bin128k.bin && echo roundtrip',
  'cp people.csv /tmp/k.csv && gzip -k -f /tmp/k.csv && ls /tmp/k.csv /tmp/k.csv.gz',
  'echo hi | gzip | gunzip',
  'gzip -t hello.txt.gz && echo valid',
  'tar -cf /tmp/a.tar fruit.txt people.csv && tar -tf /tmp/a.tar',
  'tar -czf /tmp/a.tgz src && tar -tzf /tmp/a.tgz',
  // Text tools.
  'sort fruit.txt',
  'sort -u fruit.txt',
  'sort fruit.txt | uniq -c',
  'sort -n -r 70k.txt | head -n 3',
  'sort -t, -k2 -n people.csv',
  'uniq -d <(sort fruit.txt)',
  'cut -d, -f1,3 people.csv',
  'cut -c1-3 fruit.txt',
  "tr 'a-z' 'A-Z' < fruit.txt",
  "tr -d '\\n' < fruit.txt | wc -c",
  'tr -s a < fruit.txt | head -n 2',
  "sed -n '2,4p' fruit.txt",
  "sed 's/apple/APPLE/g' fruit.txt",
  "cp one.txt /tmp/sed.txt && sed -i.bak 's/x/y/' /tmp/sed.txt; cat /tmp/sed.txt; cat /tmp/sed.txt.bak",
  "sed -e '/^a/d' fruit.txt",
  "awk -F, 'NR>1 {sum+=$2} END {print sum, NR}' people.csv",
  "awk '{print length($0)}' unicode.txt",
  "awk 'END {print NR}' 1m.txt",
  'awk \'{s+=$1} END {printf "%d\\n", s}\' 70k.txt',
  'grep -n apple fruit.txt',
  'grep -c an fruit.txt',
  'grep -r TODO src',
  'grep -rl "file 29" many | sort',
  'grep -E "^15999[0-9]$" 1m.txt',
  'grep -i "$(echo V8OWUkxE | base64 -d)" unicode.txt',
  'grep nothing-here fruit.txt',
  'grep -v a fruit.txt',
  'rg TODO src',
  'rg -c apple fruit.txt',
  'rg -n "^1399[0-9]$" 70k.txt',
  'rg --files src | sort',
  'nl fruit.txt | head -n 2',
  'rev fruit.txt | head -n 2',
  'paste -d: a.txt b.txt',
  'column -t -s, people.csv',
  'fold -w 5 one.txt fruit.txt | head -n 3',
  'comm -12 <(sort a.txt) <(sort b.txt)',
  'join -t, <(printf "1,a\\n2,b\\n") <(printf "1,x\\n2,y\\n")',
  'expand <(printf "a\\tb\\n")',
  'tac fruit.txt | head -n 2',
  // Files and directories.
  'find . -name "*.txt" -maxdepth 1 | sort',
  'find many -type f | wc -l',
  'find deep -type f',
  'find deep -type d | wc -l',
  'find . -maxdepth 1 -type l | sort',
  'find src -name "*.ts" -newer /tmp/parity/one.txt | wc -l',
  'find many -name "f1*.txt" | xargs cat | wc -l',
  'ls many | head -n 3',
  'ls -1 src',
  'ls deep/a/b/c/d/e/f/g/h/i/j/k/l',
  'ls -la /tmp/parity/one.txt | cut -c1-10',
  'ls nothing-here',
  'cat nothing-here',
  'readlink fruit.link',
  'readlink -f deep.link',
  'cat fruit.link | head -n 1',
  'cat dangling.link',
  'ls deep.link',
  'realpath deep.link/c',
  'stat -c "%s %n" 70k.txt',
  'du -s many | cut -f1 >/dev/null && echo du-ok',
  'basename /a/b/c.txt .txt && dirname /a/b/c.txt',
  'mkdir -p /tmp/m/n && touch /tmp/m/n/o && ls -R /tmp/m',
  'cp -r src /tmp/src-copy && ls /tmp/src-copy',
  'mv /tmp/src-copy /tmp/src-moved && ls /tmp/src-moved',
  'rm -rf /tmp/src-moved && ls /tmp/src-moved',
  'ln -sf /tmp/parity/a.txt /tmp/lnk && cat /tmp/lnk | head -n 1',
  'split -l 5000 70k.txt /tmp/part- && ls /tmp/part-* && wc -l /tmp/part-ac',
  'split -b 100000 1m.txt /tmp/chunk- && ls /tmp/chunk-* | wc -l && cat /tmp/chunk-* | sha256sum',
  'diff a.txt b.txt',
  'diff -u a.txt b.txt | tail -n +3',
  'diff a.txt a.txt && echo identical',
  'echo hi | tee /tmp/tee.txt && cat /tmp/tee.txt',
  'seq 1 5 | tee /tmp/t1 | tail -n 1',
  // Data formats.
  "jq '.items | length' data.json",
  'jq -r \'.items[] | select(.tag=="a") | .id\' data.json',
  "jq -c '.items[0]' data.json",
  "jq '.missing.deep' data.json",
  'jq . nothing.json',
  "echo '{bad json' | jq .",
  "yq '.list[1]' data.yaml",
  'yq -o json data.yaml',
  "sqlite3 :memory: 'select 1+1'",
  // Shell features.
  'printf "%s=%d\\n" a 1 b 2',
  'printf "%05.2f|%-4s|%x\\n" 3.14159 ab 255',
  'echo aMOpbGxvCg== | base64 -d | wc -c',
  'seq 3',
  'seq 0 5 20',
  'seq -s, 1 5',
  'echo $((6 * 7)) $((17 % 5))',
  'x=5; echo ${x}px ${#x} ${y:-default}',
  'export FOO=bar && env | grep ^FOO=',
  'env | grep -c ^HOME=',
  'cd deep/a && pwd && cd - >/dev/null && pwd',
  'pushd src >/dev/null && pwd && popd >/dev/null && pwd',
  'for f in a.txt b.txt; do echo "$f: $(wc -l < $f)"; done',
  'ls *.csv *.json',
  'echo many/f1?.txt | wc -w',
  'echo nomatch*.zzz',
  'cat <<EOF\nhere $HOME\nline\nEOF',
  "cat <<'EOF'\nliteral $HOME\nEOF",
  'cat > /tmp/heredoc.txt <<EOF\nwritten\nEOF\ncat /tmp/heredoc.txt',
  'echo out; echo err >&2',
  'echo only-err 1>&2; exit 3',
  'ls nothing-here 2>/dev/null || echo fallback',
  'echo a > /tmp/r.txt && echo b >> /tmp/r.txt && cat /tmp/r.txt',
  '{ echo one; echo two; } | wc -l',
  'false; echo $?',
  'true && echo yes || echo no',
  'set -o pipefail; false | true; echo $?',
  'test -f fruit.txt && [ -d deep ] && [[ -L fruit.link ]] && echo tests-ok',
  'case apple in a*) echo starts-a;; *) echo other;; esac',
  'f() { echo "arg: $1"; }; f hello',
  'arr=(x y z); echo ${arr[1]} ${#arr[@]}',
  'read -r first rest <<< "one two three"; echo "$rest"',
  'while read -r l; do echo "<$l>"; done < a.txt',
  'echo "$(echo nested $(echo deeper))"',
  'date -d @0 -u +%Y-%m-%dT%H:%M:%S',
  'date -u +%Y >/dev/null && echo date-ok',
  'TZ=UTC date -d "2024-02-29 12:00" +%j',
  'sleep 0.1 && echo slept',
  'timeout 1 sleep 5; echo "timeout exit $?"',
  'which cat jq',
  'type cd',
  'no-such-command --flag',
  'whoami && hostname >/dev/null && echo id-ok',
  'echo $SHELL $USER',
  'expr 3 + 4',
  'bc <<< "2^10"',
  // Runtimes and the demo project.
  'node -e "console.log([1,2,3].map(x => x * 2).join(\',\'))"',
  "node -e \"const fs=require('fs'); console.log(fs.readFileSync('/tmp/parity/fruit.txt','utf8').split('\\n').length)\"",
  'node -e "process.stderr.write(\'to stderr\\n\'); process.exit(4)"',
  'echo \'console.log(process.argv.slice(2).join("+"))\' > /tmp/args.js && node /tmp/args.js a b',
].map(C);
// biome-ignore-end lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not templates.

/** The project root the app opens (the demo project). */
export const PROJECT_ROOT = '/home/user/project';

/**
 * Commands run from the demo project (the page's project is the demo project too). python3 is left out:
 * Pyodide's first load costs the page tens of seconds (e2e/python.spec.ts covers it).
 */
export const PROJECT_COMMANDS: string[] = [`cd ${PROJECT_ROOT} && npm test 2>&1 | tail -n 5`];

/** Corpus commands per Bash call: one call runs a group, each command in its own subshell. */
export const GROUP_SIZE = 20;

const MARK = '<<<parity';

/**
 * The script of one Bash call: each command in a subshell, its stderr kept apart in a file and
 * printed after its exit code, between markers that split the output back per command.
 */
export function groupScript(group: number, commands: string[]): string {
  const err = `/tmp/.parity-stderr-${group}`;
  return commands
    .map(
      (command, i) =>
        `printf '${MARK} cmd ${i}>>>\\n'\n(\n${command}\n) 2>${err}\nprintf '\\n${MARK} exit %s>>>\\n' "$?"\ncat ${err}\nprintf '\\n${MARK} end>>>\\n'`,
    )
    .join('\n');
}

/** One command's answer: its streams (as the subshell left them) and exit code. */
export interface Answer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Splits a group's tool result text back into one answer per command; null when it is not one. */
export function splitGroup(text: string, count: number): Answer[] | null {
  const answers: Answer[] = [];
  const re = new RegExp(
    `${MARK} cmd (\\d+)>>>\\n([\\s\\S]*?)\\n${MARK} exit (\\d+)>>>\\n([\\s\\S]*?)\\n${MARK} end>>>`,
    'g',
  );
  for (const m of text.matchAll(re)) {
    if (Number(m[1]) !== answers.length) return null;
    answers.push({ stdout: m[2], stderr: m[4], exitCode: Number(m[3]) });
  }
  return answers.length === count ? answers : null;
}

/** Every command of the corpus, in order, with the groups the Bash calls run. */
export function corpusGroups(): string[][] {
  const all = [...COMMANDS, ...PROJECT_COMMANDS];
  const groups: string[][] = [];
  for (let i = 0; i < all.length; i += GROUP_SIZE) groups.push(all.slice(i, i + GROUP_SIZE));
  return groups;
}
