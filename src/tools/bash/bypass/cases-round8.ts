/**
 * Cases found by red-team round 8: in just-bash the stages of a pipeline run in the shell itself (a
 * `cd` in one stays for the next statements), and a `cd` target that is a glob leads where the glob
 * expands, not to a directory of that name.
 */
import { type BypassCase, LEAK, NO_RULES, PROD } from './harness.ts';

/** A `cd` inside a pipeline: in just-bash it outlives the pipeline. */
export const PIPELINE_CD: BypassCase[] = [
  {
    what: 'cd in the first stage, read in the second',
    command: 'cd secrets | cat key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'cd in the last stage, read after it',
    command: 'echo | cd secrets; cat key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'cd piped into true, read after it',
    command: 'cd secrets | true; cat key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'cd piped into true, write after it',
    command: 'cd config | true; echo x > prod.env',
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'cd into .git in a pipeline, write HEAD after it',
    command: 'cd .git | true; echo x > HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'a function that cds, called in a pipeline',
    command: 'f() { cd secrets; }; f | true; cat key.pem',
    effect: LEAK,
    bypass: 'deny',
  },
  {
    what: 'cd in the first stage, mv in the second',
    command: 'cd src | mv app.ts ../gone.ts',
    effect: { removed: 'src/app.ts' },
    bypass: 'deny',
  },
];

/** A `cd` or `pushd` whose target is a glob. */
export const GLOB_CD: BypassCase[] = [
  {
    what: 'cd to a ? glob that expands to .git',
    command: 'cd .gi? && echo x > HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'pushd to a ? glob that expands to .git',
    command: 'pushd .gi? > /dev/null && echo x > HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'cd to a * glob that expands to config',
    command: 'cd conf* && echo x > prod.env',
    rules: { deny: ['Edit(/config/**)'] },
    effect: PROD,
    bypass: 'ask',
  },
];

/** Glob options: extglob patterns, dotglob and GLOBIGNORE (which turns dotglob on). */
export const GLOB_OPTIONS: BypassCase[] = [
  {
    what: 'extglob +(…) names src',
    command: 'shopt -s extglob; echo x > +(src)/app.ts',
    rules: { deny: ['Edit(/src/**)'] },
    effect: { changed: 'src/app.ts' },
    bypass: 'ask',
  },
  {
    what: 'dotglob: ?git is .git',
    command: 'shopt -s dotglob; echo x > ?git/HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'dotglob: * takes in .git',
    command: 'shopt -s dotglob; echo x > */HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'a GLOBIGNORE set turns dotglob on',
    command: 'GLOBIGNORE=x; echo x > ?git/HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'extglob and dotglob: @(.git)',
    command: 'shopt -s extglob dotglob; echo x > @(.git)/HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
];

/** Namerefs (`declare -n`) and integer variables (`declare -i`): an assignment that does more. */
export const NAMEREFS_INTEGERS: BypassCase[] = [
  {
    what: 'a nameref to HOME moves ~ into secrets',
    command: 'declare -n r=HOME; r=/home/user/project/secrets; cat ~/key.pem',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'a nameref to HOME moves ~ into config',
    command: 'declare -n r=HOME; r=/home/user/project/config; echo x > ~/prod.env',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'a nameref to HOME moves ~ into .git',
    command: 'declare -n r=HOME; r=/home/user/project/.git; echo x > ~/HEAD',
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'a nameref to PS4 runs a substitution under set -x',
    command: "declare -n r=PS4; r='$(cat .env)'; set -x; ls",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'local -n in a function',
    command: 'f() { local -n r=HOME; r=/home/user/project/secrets; cat ~/key.pem; }; f',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'a nameref to PATH puts a planted ls first',
    setup: ["mkdir -p /tmp/b && echo 'cat /home/user/project/.env' > /tmp/b/ls && chmod +x /tmp/b/ls"],
    command: 'declare -n r=PATH; r=/tmp/b:$PATH; ls',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'a nameref to an array element evaluates its subscript',
    command: "declare -n r='a[$(echo pwned > src/app.ts)]'; echo $r",
    effect: { changed: 'src/app.ts' },
    bypass: 'deny',
  },
  {
    what: 'an integer variable evaluates a later value',
    command: "declare -i n; n='a[$(echo pwned > src/app.ts)]'",
    effect: { changed: 'src/app.ts' },
    bypass: 'deny',
  },
  {
    what: 'an integer variable evaluates a variable named in a later value',
    command: "x='a[$(echo pwned > src/app.ts)]'; declare -i n=0; n+=x",
    effect: { changed: 'src/app.ts' },
    bypass: 'ask',
  },
  {
    what: 'typeset -i evaluates a later value that writes .git/HEAD',
    command: "typeset -i n; n='a[$(echo pwned > .git/HEAD)]'",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
];

/** Found by checking the round-8 fixes: a declaration walked after its assignment, or through an alias. */
export const ATTRIBUTES_LATER: BypassCase[] = [
  {
    what: 'a loop assigns, then declares the name an integer: the second pass evaluates the value',
    command: "for i in 1 2; do n='a[$(echo pwned > src/app.ts)]'; declare -i n; done",
    effect: { changed: 'src/app.ts' },
    bypass: 'deny',
  },
  {
    what: 'the same with typeset -i and .git/HEAD',
    command: "for i in 1 2; do n='a[$(echo x > .git/HEAD)]'; typeset -i n; done",
    ...NO_RULES,
    effect: { changed: '.git/HEAD' },
    bypass: 'ask',
  },
  {
    what: 'an alias for declare -n',
    command:
      "shopt -s expand_aliases; alias d='declare -n'\nd r=HOME\nr=/home/user/project/secrets\ncat ~/key.pem",
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'an alias for declare, given -n at the call',
    command:
      'shopt -s expand_aliases; alias d=declare\nd -n r=HOME\nr=/home/user/project/secrets\ncat ~/key.pem',
    effect: LEAK,
    bypass: 'ask',
  },
  {
    what: 'an alias for declare -i',
    command: "shopt -s expand_aliases; alias d='declare -i'\nd n\nn='a[$(echo pwned > src/app.ts)]'",
    effect: { changed: 'src/app.ts' },
    bypass: 'ask',
  },
];
