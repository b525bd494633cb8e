/**
 * Cases found by red-team round 12: words the analysis reads one way and just-bash another. A sed bracket's
 * class ends at its first `]` in just-bash (a delimiter inside it ends the part), its file names at `;`
 * only, awk's regex at its first `/` (a bracket holds none), the command of awk's `| getline` is all the
 * expression before it, awk's `>>` reads the file it appends to, and sed reads /dev/stdin as a plain file;
 * just-bash's uniq reads its OUT operand, its find takes a `,` and the words after it as starting points,
 * and the sandbox's gzip and gunzip write FILE with or without its suffix; just-bash's env takes no value
 * after a u inside a cluster, its time none after options other than -f and -o written alone (and reads the
 * file it appends to), and its bash and sh run any first word but `-c` as a script file.
 */
import { APP, type BypassCase, LEAK, NO_RULES, PROD, RULES } from './harness.ts';

/** RULES plus one allow rule (the deny rules still bind). */
const ALLOW = (rule: string) => ({ rules: { ...RULES, allow: [rule] } });

/**
 * sed: `[[:]` is a bracket holding `[:`, and `/` then ends the pattern in just-bash's sed; the analysis
 * skipped `[:` to the next `:]` as one class, past a `;r FILE;` that just-bash runs.
 */
export const SED_BRACKET_CLASS: BypassCase[] = [
  {
    what: 'sed: a class running to a later :] hides an r of a denied file',
    command: "sed -n 's/[[:]/x/;r .env;#:]]/y/p' notes.txt",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'sed: a class running to a later :] hides a w of a denied file',
    command: "sed -n 's/[[:]/x/;w config/prod.env;#:]]/y/' notes.txt",
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'sed: a class running to a later :] hides a w of a protected file (default mode ran it)',
    command: "sed 's/[[:]/x/;w .git/HEAD;#:]]/y/' notes.txt",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
  },
  {
    what: 'sed: the same in an address',
    command: "sed -n '/[[:]/p;r secrets/key.pem;#:]]/p' notes.txt",
    effect: LEAK,
    bypass: 'ask',
  },
];

/**
 * sed: just-bash's sed ends an r, R, w or W file name at `;` only (a `}` before it is part of the name),
 * and runs what follows; the analysis ended it at the first `}` and read the rest (`a x;r .env`) as the
 * text of an a command.
 */
export const SED_NAME_END: BypassCase[] = [
  {
    what: 'sed: r NAME}a x;r FILE reads the denied file',
    command: "sed 'r notes.txt}a x;r .env' README.md",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed: R NAME}i y;R FILE of a denied folder',
    command: "sed '$!R x}i y;R secrets/key.pem' notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed: w NAME}a x;w FILE writes the denied file',
    command: "sed -n '1w x}a x;w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
];

/** sed's r and R of /dev/stdin read just-bash's plain file /dev/stdin, which a link may replace. */
export const SED_DEV_STDIN: BypassCase[] = [
  {
    what: 'sed r /dev/stdin, a link to a denied file',
    setup: ['rm -f /dev/stdin && ln -s /home/user/project/.env /dev/stdin'],
    command: "sed 'r /dev/stdin' notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed 1R /dev/stdin, a link to a denied folder',
    setup: ['rm -f /dev/stdin && ln -s /home/user/project/secrets/key.pem /dev/stdin'],
    command: "sed '1R /dev/stdin' notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
];

/**
 * awk: just-bash's awk ends a regex at its first unescaped `/`, even in a bracket (`/[/` is the regex `[`);
 * the analysis took `/[/ … /]/` for one regex and skipped the code between.
 */
export const AWK_REGEX_BRACKET: BypassCase[] = [
  {
    what: 'awk: code between /[/ and /]/ reads a denied file',
    command: `awk 'BEGIN { if (0) x = /[/; while ((getline l < ".env") > 0) print l; if (0) y = /]/ }'`,
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'awk: code between /[/ and /]/ writes a denied file',
    command: `awk 'BEGIN { if (0) x = /[/; print "pwned" > "config/prod.env"; if (0) y = /]/ }'`,
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'awk: code between /[/ and /]/ runs rm (default mode ran it)',
    command: `awk 'BEGIN { if (0) x = /[/; "rm -f src/app.ts" | getline; if (0) y = /]/ }'`,
    effect: APP,
    bypass: 'ask',
  },
];

/**
 * awk: the command of `EXPR | getline` is the whole expression before the `|` (just-bash's parser takes
 * all of an `||` expression); the analysis took the string right before the `|` for all of it.
 */
export const AWK_GETLINE_COMMAND: BypassCase[] = [
  {
    what: 'awk: (a) "ls" | getline runs what a holds first',
    command: `awk 'BEGIN { a = "cat .env; "; (a) "ls" | getline x; print x }'`,
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'awk: a[1] "ls" | getline',
    command: `awk 'BEGIN { a[1] = "cat secrets/key.pem; "; a[1] "ls" | getline x; print x }'`,
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'awk: a string joined to a comparison that ends in "ls"',
    command: `awk 'BEGIN { "cat .env; " x == "ls" | getline y; print y }'`,
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'awk: $"0" | getline runs the input line',
    command: `echo 'cat .env' | awk '{ $"0" | getline x; print x }'`,
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'an allow rule for awk: (a) "ls" | getline reads a denied file (default mode ran it)',
    command: `awk 'BEGIN { a = "cat .env; "; (a) "ls" | getline x; print x }'`,
    ...ALLOW('Bash(awk:*)'),
    effect: LEAK,
    bypass: 'ask',
  },
];

/**
 * awk: just-bash's awk appends (`>>`) by reading the file and writing it whole, so through a link it
 * copies what the link leads to into the file (which the next call may read): the file is read too.
 */
export const AWK_APPEND_READS: BypassCase[] = [
  {
    what: 'awk >> "/dev/stderr", a link to a denied file, copies it there (plan mode ran it)',
    setup: ['rm -f /dev/stderr && ln -s /home/user/project/.env /dev/stderr'],
    command: `awk 'BEGIN { printf "x" >> "/dev/stderr" }'`,
    effect: { changed: '/dev/stderr' },
    bypass: 'deny',
  },
  {
    what: 'awk >> notes.log, a link to a denied file, copies it into notes.log',
    setup: ['ln -s /home/user/project/.env notes.log'],
    command: `awk '{ print >> "notes.log" }' notes.txt`,
    effect: { changed: 'notes.log' },
    bypass: 'deny',
  },
];

/** just-bash's uniq reads every operand as input: `uniq IN OUT` prints OUT (GNU's writes it). */
export const UNIQ_OUTPUT_READ: BypassCase[] = [
  { what: 'uniq notes.txt .env prints .env', command: 'uniq notes.txt .env', effect: LEAK, bypass: 'deny' },
  {
    what: 'uniq - FILE of a denied folder',
    command: 'uniq - secrets/key.pem < notes.txt',
    effect: LEAK,
    bypass: 'deny',
  },
];

/** just-bash's find takes a `,` and every word after it up to the expression as starting points. */
export const FIND_COMMA: BypassCase[] = [
  {
    what: 'find notes.txt , config -delete deletes in config',
    command: "find notes.txt , config -name '*.env' -delete",
    effect: { removed: 'config/prod.env' },
    bypass: 'deny',
  },
  {
    what: 'find notes.txt , .git -delete deletes in the protected .git',
    command: 'find notes.txt , .git -name HEAD -delete',
    ...NO_RULES,
    effect: { removed: '.git/HEAD' },
    bypass: 'ask',
  },
];

/**
 * gzip and gunzip (the sandbox's, src/sandbox/gzip-commands.ts) write FILE and its suffix, or FILE
 * without it: `-S /../config/prod.env` makes notes.txt's output config/prod.env. The analysis took the
 * operand alone for what they write.
 */
export const GZIP_OUTPUT: BypassCase[] = [
  {
    what: 'gzip -S /../config/prod.env notes.txt writes config/prod.env',
    command: 'gzip -kf -S /../config/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'gzip --suffix=/../src/app.ts README.md writes src/app.ts',
    command: 'gzip -f -k --suffix=/../src/app.ts README.md',
    effect: { changed: 'src/app.ts' },
    bypass: 'deny',
  },
  {
    what: 'gunzip config/prod.env.gz writes config/prod.env, which a rule names',
    setup: ['echo DB=evil > /tmp/e && gzip /tmp/e && cp /tmp/e.gz config/prod.env.gz'],
    command: 'gunzip -f config/prod.env.gz',
    rules: { deny: ['Edit(/config/prod.env)'] },
    effect: PROD,
    bypass: 'deny',
  },
];

/**
 * just-bash's env takes a value only after a leading u (`-uNAME`, `-u NAME`): `-iu cat FILE` runs cat
 * FILE there; GNU env (as the analysis read it) unsets cat and runs FILE.
 */
export const ENV_CLUSTER_UNSET: BypassCase[] = [
  { what: 'env -iu cat ./.env', command: 'env -iu cat ./.env', effect: LEAK, bypass: 'ask' },
  {
    what: 'env -iu cat secrets/key.pem',
    command: 'env -iu cat secrets/key.pem',
    effect: LEAK,
    bypass: 'ask',
  },
];

/**
 * just-bash's time program (`command time`, `env time`) takes a value after -f, -o, --format and
 * --output written alone only; GNU time's getopt (as the analysis read it) also after a cluster ending in
 * f or o, and after an abbreviation: `-pf rm ls FILE` runs rm there.
 */
export const TIME_OPTIONS: BypassCase[] = [
  {
    what: 'command time -pf rm ls src/app.ts runs rm (plan mode ran it as read-only)',
    command: 'command time -pf rm ls src/app.ts',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'env time --out rm ls src/app.ts runs rm',
    command: 'env time --out rm ls src/app.ts',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'command time -pf cat ./.env',
    command: 'command time -pf cat ./.env',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'command time -a -o t.log, a link to a denied file, copies it into t.log (acceptEdits ran it)',
    setup: ['ln -s /home/user/project/secrets/key.pem t.log'],
    command: 'command time -a -o t.log ls',
    effect: { changed: 't.log' },
    bypass: 'deny',
  },
];

/**
 * just-bash's bash and sh take a first `-c` and its text, and any other first word as a script file:
 * `bash -e -c 'ls'` runs the file `-e` (which an earlier call, or the line, may have written), where bash
 * (as the analysis read it) runs ls.
 */
export const SHELL_FIRST_WORD: BypassCase[] = [
  {
    what: 'bash -e -c ls runs the file -e (plan mode ran it)',
    setup: ["echo 'cat /home/user/project/.env' > ./-e"],
    command: "bash -e -c 'ls'",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'bash -ec runs the file -ec, which runs rm',
    setup: ["echo 'rm -f /home/user/project/src/app.ts' > ./-ec"],
    command: "bash -ec 'echo hi'",
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'the line writes the file -e, then bash -e -c ls runs it (acceptEdits ran it)',
    command: "echo 'cat /home/user/project/.env' > -e; bash -e -c ls",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'sh -x -c runs the file -x, a link to a denied file',
    setup: ['ln -s /home/user/project/secrets/key.pem ./-x'],
    command: "sh -x -c 'echo hi'",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'bash -s <<< ls runs the file -s',
    setup: ["echo 'cat /home/user/project/.env' > ./-s"],
    command: "bash -s <<< 'ls'",
    effect: LEAK,
    bypass: 'ask',
  },
];
