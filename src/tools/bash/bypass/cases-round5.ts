/**
 * Cases found by red-team round 5 (after plain variables, function definitions, directory operands,
 * the second reading of options and acceptEdits' file commands changed): a function named like a
 * wrapper, the function bash runs for a missing program, an array subscript evaluated as arithmetic,
 * two-word options, sed's backup suffix, git comparing the file system by itself, a git pathspec naming a
 * folder, links moved or copied, `..` after a link, more paths than are followed to where they lead.
 */
import { APP, type BypassCase, LEAK, NO_RULES } from './harness.ts';

/** Functions and variables of the script that change what later commands do. */
export const SCRIPT_NAMES: BypassCase[] = [
  {
    what: 'a function named like a wrapper, called after a cd',
    command: 'nice() { cat key.pem; }; cd secrets; nice ls',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a function named timeout',
    command: 'timeout() { cat key.pem; }; cd secrets; timeout 5 ls',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a function named like a wrapper writes a protected file',
    command: 'nice() { echo pwned > HEAD; }; cd .git; nice true',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'command_not_found_handle runs for a missing program',
    command: 'command_not_found_handle() { cat key.pem; }; cd secrets; zzz-not-a-program',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'an array subscript evaluates a variable holding a substitution',
    command: "x='b[$(rm -f src/app.ts)]'; a=([x]=1)",
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** Options that take two words, or a value that names a path. */
export const OPTION_WORDS: BypassCase[] = [
  { what: 'jq --rawfile NAME FILE', command: "jq -n --rawfile a .env '$a'", effect: LEAK, bypass: 'deny' },
  {
    what: 'jq --rawfile of a denied folder’s file',
    command: "jq -n --rawfile a secrets/key.pem '$a'",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed -i with a backup suffix naming a protected folder',
    setup: ["printf 'pwned\\n' > HEAD"],
    command: "sed -i'.git/*' s/x/y/ HEAD",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tree --fromfile is a flag: -o writes',
    command: 'tree --fromfile -o .git/x notes.txt',
    ...NO_RULES,
    effect: { created: '.git/x' },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tar --backup takes no separate value',
    command: 'tar -cf - --backup secrets/key.pem | tar -xOf -',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'strings @FILE reads its arguments from FILE',
    command: 'strings @.env',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'cp --parents writes the source’s whole path below the target',
    command: 'mkdir d && cp --parents notes.txt d/.git',
    ...NO_RULES,
    effect: { created: 'd/.git/notes.txt' },
    bypass: 'ask',
    bashOnly: true,
  },
];

/** git comparing the file system, or printing a folder's history. */
export const GIT_TREES: BypassCase[] = [
  {
    what: 'git diff of a path outside the working tree compares the file system',
    command: 'git diff /mnt secrets',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'git log -p of a folder pathspec',
    command: 'git log -p -- secrets',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'git log -L of a denied file',
    command: 'git log -L1,1:.env',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
];

/** Links whose place, or whose `..`, the text of a path does not show. */
export const LINK_PLACES: BypassCase[] = [
  {
    what: 'a link made in the line to a decoy, moved to where its text leads to the secret',
    command:
      'mkdir -p d/e d/secrets && touch d/secrets/key.pem && ln -s ../secrets/key.pem d/e/k && mv d/e/k d/k && cat d/k',
    rules: { deny: ['Read(/secrets/**)'] },
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'a link made in the line, copied with -P to where its text leads to the secret',
    command: 'mkdir -p d/e && ln -s ../secrets/key.pem d/e/k && cp -P d/e/k d/k && cat d/k',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: '.. after an existing link climbs from where it leads',
    setup: ['mkdir -p d/e && ln -s d/e l'],
    command: 'cat l/../../secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'a link past the paths whose links are followed',
    setup: ['ln -s secrets l'],
    command: `cat ${Array.from({ length: 300 }, (_, k) => `n${k}`).join(' ')} l/key.pem 2>/dev/null`,
    effect: LEAK,
    bypass: 'ask',
  },
];
