/**
 * Cases found by red-team round 13: programs and shell features not red-teamed before (xargs, jq, tee,
 * split, tar, the text filters, redirections with fd duplication, here-strings, process substitution,
 * tilde and brace forms, source, eval, exec, traps). just-bash's xargs skips a lone `-` among its options
 * and runs the word after it: the analysis took `-` for the program, so a deny rule on what runs only
 * maybe matched (asked, even in bypassPermissions mode) where it surely does.
 */
import { APP, type BypassCase, LEAK } from './harness.ts';

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
