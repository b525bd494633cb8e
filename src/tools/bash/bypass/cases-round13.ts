/**
 * Cases found by red-team round 13: programs and shell features not red-teamed before (xargs, jq, tee,
 * split, tar, the text filters, redirections with fd duplication, here-strings, process substitution,
 * tilde and brace forms, source, eval, exec, traps). just-bash's xargs skips a lone `-` among its options
 * and runs the word after it: the analysis took `-` for the program, so a deny rule on what runs only
 * maybe matched (asked, even in bypassPermissions mode) where it surely does. split writes PREFIX, a
 * generated suffix, then --additional-suffix's, which just-bash resolves lexically: a `/..` in it leaves
 * the generated name (the analysis wrote `x*` only, which a deny rule only maybe matched). just-bash's
 * tac parses no options: its first word, `--` or `-r` too, is the file it reads. just-bash's command
 * takes every `-` word up to `--` as options (a lone `-`, unknown letters), where the analysis took one.
 */
import { APP, type BypassCase, LEAK, PROD } from './harness.ts';

/** xargs: a lone `-` is skipped, options go on after it, and the next word is the program. */
export const XARGS_DASH: BypassCase[] = [
  {
    what: 'xargs - cat FILE reads the denied file',
    command: 'echo x | xargs - cat .env',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'xargs - rm removes with the input as operands',
    command: 'echo src/app.ts | xargs - rm',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'xargs - -rt rm FILE: options go on after the -',
    command: 'echo src/util.ts | xargs - -rt rm src/app.ts',
    effect: APP,
    bypass: 'deny',
  },
];

/** split: `--additional-suffix=/../FILE` writes FILE beside PREFIX (`xaa/../config/prod.env`). */
export const SPLIT_SUFFIX: BypassCase[] = [
  {
    what: 'split --additional-suffix=/../FILE writes the denied file',
    command: 'split --additional-suffix=/../config/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'split --additional-suffix /../FILE, the value in the next word',
    command: 'split --additional-suffix /../config/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'split: the suffix leaves the name beside a prefix in a folder',
    command: 'split --additional-suffix=/../prod.env notes.txt config/x',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'split: names and dots before the .. that leaves it',
    command: 'split --additional-suffix=/./x/..//../config/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'split: the suffix goes up past the working directory and back',
    command: 'split --additional-suffix=/../../project/config/prod.env notes.txt',
    effect: PROD,
    bypass: 'deny',
  },
];

/** tac: just-bash's reads its first word as its file, whatever it looks like (here a link to .env). */
const DASH_LINK = (name: string) => [`ln -s /home/user/project/.env ./${name}`];

export const TAC_WORDS: BypassCase[] = [
  {
    what: 'tac -- FILE reads a file named --',
    setup: DASH_LINK('--'),
    command: 'tac -- notes.txt',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'tac -r FILE reads a file named -r',
    setup: DASH_LINK('-r'),
    command: 'tac -r notes.txt',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'tac -s SEP: the option GNU takes a value for is the file',
    setup: DASH_LINK('-s'),
    command: 'tac -s x notes.txt',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'tac --help alone',
    setup: DASH_LINK('--help'),
    command: 'tac --help',
    effect: LEAK,
    bypass: 'deny',
  },
];

/** command: every word starting with `-` up to `--` is an option to just-bash's, a lone `-` too. */
export const COMMAND_OPTIONS: BypassCase[] = [
  {
    what: 'command - cat FILE reads the denied file',
    command: 'command - cat .env',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'command -p -p rm FILE: more than one option word',
    command: 'command -p -p rm src/app.ts',
    effect: APP,
    bypass: 'deny',
  },
  {
    what: 'command -p - -x rm FILE: a lone - and a letter it does not know among them',
    command: 'command -p - -x rm src/app.ts',
    effect: APP,
    bypass: 'deny',
  },
];
