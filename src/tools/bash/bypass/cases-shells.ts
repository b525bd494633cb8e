/**
 * Cases: commands behind wrappers, shells fed by here-docs, writes through symlinks, and look-alike
 * Unicode in commands and paths.
 */
import type { BypassCase } from './harness.ts';

const PROD = { changed: 'config/prod.env' };
const APP = { removed: 'src/app.ts' };

export const WRAPPERS: BypassCase[] = [
  { what: 'env', command: 'env sort -oconfig/prod.env notes.txt', effect: PROD, bypass: 'deny' },
  {
    what: 'env with a variable',
    command: 'env A=1 sed -n "w config/prod.env" notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  { what: 'command', command: 'command sort -oconfig/prod.env notes.txt', effect: PROD, bypass: 'deny' },
  { what: 'builtin echo', command: 'builtin echo x > config/prod.env', effect: PROD, bypass: 'deny' },
  { what: 'exec', command: 'exec sort -oconfig/prod.env notes.txt', effect: PROD, bypass: 'deny' },
  {
    what: 'timeout',
    command: "timeout 5 sed -n 'w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  { what: 'time keyword', command: 'time sort -oconfig/prod.env notes.txt', effect: PROD, bypass: 'deny' },
  { what: 'nice', command: 'nice -n 5 rm -f src/app.ts', effect: APP, bypass: 'deny', bashOnly: true },
  { what: 'nohup', command: 'nohup rm -f src/app.ts', effect: APP, bypass: 'deny', bashOnly: true },
  { what: 'sh -c', command: "sh -c 'sort -oconfig/prod.env notes.txt'", effect: PROD, bypass: 'deny' },
  { what: 'bash -c', command: 'bash -c "echo x > config/prod.env"', effect: PROD, bypass: 'deny' },
  { what: 'timeout bash -c', command: "timeout 9 bash -c 'rm -f src/app.ts'", effect: APP, bypass: 'deny' },
  { what: 'xargs with the program', command: 'echo src/app.ts | xargs rm -f', effect: APP, bypass: 'deny' },
  {
    what: 'xargs with a run-time option',
    command: 'echo -oconfig/prod.env | xargs sort notes.txt',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'find -exec',
    command: 'find src -name app.ts -exec rm -f {} +',
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'stacked wrappers',
    command: 'command env A=1 timeout 5 rm -f src/app.ts',
    effect: APP,
    bypass: 'deny',
  },
];

export const HERE_DOCS: BypassCase[] = [
  {
    what: 'here-doc to bash',
    command: 'bash <<EOF\nsort -oconfig/prod.env notes.txt\nEOF',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'quoted here-doc to sh',
    command: "sh <<'EOF'\necho x > config/prod.env\nEOF",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'here-doc into a denied file',
    command: 'cat <<EOF > config/prod.env\nX=1\nEOF',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'substitution inside a here-doc',
    command: 'cat <<EOF\n$(echo x > config/prod.env)\nEOF',
    effect: PROD,
    bypass: 'deny',
  },
  { what: 'here-string to bash', command: "bash <<< 'rm -f src/app.ts'", effect: APP, bypass: 'deny' },
  {
    what: 'here-doc with a session variable to sh',
    setup: ["export CMD='rm -f src/app.ts'"],
    command: 'sh <<EOF\n$CMD\nEOF',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'here-doc with a tab-stripped delimiter',
    command: 'bash <<-EOF\n\trm -f src/app.ts\n\tEOF',
    effect: APP,
    bypass: 'deny',
  },
];

// just-bash reads through links but writes replace them, so these effects are bash's (the engine
// side, matching the real path through the sandbox's realpath, is checked all the same).
export const SYMLINKS: BypassCase[] = [
  {
    what: 'a link made earlier',
    setup: ['ln -s config c'],
    command: 'echo x > c/prod.env',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sed writes through a link made earlier',
    setup: ['ln -s config c'],
    command: "sed -n 'w c/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sort -o through a nested link',
    setup: ['ln -s /home/user/project/config src/lnk'],
    command: 'sort -osrc/lnk/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'a link to the file itself',
    setup: ['ln -s config/prod.env p'],
    command: 'echo x > p',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'a link into .git (protected)',
    setup: ['ln -s .git g'],
    rules: {},
    command: 'echo x > g/config',
    effect: { changed: '.git/config' },
    bypass: 'ask',
    bashOnly: true,
  },
  // Reads do go through links in just-bash: the denied secret really leaks without the engine. A link
  // to a denied folder counts as reading all of it.
  {
    what: 'cat through a link made earlier',
    setup: ['ln -s secrets s'],
    command: 'cat s/key.pem',
    effect: { leaks: true },
    bypass: 'deny',
  },
  {
    what: 'head of a link to .env',
    setup: ['ln -s .env e'],
    command: 'head -n 1 e',
    effect: { leaks: true },
    bypass: 'deny',
  },
  {
    what: 'grep through a linked folder',
    setup: ['ln -s secrets s'],
    command: 'grep -h sk s/*',
    effect: { leaks: true },
    bypass: 'deny',
  },
  {
    what: 'link and read in one line',
    command: 'ln -s secrets s && cat s/key.pem',
    effect: { leaks: true },
    bypass: 'deny',
  },
  // The link does not exist yet when the command is checked: the write through it is read as where it leads.
  {
    what: 'link and write in one line',
    command: 'ln -s config c && echo x > c/prod.env',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];

export const LOOK_ALIKES: BypassCase[] = [
  // Another program that only looks like the denied one: it may only ask.
  {
    what: 'Cyrillic letter in the program',
    command: 'rм -f src/app.ts',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  { what: 'full-width letters', command: 'ｒｍ -f src/app.ts', effect: APP, bypass: 'ask', bashOnly: true },
  {
    what: 'zero-width space in the program',
    command: 'r\u200bm -f src/app.ts',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  { what: 'upper case program', command: 'RM -f src/app.ts', effect: APP, bypass: 'ask', bashOnly: true },
  // An allow rule for a program never allows one that only looks like it.
  {
    what: 'look-alike of an allowed program',
    rules: { allow: ['Bash(sort:*)'], deny: ['Edit(/src/**)'] },
    command: 'ѕort -oconfig/prod.env notes.txt',
    effect: PROD,
    bashOnly: true,
  },
  {
    what: 'zero-width inside an allowed command',
    rules: { allow: ['Bash(git status:*)'] },
    command: 'git status\u200b; echo x > config/prod.env',
    effect: PROD,
  },
  // A path with a look-alike letter is another file: written inside a denied folder all the same.
  {
    what: 'look-alike file name in a denied folder',
    command: 'echo x > config/prоd.env',
    effect: { created: 'config/prоd.env' },
    bypass: 'deny',
  },
];
