/**
 * Cases: a directory given to a program that goes through the tree below it, where only the file system
 * tells it is a directory (an unknown program's operand, `npx rimraf src`; a diff operand whose name
 * looks like a file's, `vault.d`). The engine looks at the sandbox when it checks.
 */
import type { BypassCase } from './harness.ts';

const LEAK = { leaks: true } as const;
const APP = { removed: 'src/app.ts' };

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
