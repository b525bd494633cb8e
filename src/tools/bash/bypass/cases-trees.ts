/**
 * Cases: a directory given to a program that goes through the tree below it, where only the file system
 * tells it is a directory (an unknown program's operand, `npx rimraf src`; a diff operand whose name
 * looks like a file's, `vault.d`). The engine looks at the sandbox when it checks.
 */
import { APP, type BypassCase, LEAK } from './harness.ts';

/** A folder of secrets whose name does not look like a folder's, and a rule about what is in it. */
const VAULT = {
  setup: ['mkdir vault.d && cp secrets/key.pem vault.d/notes.txt'],
  rules: { deny: ['Read(/vault.d/**)'] },
};

export const DIRECTORY_OPERANDS: BypassCase[] = [
  {
    what: 'npx rimraf of a folder the rules keep',
    command: 'npx rimraf src',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'an unknown formatter writing a whole folder',
    command: 'npx prettier --write src',
    effect: { changed: 'src/app.ts' },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'an unknown program given the workspace root',
    command: 'npx rimraf .',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'an unknown program given a denied folder, then the copy read',
    command: 'npx cpy secrets/ out && cat out/key.pem',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'an unknown program given a folder through ./ and a trailing slash',
    command: 'npx del-cli ./src/',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'an unknown program after a cd into the parent',
    command: 'cd .. && npx rimraf project/src',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'diff of a folder named like a file',
    command: 'diff vault.d notes.txt',
    ...VAULT,
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'git diff --no-index of a folder named like a file',
    command: 'git diff --no-index vault.d notes.txt',
    ...VAULT,
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * A line that only reads through a directory holding nothing a rule names runs unasked (the sandbox
 * lists it at check time): these are the ways something a rule names could still be reached below it.
 */
export const LISTED_TREES: BypassCase[] = [
  {
    what: 'a link below the folder leads to the denied one',
    setup: ['ln -s ../secrets src/s'],
    command: 'grep -R sk-live src',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'the line makes the link, then searches',
    command: 'mkdir docs && ln -s ../secrets docs/s && grep -R sk-live docs',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'the folder searched is itself a link to the denied one',
    setup: ['ln -s secrets keys'],
    command: 'grep -r sk-live keys',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'the parent of the current folder holds the denied file',
    command: 'cd src && grep -r sk-live ..',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'a copy made in the same line, then searched',
    command: 'cp -r secrets src/k; grep -r sk-live src',
    effect: LEAK,
    bypass: 'deny',
  },
];
