/**
 * Cases found by red-team round 6: sed and awk text that two implementations read differently (where a
 * file name ends, where a bracket ends), archives that unpack links, and `cd -P` through a link.
 */
import { type BypassCase, LEAK, NO_RULES } from './harness.ts';

/** sed: just-bash ends a file name at `;`, and reads `\]` in a bracket as an escaped `]`. */
export const SED_READINGS: BypassCase[] = [
  {
    what: 'sed r: the name ends at ; in just-bash',
    command: "sed -n '1r .env;x' notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed r: a name that climbs back after the ;',
    command: "sed -n '1r secrets/key.pem;s/../../p' notes.txt",
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'sed w: a protected file before the ;',
    command: "sed -n 'w .git/HEAD;s/../../p' notes.txt",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'sed: a bracket with \\] hides an r command',
    command: "sed 's/[\\]/x/;y|]//;r .env;#|abcdefghijkl|' notes.txt",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'sed: a bracket with \\] hides a w command',
    command: "sed -n 's/[\\]/x/;y|]//;w .git/HEAD;#|abcdefghijkl|' notes.txt",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    // Unreadable code: bypassPermissions runs it (only rules and known protected paths bind there).
  },
];

/** awk: `[]` and `[^]` at a class's start end the regex in one awk and not in another. */
export const AWK_READINGS: BypassCase[] = [
  {
    what: 'awk: /[]/ hides a getline in what reads as a string',
    command: `awk 'BEGIN { f = "secrets/key" ".pem"; if ("a" ~ /[]/) x = 1; s = "]/) y = 2; while ((getline l < f) > 0) print l; exit } #" }'`,
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'awk: /[^]/ hides a system() call',
    command: `awk 'BEGIN { c = "rm src/app.ts"; if ("a" ~ /[^]/) x = 1; s = "]/) y = 2; system(c); exit } #" }'`,
    effect: { removed: 'src/app.ts' },
    bypass: 'ask',
    bashOnly: true,
  },
];

/** An archive that holds links, unpacked and used in the same line; cd -P through a link. */
export const UNPACKED_LINKS: BypassCase[] = [
  {
    what: 'tar -x of an archive holding a link to the denied folder, then read through it',
    setup: ['mkdir -p /tmp/a && ln -s ../secrets /tmp/a/s'],
    command: 'tar -cf a.tar -C /tmp/a s; mkdir out && tar -xf a.tar -C out && cat out/s/key.pem',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'cd -P through a link, then ..',
    setup: ['mkdir -p secrets/sub && ln -s secrets/sub l'],
    command: 'cd -P l/.. && cat key.pem',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'set -P, then cd through a link and ..',
    setup: ['mkdir -p secrets/sub && ln -s secrets/sub l'],
    command: 'set -P; cd l/.. && cat key.pem',
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
];

/** Round 7: a sed label ending at `{` in just-bash, sed text ending in `\\`, awk `/` after getline. */
export const ROUND7_READINGS: BypassCase[] = [
  {
    what: 'sed: a label ends at { in just-bash, hiding an r',
    command: "sed ':a{r #/../.env\n}' notes.txt",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'sed: v{ hides an r',
    command: "sed 'v{r #/../.env\n}' notes.txt",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'sed: a label ends at { in just-bash, hiding a w',
    command: "sed ':a{w #/../.git/HEAD\n}' notes.txt",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
  },
  {
    what: 'sed: a text ending in an escaped backslash ends there in GNU sed',
    command: "sed 'a foo\\\\\nr .env' notes.txt",
    effect: LEAK,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'awk: a / after getline is a division, hiding a getline',
    command: `awk 'BEGIN { x = getline / 1; f = "secrets/key.pem"; while ((getline l < f) > 0) print l } #"' </dev/null`,
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'awk: a / after getline is a division, hiding a print >',
    command: `awk 'BEGIN { x = getline / 1; f = ".git/HEAD"; print "pwned" > f } #"' </dev/null`,
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
  },
];
