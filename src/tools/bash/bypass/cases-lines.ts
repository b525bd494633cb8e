/**
 * Cases: what one line sets up for itself. A symbolic or hard link made earlier in the same line (the
 * sandbox's realpath cannot see it yet when the call is checked), and script files a shell, `source` or
 * an interpreter reads: the file is surely read, so a Read rule on it denies (not only asks).
 */
import type { BypassCase } from './harness.ts';

const PROD = { changed: 'config/prod.env' };
const LEAK = { leaks: true } as const;

export const SAME_LINE_LINKS: BypassCase[] = [
  {
    what: 'a link to a denied directory made in the line, then written through',
    command: 'ln -s config c && echo DB=evil > c/prod.env',
    effect: PROD,
    bypass: 'deny',
    // just-bash does not write through a link to a directory.
    bashOnly: true,
  },
  {
    what: "a relative link's text is read from the link's directory",
    command: 'mkdir -p d && ln -s ../config d/c && echo DB=evil > d/c/prod.env',
    effect: PROD,
    bypass: 'deny',
    // just-bash does not write through a link to a directory.
    bashOnly: true,
  },
  {
    what: 'an absolute link into a denied directory, inside a new directory',
    command: 'mkdir -p d && ln -sf /home/user/project/config d/c; echo DB=evil >> d/c/prod.env',
    effect: PROD,
    bypass: 'deny',
    // just-bash does not write through a link to a directory.
    bashOnly: true,
  },
  {
    what: 'a relative link to a denied file made in the line, then read',
    command: 'mkdir -p d && ln -s ../secrets/key.pem d/k; cat d/k',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'a link into a directory named alone (ln -s TARGET DIR)',
    command: 'mkdir -p d && ln -s ../config d && echo DB=evil > d/config/prod.env',
    effect: PROD,
    bypass: 'deny',
    // just-bash does not write through a link to a directory.
    bashOnly: true,
  },
];

export const SCRIPT_FILES: BypassCase[] = [
  { what: 'source a denied file', command: 'source secrets/key.pem', effect: LEAK, bypass: 'deny' },
  { what: '. a denied file', command: '. ./secrets/key.pem', effect: LEAK, bypass: 'deny' },
  { what: 'sh a denied file', command: 'sh secrets/key.pem', effect: LEAK, bypass: 'deny' },
  {
    what: 'bash -e -- a denied file',
    command: 'bash -e -- secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'bash --rcfile a denied file',
    command: 'bash --rcfile secrets/key.pem -i < /dev/null',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'python3 a denied file',
    command: 'python3 secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'node a denied file',
    command: 'node secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'xargs sh a denied file',
    command: 'echo x | xargs sh secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
];

/**
 * acceptEdits writes only inside the workspace: a link an earlier call left (symbolic, followed by the
 * sandbox's realpath) may lead a path written inside to a file outside.
 */
export const LINKS_OUT: BypassCase[] = [
  {
    what: 'a redirection through a link to outside the workspace',
    setup: ['ln -s /tmp/outside.txt out.txt'],
    command: 'echo x > out.txt',
    effect: { created: '/tmp/outside.txt' },
    // The sandbox keeps writes through links inside (bash does not): decisions only.
    bashOnly: true,
  },
  {
    what: 'a redirection into a linked directory outside the workspace',
    setup: ['mkdir -p /tmp/o && ln -s /tmp/o od'],
    command: 'echo x >> od/new.txt',
    effect: { created: '/tmp/o/new.txt' },
    bashOnly: true,
  },
  {
    what: 'touch through a link to outside the workspace',
    setup: ['mkdir -p /tmp/o && ln -s /tmp/o od'],
    command: 'touch od/made.txt',
    effect: { created: '/tmp/o/made.txt' },
    // just-bash's touch does not go through a link to a directory.
    bashOnly: true,
  },
];
