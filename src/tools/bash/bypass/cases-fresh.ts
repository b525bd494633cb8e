/**
 * Cases: a later red-team round. Option spellings a wrapper reads the way getopt does (env's clusters
 * and abbreviated long options around -S), sed labels followed by a command on the same line, and
 * `uniq - OUT` (standard input in, OUT written).
 */
import type { BypassCase } from './harness.ts';

const PROD = { changed: 'config/prod.env' };
const APP = { removed: 'src/app.ts' };

/** GNU env reads `-iS TEXT`, `-vS TEXT`, `--split-s=TEXT` as -S: the text is a command line (just-bash's env has no -S). */
export const ENV_SPELLINGS: BypassCase[] = [
  {
    what: 'env -iS (cluster)',
    command: "env -iS 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -vS (debug, then -S)',
    command: "env -vS 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -u NAME -S',
    command: "env -u X -S 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env --split-s= (abbreviated)',
    command: "env --split-s='rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env --s TEXT (shortest prefix)',
    command: "env --s 'rm -f src/app.ts'",
    effect: APP,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'env -S glued with a write',
    command: "env -iS'sort -oconfig/prod.env notes.txt'",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];

/** A sed label ends at a blank: `:x w FILE` is a label and a `w` command (GNU sed and just-bash). */
export const SED_LABELS: BypassCase[] = [
  {
    what: 'sed :label then w',
    command: "sed -n ':x w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed branch to a label then w',
    command: "sed -n 'bx;:x w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'sed b LABEL then w',
    command: "sed -n 'bx w config/prod.env\n:x' notes.txt",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sed v VERSION then w',
    command: "sed -n 'v4.2 w config/prod.env' notes.txt",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'sed t LABEL then w in a block',
    command: "sed -n '1{:a w config/prod.env\n}' notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
];

/** `uniq - OUT`: GNU uniq reads standard input and writes OUT (just-bash's uniq reads both). */
export const OPERAND_WRITES: BypassCase[] = [
  {
    what: 'uniq - OUT',
    command: 'uniq - config/prod.env < notes.txt',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'uniq -c -- - OUT',
    command: 'uniq -c -- - config/prod.env < notes.txt',
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
];
