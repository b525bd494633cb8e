/**
 * Cases: commands the line runs more than once, or later, from a directory it moved to meanwhile (loop
 * passes after a `cd`, a function or alias called after a `cd`, a trap at exit); files opened for
 * reading and writing (`<>`); whole directories moved (`mv` takes everything below, shown under the new
 * name).
 */
import type { BypassCase } from './harness.ts';

const LEAK = { leaks: true } as const;
const PROD = { changed: 'config/prod.env' };
const APP = { removed: 'src/app.ts' };

/** A loop's second pass runs from where the first one's `cd` left the shell. */
export const LOOP_PASSES: BypassCase[] = [
  {
    what: 'for: cat, then cd into the denied folder',
    command: 'for i in 1 2; do cat key.pem; cd secrets; done',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'until: the condition reads after the body moved',
    command: 'until cat key.pem; do cd secrets; done',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'while !: the condition reads after the body moved',
    command: 'while ! cat key.pem; do cd secrets; done',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'for: a relative path up, after cd into src',
    command: 'for i in 1 2; do cat ../.env; cd src; done',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'for: a write, then cd into the denied folder',
    command: 'for i in a b; do echo x > prod.env; cd config; done',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'for (( )): cat, then cd',
    command: 'for ((i = 0; i < 2; i++)); do cat key.pem; cd secrets; done',
    effect: LEAK,
    bypass: 'ask',
  },
];

/** A function or alias runs its body where it is called, not where it was defined. */
export const CALLED_LATER: BypassCase[] = [
  {
    what: 'function defined, cd, called',
    command: 'f() { cat key.pem; }; cd secrets; f',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'function that moves the shell, then a read',
    command: 'f() { cd secrets; }; f; cat key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'function writing, called from the denied folder',
    command: 'f() { echo x > prod.env; }; cd config; f',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'function keyword form, called twice from two places',
    command: 'function g { cat key.pem; }; g; cd secrets; g',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'alias defined, cd, used',
    command: "shopt -s expand_aliases\nalias k='cat key.pem'\ncd secrets\nk",
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'trap at exit, then cd',
    command: "trap 'cat key.pem' EXIT; cd secrets",
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** `<>` opens a file for reading and writing: what reads standard input reads the file. */
export const READ_WRITE_OPEN: BypassCase[] = [
  { what: 'cat <> .env', command: 'cat <> .env', effect: LEAK, bypass: 'deny' },
  { what: 'head <> .env', command: 'head -1 <> .env', effect: LEAK, bypass: 'deny' },
  { what: '(cat) <> key.pem', command: '(cat) <> secrets/key.pem', effect: LEAK, bypass: 'deny' },
  { what: 'fd 5 <> then <&5', command: 'cat 5<>.env <&5', effect: LEAK, bypass: 'deny' },
  { what: 'read -r <>', command: 'read -r l <> .env; echo "$l"', effect: LEAK, bypass: 'deny' },
];

/** `mv` of a directory moves everything below it. */
export const MOVED_TREES: BypassCase[] = [
  {
    what: 'mv a denied folder, then read it under the new name',
    command: 'mv secrets x && cat x/key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'mv a folder whose files may not be edited',
    command: 'mv src s2',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'mv a folder whose files may not be edited out of the workspace',
    command: 'mv config /tmp/c',
    effect: { removed: 'config/prod.env' },
    bypass: 'deny',
  },
  {
    what: 'mv the whole workspace away (its .git with it)',
    command: 'mv ../project /tmp/p',
    rules: {},
    effect: { removed: '.git/HEAD' },
    bypass: 'ask',
  },
];

/**
 * Spellings GNU tools read that the analysis missed, and files named inside other text. The sandbox's
 * own tools reject most of these spellings (bashOnly); GNU's accept them.
 */
export const LATER_SPELLINGS: BypassCase[] = [
  { what: 'grep -d recurse', command: 'grep -d recurse sk .', effect: LEAK, bypass: 'ask', bashOnly: true },
  {
    what: 'grep --directories=rec',
    command: 'grep --directories=rec sk .',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'grep --recur (abbreviated)',
    command: 'grep --recur sk .',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'cp --recu (abbreviated) a denied folder',
    command: 'cp --recu secrets x && cat x/key.pem',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -C DIR: files found from DIR',
    command: 'env -C secrets cat key.pem',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'diff of two directories (file by file)',
    command: 'diff e .',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'git diff --no-index of a directory',
    command: 'git diff --no-index e secrets',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'awk: ARGV changed in BEGIN',
    command: `awk 'BEGIN{ARGV[1]=".env";ARGC=2}{print}' notes.txt`,
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'awk: getline into a field',
    command: `awk '{getline $1 < ".env"; print}' notes.txt`,
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'awk: print to a concatenated name',
    command: `awk 'BEGIN{print "x" > "config/" "prod.env"}'`,
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tee --output-error then a file',
    command: 'tee --output-error config/prod.env < notes.txt',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'declare with an array value holding a substitution',
    command: 'declare -a a=($(rm -f src/app.ts))',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'a path inside an unknown program’s text',
    command: `sqlite3 :memory: "select writefile('config/prod.env','x')"`,
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'vim -c with a command',
    command: "vim -c '!rm src/app.ts' -c q",
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** Text on the standard input of a program nobody reads may be code it runs. */
export const STDIN_CODE: BypassCase[] = [
  {
    what: 'at with a here-string',
    command: "at now <<< 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'make reading its makefile from a here-doc',
    command: 'make -f - <<EOF\nall:\n\trm -f src/app.ts\nEOF',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
];
