/**
 * Cases: a later red-team round. Option spellings a wrapper reads the way getopt does (env's clusters
 * and abbreviated long options around -S), sed labels followed by a command on the same line, and
 * `uniq - OUT` (standard input in, OUT written).
 */
import type { BypassCase } from './harness.ts';

const PROD = { changed: 'config/prod.env' };
const APP = { removed: 'src/app.ts' };

/** GNU env reads `-iS TEXT`, `-vS TEXT`, `--split-s=TEXT` as -S: the text is a command line (just-bash's env has no -S). */
export const ENV_SPELLINGS: BypassCase[] = [
  {
    what: 'env -iS (cluster)',
    command: "env -iS 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -vS (debug, then -S)',
    command: "env -vS 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -u NAME -S',
    command: "env -u X -S 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env --split-s= (abbreviated)',
    command: "env --split-s='rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env --s TEXT (shortest prefix)',
    command: "env --s 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -S glued with a write',
    command: "env -iS'sort -oconfig/prod.env notes.txt'",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];

/** A sed label ends at a blank: `:x w FILE` is a label and a `w` command (GNU sed and just-bash). */
export const SED_LABELS: BypassCase[] = [
  {
    what: 'sed :label then w',
    command: "sed -n ':x w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed branch to a label then w',
    command: "sed -n 'bx;:x w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed b LABEL then w',
    command: "sed -n 'bx w config/prod.env\n:x' notes.txt",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sed v VERSION then w',
    command: "sed -n 'v4.2 w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sed t LABEL then w in a block',
    command: "sed -n '1{:a w config/prod.env\n}' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
];

/** `uniq - OUT`: GNU uniq reads standard input and writes OUT (just-bash's uniq reads both). */
export const OPERAND_WRITES: BypassCase[] = [
  {
    what: 'uniq - OUT',
    command: 'uniq - config/prod.env < notes.txt',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'uniq -c -- - OUT',
    command: 'uniq -c -- - config/prod.env < notes.txt',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * Wrappers' abbreviated long options (getopt_long takes any unambiguous prefix): the value they take
 * was read as the program, so the denied program was only "maybe" there, or the file not seen.
 */
export const WRAPPER_SPELLINGS: BypassCase[] = [
  {
    what: 'time --out= (abbreviated --output)',
    command: 'command time --out=config/prod.env ls',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'timeout --sig VALUE (abbreviated --signal)',
    command: 'timeout --sig KILL 5 rm -f src/app.ts',
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'timeout --kill VALUE (abbreviated --kill-after)',
    command: 'timeout --kill 1 5 rm -f src/app.ts',
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'xargs --max-a VALUE (abbreviated --max-args)',
    command: 'xargs --max-a 1 rm -f <<< src/app.ts',
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * git takes programs to run and files to write from the session's environment: a read-only git
 * command then runs them (there is no git in just-bash: the decision alone is checked).
 */
export const GIT_ENVIRONMENT: BypassCase[] = [
  {
    what: 'GIT_EXTERNAL_DIFF from the session runs on git diff',
    setup: ["export GIT_EXTERNAL_DIFF='rm -f src/app.ts'"],
    command: 'git diff',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'core.fsmonitor from GIT_CONFIG_* runs on git status',
    setup: [
      "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f src/app.ts; false'",
    ],
    command: 'git status',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'GIT_TRACE from the session writes a file',
    setup: ['export GIT_TRACE=/home/user/project/config/prod.env'],
    command: 'git log -1',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'XDG_CONFIG_HOME from the session points git at a workspace config',
    setup: [
      "mkdir -p cfg/git && printf '[core]\\n\\tfsmonitor = rm -f src/app.ts\\n' > cfg/git/config",
      'export XDG_CONFIG_HOME=/home/user/project/cfg',
    ],
    command: 'git status',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** Programs configured by the session or the line to run code their words do not show (bash only). */
export const CONFIGURED_PROGRAMS: BypassCase[] = [
  {
    what: 'git -c alias.NAME=push runs a denied subcommand under another name',
    command: 'git -c alias.p=push p origin main',
    effect: { changed: 'README.md' },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'git --config-env=alias.NAME=VAR',
    setup: ['export V=push'],
    command: 'git --config-env=alias.p=V p',
    effect: { changed: 'README.md' },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'LD_PRELOAD from the session loads a library into ls',
    setup: ['export LD_PRELOAD=/home/user/project/hook.so'],
    command: 'ls',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'RIPGREP_CONFIG_PATH from the session gives rg --pre',
    setup: [
      "echo 'rm -f src/app.ts' > pre.sh",
      "echo '--pre=/home/user/project/pre.sh' > rg.conf",
      'export RIPGREP_CONFIG_PATH=/home/user/project/rg.conf',
    ],
    // Without Read rules: those alone make a recursive search ask.
    rules: { deny: ['Bash(rm:*)'] },
    command: 'rg alpha notes.txt',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
];

/**
 * A program named by its path in a system bin directory is that program: `/bin/sed`'s `w`, `/bin/sh`'s
 * here-string, `/usr/bin/env rm` were read as an unknown program, which bypassPermissions mode ran past
 * the deny rules (just-bash runs them as sed, sh, env).
 */
export const PROGRAM_PATHS: BypassCase[] = [
  {
    what: '/bin/sh with a here-string',
    command: "/bin/sh <<< 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
  },
  {
    what: '/bin/sed w FILE',
    command: "/bin/sed -n 'w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: '//bin//sed (doubled slashes)',
    command: "//bin//sed -n 'w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: '/usr/bin/sort -o glued',
    command: '/usr/bin/sort -oconfig/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  { what: '/usr/bin/env rm', command: '/usr/bin/env rm -f src/app.ts', effect: APP, bypass: 'deny' },
  { what: '/usr/bin/xargs rm', command: '/usr/bin/xargs rm -f <<< src/app.ts', effect: APP, bypass: 'deny' },
  {
    what: '/usr/bin/find -delete',
    command: '/usr/bin/find src -name app.ts -delete',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: '/usr/bin/awk system()',
    command: `/usr/bin/awk 'BEGIN{system("rm -f src/app.ts")}'`,
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * Writes into a directory a rule denies, by naming only the directory: `cp FILE DIR` writes DIR/FILE,
 * and a program the analysis does not know may write anywhere below a directory it is given.
 */
export const INTO_DIRECTORIES: BypassCase[] = [
  {
    what: 'cp FILE DIR',
    command: 'cp notes.txt config',
    effect: { created: 'config/notes.txt' },
    bypass: 'deny',
  },
  {
    what: 'mv FILE DIR/',
    command: 'mv notes.txt config/',
    effect: { created: 'config/notes.txt' },
    bypass: 'deny',
  },
  {
    what: 'cp -t DIR FILE',
    command: 'cp -t config notes.txt',
    effect: { created: 'config/notes.txt' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'cp onto a file by its directory (overwrite)',
    setup: ['cp config/prod.env /tmp/prod.env', "echo 'DB=evil' > /tmp/prod.env"],
    command: 'cp /tmp/prod.env config',
    effect: { changed: 'config/prod.env' },
    bypass: 'deny',
  },
  {
    what: 'tar -x into a denied directory',
    // just-bash has no archive support here: the decision alone is checked.
    command: 'tar -xf /tmp/x.tar -C config',
    effect: { created: 'config/notes.txt' },
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * Interpreters running code the line does not show, as `sh ./cleanup.sh` does: a script file, and
 * just-bash's own JavaScript runner with inline code (no interpreter in this sandbox: decisions only).
 */
export const INTERPRETED: BypassCase[] = [
  {
    what: 'python3 running a script file',
    setup: ['echo \'import shutil; shutil.rmtree("src")\' > cleanup.py'],
    command: 'python3 cleanup.py',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'node running a script file',
    setup: ['echo \'require("fs").rmSync("src", { recursive: true })\' > cleanup.js'],
    command: 'node ./cleanup.js',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'js-exec -c inline code',
    command: `js-exec -c "require('fs').writeFileSync('config/prod.env', 'x')"`,
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** Kernel links to a process's cwd and root lead anywhere (Linux bash; just-bash has no such links). */
export const PROC_LINKS: BypassCase[] = [
  {
    what: 'the cwd through /proc/self/cwd',
    command: 'cat /proc/self/cwd/.env',
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'the root through /proc/self/root',
    command: 'cat /proc/self/root/home/user/project/secrets/key.pem',
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'a write through /proc/$$/cwd',
    command: 'echo x > /proc/1/cwd/config/prod.env',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
];

/**
 * Brace expansion: `{a,b}` makes several words (just-bash expands it as bash does). The analysis crashed
 * on it (every such line counted as unparsed); analysed now, a word in braces is a path known only at
 * run time, so a rule that may match it still asks or denies.
 */
export const BRACES: BypassCase[] = [
  {
    what: 'a denied read through braces',
    command: 'cat {.env,README.md}',
    effect: { leaks: true },
    bypass: 'ask',
  },
  {
    what: 'a denied write through braces',
    command: 'echo x | tee {config/prod.env,notes.txt}',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'a denied program inside a brace item',
    command: 'echo {$(rm -f src/app.ts),b}',
    effect: APP,
    bypass: 'deny',
  },
];

/**
 * Variables set by the line itself that make a program run code its words do not show (the session's
 * own values are in GIT_ENVIRONMENT and CONFIGURED_PROGRAMS): the command asks past the deny rules.
 */
const lineVariable = (what: string, command: string): BypassCase => ({
  what,
  command,
  rules: { deny: ['Bash(rm:*)'] },
  effect: APP,
  bypass: 'ask',
  bashOnly: true,
});

export const LINE_VARIABLES: BypassCase[] = [
  lineVariable('GIT_EXTERNAL_DIFF set for git diff', "GIT_EXTERNAL_DIFF='rm -f src/app.ts' git diff"),
  lineVariable(
    'core.fsmonitor through env GIT_CONFIG_*',
    "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -f src/app.ts' git status",
  ),
  lineVariable('LD_PRELOAD set for ls', 'LD_PRELOAD=/tmp/evil.so ls'),
  lineVariable('LD_PRELOAD exported earlier in the line', 'export LD_PRELOAD=/tmp/evil.so; ls'),
  lineVariable('NODE_OPTIONS --require', "NODE_OPTIONS='--require ./evil.js' node --version"),
  lineVariable('LESSOPEN input preprocessor', "LESSOPEN='|rm -f src/app.ts; cat %s' less notes.txt"),
  lineVariable(
    'XDG_CONFIG_HOME pointing git at another configuration',
    'XDG_CONFIG_HOME=/tmp/cfg git log -1',
  ),
];
