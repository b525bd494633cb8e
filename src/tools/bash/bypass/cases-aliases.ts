/**
 * Cases: a file's content under another name. A program that reads a file while it "only" writes or
 * moves it (gzip, mv, split, sed -i, zip), a hard link (written through either name), an archive
 * extracted over denied files.
 */
import type { BypassCase } from './harness.ts';

const PROD = { changed: 'config/prod.env' };
const LEAK = { leaks: true } as const;

/** Programs that read what they rewrite, move or cut up: a Read rule meets them too. */
export const READ_WHILE_WRITING: BypassCase[] = [
  { what: 'gzip -c a denied file', command: 'gzip -c .env | gunzip', effect: LEAK, bypass: 'deny' },
  {
    what: 'mv a denied file out, then read it',
    command: 'mv .env /tmp/e && cat /tmp/e',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'split a denied file into pieces',
    command: 'split -l 1 .env /tmp/s && cat /tmp/saa',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed -i on a denied file writes its lines elsewhere',
    command: "sed -i 'w /tmp/copy' .env; cat /tmp/copy",
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'zip takes a denied file in',
    command: 'zip /tmp/x.zip .env && unzip -p /tmp/x.zip',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'split --filter runs a command line',
    command: "split --filter='rm -f src/app.ts' notes.txt",
    effect: { removed: 'src/app.ts' },
    bypass: 'deny',
    bashOnly: true,
  },
];

/** A hard link shares the file: writing the new name writes the denied one (GNU ln, cp -l, link). */
export const HARD_LINKS: BypassCase[] = [
  {
    what: 'ln (hard) a denied file, write the link',
    command: 'ln config/prod.env /tmp/p && echo DB=evil > /tmp/p',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'cp -l a denied file, write the copy',
    command: 'cp -l config/prod.env p && echo DB=evil >> p',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'link a denied file, write the link',
    command: 'link config/prod.env p; echo DB=evil > p',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * Extracting writes the names the archive holds (/tmp/x.tar holding config/prod.env). The sandbox has no
 * tar (it says so): the decisions alone are checked.
 */
export const ARCHIVES: BypassCase[] = [
  {
    what: 'tar -x over a denied file in the current directory',
    command: 'tar -xf /tmp/x.tar',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tar x (old-style letters)',
    command: 'tar xf /tmp/x.tar',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tar --extract --file=',
    command: 'tar --extract --file=/tmp/x.tar',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tar -x -C into a denied directory',
    command: 'tar -x -C config -f /tmp/x.tar',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'tar --to-command runs a command line',
    command: "tar -xf /tmp/x.tar --to-command='rm -f src/app.ts'",
    effect: { removed: 'src/app.ts' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'tar -c a denied file, then list it out',
    command: 'tar -cf /tmp/s.tar .env && tar -xOf /tmp/s.tar',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
];

/** A file of file names: the files it names are read too (GNU sort, tar -T; not in just-bash). */
export const NAME_LISTS: BypassCase[] = [
  {
    what: 'sort --files0-from=LIST prints the files LIST names',
    command: "printf '.env\\0' > /tmp/l; sort --files0-from=/tmp/l",
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'tar -T LIST archives the files LIST names',
    command: 'echo .env > /tmp/l; tar -T /tmp/l -cf - | tar -xOf -',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** Pagers, dumpers and converters read the files they are given (none is in just-bash: decisions only). */
const reads = (command: string): BypassCase => ({
  what: command,
  command,
  effect: LEAK,
  bypass: 'deny',
  bashOnly: true,
});

export const READERS: BypassCase[] = [
  reads('less .env'),
  reads('more secrets/key.pem'),
  reads('bat --paging=never .env'),
  reads('cmp -l .env notes.txt'),
  reads('xxd .env'),
  reads('hexdump -C secrets/key.pem'),
  reads('pr -t .env'),
  reads('fmt -w 80 .env'),
  reads('iconv -f utf-8 -t ascii .env'),
  { ...reads('xxd notes.txt config/prod.env'), what: 'xxd IN OUT writes OUT', effect: PROD },
  { ...reads('dos2unix config/prod.env'), what: 'dos2unix rewrites in place', effect: PROD },
];
