/**
 * Cases found by red-team round 9: which word is a program's script or pattern (just-bash's sed takes
 * the first operand before any -e, awk stops at its program, just-bash's awk skips `-`, grep's pattern
 * may be `-`), awk's `var=value` operands that just-bash opens as files, where cp/mv put a source
 * written with a trailing slash, /dev files that are plain files (and links) in just-bash, and the
 * package.json scripts npm runs through just-bash.
 */
import { APP, type BypassCase, LEAK, NO_RULES, PROD } from './harness.ts';

/** sed: just-bash takes the first operand as the script when no -e came before it, even if one comes after. */
export const SED_SCRIPT_OPERAND: BypassCase[] = [
  {
    what: 'sed: a w script before -e is read as an input file',
    command: "sed 'w config/prod.env' -e p notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed: an r script before -e reads the denied file',
    command: "sed 'r .env' -e p notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed -i (acceptEdits edits notes.txt): a w of a protected file before -e',
    command: "sed -i 'w .git/HEAD' -e p notes.txt",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'sed: s///w of a protected file before -e',
    command: "sed 's/a/b/w .git/HEAD' -e p notes.txt",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'sed -n: an r script before -e reads the denied file',
    command: "sed -n 'r .env' -e p notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed: a w script before -f is read as an input file',
    setup: ['echo p > s.sed'],
    command: "sed 'w config/prod.env' -f s.sed notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed -en: just-bash takes no script from the cluster, and the next word is the script',
    command: "sed -en 'w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed -ei: just-bash edits in place, and the next word is the script',
    command: "sed -ei 's/export/pwned/' src/app.ts",
    effect: { changed: 'src/app.ts' },
    bypass: 'deny',
  },
];

/** awk stops reading options at its program: an -e after the program is an input file there, not code. */
export const AWK_OPTIONS_AFTER_PROGRAM: BypassCase[] = [
  {
    what: 'awk PROGRAM -e 1: the program reads a denied file',
    command: `awk 'BEGIN { while ((getline l < ".env") > 0) print l }' -e 1`,
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk PROGRAM -e 1: the program writes a denied file',
    command: `awk 'BEGIN { print "pwned" > "config/prod.env" }' -e 1`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk PROGRAM -e 1: the program writes a protected file',
    command: `awk 'BEGIN { print "pwned" > ".git/HEAD" }' -e 1`,
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'awk PROGRAM --source=1: the program writes a denied file',
    command: `awk 'BEGIN { print "pwned" > "config/prod.env" }' --source=1`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk PROGRAM -f FILE: the program writes a denied file',
    setup: ['echo "BEGIN {}" > p.awk'],
    command: `awk 'BEGIN { print "pwned" > "config/prod.env" }' -f p.awk`,
    effect: PROD,
    bypass: 'deny',
  },
];

/** just-bash's awk skips a lone `-` among its options: the word after it is the program. */
export const AWK_DASH: BypassCase[] = [
  {
    what: 'awk - PROGRAM: the program reads a denied file',
    command: `awk - 'BEGIN { while ((getline l < "secrets/key.pem") > 0) print l }'`,
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk - PROGRAM: the program writes a denied file',
    command: `awk - 'BEGIN { print "pwned" > "config/prod.env" }'`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk -F, - PROGRAM: the program writes a denied file',
    command: `awk -F, - 'BEGIN { print "pwned" > "config/prod.env" }'`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk - - PROGRAM: the program reads a denied file',
    command: `awk - - 'BEGIN { while ((getline l < ".env") > 0) print l }'`,
    effect: LEAK,
    bypass: 'deny',
  },
];

/** just-bash's awk opens a `var=value` operand as a file; `a=/../.env` is .env once `..` is taken. */
export const AWK_ASSIGNMENT_OPERANDS: BypassCase[] = [
  {
    what: 'awk: an operand a=/../.env is the file .env',
    command: "awk '{ print }' 'a=/../.env'",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk: an operand x=/../secrets/key.pem',
    command: "awk '{ print }' 'x=/../secrets/key.pem'",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk -v n=1 with an operand n=/../.env after a file',
    command: "awk -v n=1 '{ print }' notes.txt 'n=/../.env'",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk - PROGRAM FS=/../secrets/key.pem',
    command: "awk - '{ print }' 'FS=/../secrets/key.pem'",
    effect: LEAK,
    bypass: 'deny',
  },
];

/** grep's pattern may be `-`: the analysis drops `-` (standard input) before it takes the pattern. */
export const DASH_PATTERN: BypassCase[] = [
  { what: 'grep - FILE: the pattern is -', command: 'grep - .env', effect: LEAK, bypass: 'deny' },
  {
    what: 'egrep - FILE of a denied folder',
    command: 'egrep - secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  { what: 'grep -- - FILE', command: 'grep -- - .env', effect: LEAK, bypass: 'deny' },
  {
    what: "just-bash's head reads a file named -, a link to a denied file",
    setup: ['ln -s /home/user/project/.env ./-'],
    command: 'head -',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: "just-bash's tail -n 1 - reads the file - too",
    setup: ['ln -s /home/user/project/secrets/key.pem ./-'],
    command: 'tail -n 1 -',
    effect: LEAK,
    bypass: 'deny',
  },
];

/**
 * just-bash's cp and mv put a source written with a trailing slash at DIR/SOURCE-as-written (not
 * DIR/its last name): `cp -r ../config/ t` writes t/../config, the workspace's config.
 */
export const TRAILING_SLASH_SOURCE: BypassCase[] = [
  {
    what: 'cp -r ../config/ t overwrites config/',
    command: 'mkdir -p ../config && echo DB=evil > ../config/prod.env && mkdir -p t && cp -r ../config/ t',
    rules: { deny: ['Edit(/config/**)'] },
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'mv ../config/ t replaces config/',
    command: 'mkdir -p ../config && echo DB=evil > ../config/prod.env && mkdir -p t && mv ../config/ t',
    rules: { deny: ['Edit(/config/**)'] },
    effect: PROD,
    bypass: 'deny',
  },
];

/** /dev/fd/N, /dev/stdin, /dev/null... are plain files in just-bash: a link there is followed. */
export const DEV_FILES: BypassCase[] = [
  {
    what: 'a redirection from /dev/fd/8, a link to a denied file',
    setup: ['ln -s /home/user/project/.env /dev/fd/8'],
    command: 'cat < /dev/fd/8',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a redirection from /dev/stdin, replaced by a link',
    setup: ['rm -f /dev/stdin && ln -s /home/user/project/secrets/key.pem /dev/stdin'],
    command: 'head -1 < /dev/stdin',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'the everyday < /dev/null, replaced by a link',
    setup: ['rm -f /dev/null && ln -s /home/user/project/.env /dev/null'],
    command: 'grep -c x notes.txt; cat < /dev/null',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'exec opens /dev/fd/8, a link to a denied file, for a later read',
    setup: ['ln -s /home/user/project/.env /dev/fd/8'],
    command: 'exec 3< /dev/fd/8; cat <&3',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: '<> opens /dev/stdout as a file, replaced by a link',
    setup: ['rm -f /dev/stdout && ln -s /home/user/project/.env /dev/stdout'],
    command: 'cat <> /dev/stdout',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a write to /dev/fd/7 creates a file outside the workspace (plan mode too)',
    command: 'echo x > /dev/fd/7',
    effect: { created: '/dev/fd/7' },
  },
  {
    what: 'a here-string copied to /dev/fd/9 creates a file',
    command: 'cat <<< hi > /dev/fd/9',
    effect: { created: '/dev/fd/9' },
  },
];

/**
 * npm runs package.json's scripts (run, test, install's lifecycle scripts) through just-bash: code the
 * line does not show, which bypassPermissions let run although deny rules name what it does. The
 * scripts are read when the call is checked (a rule that names what one runs denies it); a line that
 * writes package.json first runs scripts no one can read yet (it asks).
 */
const PKG = (scripts: Record<string, string>) =>
  `echo '${JSON.stringify({ name: 'demo', scripts })}' > package.json`;

export const NPM_SCRIPTS: BypassCase[] = [
  {
    what: 'a test script written in the line runs rm',
    command: `${PKG({ test: 'rm -f src/app.ts' })} && npm test`,
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'npm run NAME runs a script that runs rm',
    setup: [PKG({ build: 'rm -f src/app.ts' })],
    command: 'npm run build',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'npm test runs a pretest script that reads a denied file',
    setup: [PKG({ pretest: 'cat .env', test: 'echo ok' })],
    command: 'npm test',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'npm install runs a postinstall script that reads a denied folder',
    setup: [PKG({ postinstall: 'cat secrets/key.pem' })],
    command: 'npm install',
    effect: LEAK,
    bypass: 'deny',
  },
];
