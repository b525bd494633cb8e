/**
 * Cases: option tables that said an option takes the next word as its value when the program takes it
 * glued only, or not at all (GNU's `--unified[=N]`, `--color[=WHEN]`, `cp --preserve[=LIST]`), so the
 * word after it, a protected file, was never checked; awk strings spelled with escapes; awk text that
 * reads as a regex in one awk and a division in another. Found by a red-team round (round 4).
 */
import { type BypassCase, LEAK, NO_RULES, PROD } from './harness.ts';

/** Found in just-bash: the checked run is refused, the unchecked one does it. */
export const OPTIONAL_VALUES: BypassCase[] = [
  {
    what: 'diff --unified before the file',
    command: 'diff --unified .env notes.txt',
    effect: LEAK,
    bypass: 'deny',
  },
  { what: 'jq --tab before the file', command: 'jq -R . --tab .env', effect: LEAK, bypass: 'deny' },
  {
    what: 'jq --tab before the filter',
    command: 'jq -Rr --tab . secrets/key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'od -w before the file',
    command: "od -An -c -w .env | tr -d ' \\n'",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'cp --preserve before the source',
    command: 'cp --preserve notes.txt config/prod.env',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'cp --preserve into a protected file',
    command: 'cp --preserve notes.txt .git/config',
    ...NO_RULES,
    effect: { changed: '.git/config' },
    bypass: 'ask',
  },
  {
    what: 'split -d before the input',
    command: 'split -d notes.txt .git/p',
    ...NO_RULES,
    effect: { created: '.git/p00' },
    bypass: 'ask',
  },
  {
    what: 'awk: an octal escape spells the file read',
    command: `awk 'BEGIN{while((getline l < "\\056env")>0) print l}'`,
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk: a hex escape spells the file read',
    command: `awk 'BEGIN{while((getline l < "\\x2eenv")>0) print l}'`,
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'awk: an octal escape spells the file written',
    command: `awk 'BEGIN{printf "x" > "\\143onfig/prod.env"}'`,
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'awk: x++ / read as a regex hides a getline',
    command: `awk 'BEGIN { x = 1; y = x++ / 2; while ((getline l < ".env") > 0) print l; z = y / 1 }'`,
    effect: LEAK,
    bypass: 'ask',
  },
];

/** tar's -C moves it for the members after it: each member is read from the directory then in effect. */
export const TAR_DIRECTORIES: BypassCase[] = [
  {
    what: 'tar: a member read from the first of two -C',
    command: 'tar -cf - -C secrets key.pem -C /tmp . | tar -xOf -',
    effect: LEAK,
    bypass: 'deny',
    // The browser sandbox has no tar.
    bashOnly: true,
  },
  {
    what: 'tar: a relative -C after another',
    command: 'tar -cf - -C /home/user -C project .env | tar -xOf -',
    effect: LEAK,
    bypass: 'deny',
    // The browser sandbox has no tar.
    bashOnly: true,
  },
];

/** The same, found with GNU programs (not in just-bash, or different there). */
export const OPTIONAL_VALUES_GNU: BypassCase[] = [
  {
    what: 'grep --color before the pattern',
    command: 'grep --color TOKEN .env',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'diff --context before the file',
    command: 'diff --context .env notes.txt',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'diff --color before the file',
    command: 'diff --color .env notes.txt',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'column -d before the file',
    command: 'column -t -d .env',
    effect: LEAK,
    bypass: 'deny',
    bashOnly: true,
  },
  { what: 'pr -s before the file', command: 'pr -s .env', effect: LEAK, bypass: 'deny', bashOnly: true },
  { what: 'date -I before -f', command: 'date -I -f .env', effect: LEAK, bypass: 'deny', bashOnly: true },
  {
    what: 'xargs --eof before the program',
    command: 'xargs --eof tee cat .git/config < /dev/null',
    ...NO_RULES,
    effect: { changed: '.git/config' },
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'xargs --process-slot-var before the program',
    command: 'xargs --process-slot-var cat rm -f src/app.ts < /dev/null',
    effect: { removed: 'src/app.ts' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'mkdir --context before the directory',
    command: 'mkdir --context config/newdir',
    effect: { created: 'config/newdir' },
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'install -Z before the source',
    command: 'install -Z notes.txt config/prod.env',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];
