/**
 * Cases: files a command writes without a redirection (option values glued to the flag, operands,
 * sed and awk programs), and paths whose meaning the session changed (HOME, cd, CDPATH).
 */
import type { BypassCase } from './harness.ts';

const PROD = { changed: 'config/prod.env' };
const GIT = { changed: '.git/config' };

export const OPTION_VALUES: BypassCase[] = [
  { what: 'sort -o glued', command: 'sort -oconfig/prod.env package.json', effect: PROD, bypass: 'deny' },
  {
    what: 'sort --output=',
    command: 'sort --output=config/prod.env package.json',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sort -o after the operand',
    command: 'sort package.json -o config/prod.env',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sort -o in a cluster',
    command: 'sort -ro config/prod.env package.json',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sort --out= (abbreviated)',
    command: 'sort --out=config/prod.env package.json',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  // A protected path asks even in bypassPermissions mode, with no rule at all.
  {
    what: 'sort -o onto .git/config',
    command: 'sort -o.git/config package.json',
    rules: {},
    effect: GIT,
    bypass: 'ask',
  },
  {
    what: 'sort --output onto .git/config',
    command: 'sort --output .git/config notes.txt',
    rules: {},
    effect: GIT,
    bypass: 'ask',
  },
  { what: 'tee -a', command: 'tee -a config/prod.env < notes.txt', effect: PROD, bypass: 'deny' },
  {
    what: 'uniq IN OUT',
    command: 'uniq notes.txt config/prod.env',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  { what: 'cp onto', command: 'cp notes.txt config/prod.env', effect: PROD, bypass: 'deny' },
  // `time` alone is bash's keyword; `command time` is the program, whose -o writes a file.
  {
    what: 'time -o',
    command: 'command time -o config/prod.env ls',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];

export const PROGRAM_WRITES: BypassCase[] = [
  { what: "sed -n 'w FILE'", command: "sed -n 'w config/prod.env' notes.txt", effect: PROD, bypass: 'deny' },
  {
    what: 'sed s///w FILE',
    command: "sed 's/a/b/w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed -e p -e w',
    command: "sed -e p -e 'w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  { what: 'sed /re/w', command: "sed -n '/alpha/w config/prod.env' notes.txt", effect: PROD, bypass: 'deny' },
  {
    what: 'sed w in a block',
    command: "sed -n '1{w config/prod.env\n}' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  { what: 'sed -i', command: "sed -i 's/DB/X/' config/prod.env", effect: PROD, bypass: 'deny' },
  {
    what: 'awk print > FILE',
    command: `awk '{print > "config/prod.env"}' notes.txt`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk print >> FILE',
    command: `awk '{print >> "config/prod.env"}' notes.txt`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk printf > FILE',
    command: `awk '{printf "%s", $0 > "config/prod.env"}' notes.txt`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk print > a variable',
    command: `awk 'BEGIN{f="config/prod.env"} {print > f}' notes.txt`,
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'awk -v target',
    command: "awk -v f=config/prod.env '{print > f}' notes.txt",
    effect: PROD,
    bypass: 'ask',
  },
];

/** The session's HOME, set by an earlier call. */
const HOME_CONFIG = 'export HOME=/home/user/project/config';

export const SESSION_PATHS: BypassCase[] = [
  {
    what: '~ after export HOME',
    setup: [HOME_CONFIG],
    command: 'echo x > ~/prod.env',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'HOME set in the line',
    command: 'HOME=/home/user/project/config; echo x > ~/prod.env',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'export HOME in the line',
    command: 'export HOME=/home/user/project/config && echo x > ~/prod.env',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'bare cd to the session HOME',
    setup: [HOME_CONFIG],
    command: 'cd && echo x > prod.env',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'cd ~ to the session HOME',
    setup: [HOME_CONFIG],
    command: 'cd ~ && sort -oprod.env ../notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'HOME in a here-string',
    setup: [HOME_CONFIG],
    command: 'sed -n "w $HOME/prod.env" <<< x',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'CDPATH from the session',
    setup: ['cd src', 'export CDPATH=/home/user/project'],
    command: 'cd config && echo x > prod.env',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'CDPATH set in the line',
    setup: ['cd src'],
    command: 'CDPATH=/home/user/project; cd config && echo x > prod.env',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'HOME into .git (protected)',
    setup: ['export HOME=/home/user/project/.git'],
    rules: {},
    command: 'echo x > ~/config',
    effect: GIT,
    bypass: 'ask',
  },
  // A program name follows the session's PATH: a script of the workspace may stand in for ls.
  {
    what: 'PATH from the session shadows a read-only program',
    setup: [
      "mkdir -p bin && printf 'echo pwned > src/app.ts\\n' > bin/ls && chmod +x bin/ls",
      'export PATH=/home/user/project/bin:$PATH',
    ],
    command: 'ls',
    effect: { changed: 'src/app.ts' },
    bypass: 'ask',
  },
  // A nested shell first runs the file BASH_ENV names.
  {
    what: 'BASH_ENV from the session',
    setup: ["echo 'echo pwned > src/app.ts' > hook.sh", 'export BASH_ENV=/home/user/project/hook.sh'],
    command: "bash -c 'ls'",
    effect: { changed: 'src/app.ts' },
    bypass: 'ask',
    bashOnly: true,
  },
  // acceptEdits allows workspace writes: a HOME outside the workspace must not pass for the workspace.
  {
    what: '~ outside the workspace',
    setup: ['export HOME=/tmp'],
    rules: {},
    command: 'echo x > ~/escape.txt',
    effect: { created: '/tmp/escape.txt' },
  },
  {
    what: 'cd outside, then write',
    setup: ['export HOME=/tmp'],
    rules: {},
    command: 'cd && echo x > escape.txt',
    effect: { created: '/tmp/escape.txt' },
  },
];

/** Protected paths reached without being named: they ask even in bypassPermissions mode. */
export const PROTECTED: BypassCase[] = [
  {
    what: 'a glob that expands to .git',
    command: 'echo x > .gi?/config',
    rules: {},
    effect: GIT,
    bypass: 'ask',
  },
  {
    what: 'a glob of dot files',
    command: 'sort -o .g*/config notes.txt',
    rules: {},
    effect: GIT,
    bypass: 'ask',
  },
  {
    what: 'deleting .git by a glob',
    command: 'rm -rf /home/user/project/.g*',
    rules: {},
    effect: { removed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'deleting the whole workspace',
    command: 'rm -rf /home/user/project',
    rules: {},
    effect: { removed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'a case-folded name',
    command: 'echo x > .GIT/config',
    rules: {},
    effect: { created: '.GIT/config' },
    bypass: 'ask',
  },
];

/**
 * Files a command reads without naming them: a recursive search given no file searches the working
 * directory, denied files included (rg always; GNU grep -r since 2.11). And files named where the
 * analysis once did not look: operands of git's read-only subcommands (there is no git in just-bash,
 * so those cases assert only that nothing ran).
 */
export const IMPLICIT_PATHS: BypassCase[] = [
  { what: 'rg with no path reads secrets/', command: 'rg sk-live', effect: { leaks: true }, bypass: 'ask' },
  {
    what: 'rg --hidden with no path reads .env',
    command: 'rg --hidden TOKEN',
    effect: { leaks: true },
    bypass: 'ask',
  },
  { what: 'rg -uu with no path reads .env', command: 'rg -uu TOKEN', effect: { leaks: true }, bypass: 'ask' },
  {
    what: 'rg -e PATTERN with no path',
    command: 'rg -e sk-live -i',
    effect: { leaks: true },
    bypass: 'ask',
  },
  {
    what: 'grep -r with no path (GNU grep searches the cwd)',
    command: 'grep -r sk-live',
    effect: { leaks: true },
    bypass: 'ask',
    bashOnly: true,
  },
  ...['git blame .env', 'git show HEAD:.env', 'git log -p -- secrets/key.pem'].map(
    (command): BypassCase => ({
      what: command,
      command,
      effect: { leaks: true },
      bypass: 'ask',
      bashOnly: true,
    }),
  ),
];
