// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands, not templates
/**
 * Cases: commands that look read-only but make the shell run code (array subscripts and arithmetic
 * the shell evaluates, even inside single quotes), eval, and names hidden in ANSI-C strings.
 */
import type { BypassCase } from './harness.ts';

/** Writes src/app.ts when evaluated (Edit(/src/**) is denied). */
const PAYLOAD = 'a[$(echo pwned > src/app.ts)]';
const SESSION_PAYLOAD = `export X='${PAYLOAD}'`;
const APP = { changed: 'src/app.ts' };

export const EVALUATING: BypassCase[] = [
  { what: 'test -v on a subscript', command: `test -v '${PAYLOAD}'`, effect: APP, bypass: 'deny' },
  { what: '[ -v ] on a subscript', command: `[ -v '${PAYLOAD}' ]`, effect: APP, bypass: 'deny' },
  { what: '[[ -v ]] on a subscript', command: `[[ -v '${PAYLOAD}' ]]`, effect: APP, bypass: 'deny' },
  { what: '[[ -eq ]] operand', command: `[[ '${PAYLOAD}' -eq 0 ]]`, effect: APP, bypass: 'deny' },
  {
    what: '[[ -gt ]] on a session variable',
    setup: [SESSION_PAYLOAD],
    command: '[[ $X -gt 1 ]]',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'arithmetic expansion of a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'echo $((X))',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'arithmetic with $ of a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'echo $(( $X + 1 ))',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'substring offset of a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'echo ${HOME:X}',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'array index of a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'echo ${BASH_ARGV[X]}',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'indirect expansion of a session variable',
    setup: ["export Y='a[$(echo pwned > src/app.ts)]'"],
    command: 'echo ${!Y}',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'case pattern with arithmetic',
    setup: [SESSION_PAYLOAD],
    command: 'case 1 in $((X))) echo one;; esac',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'C-style for on a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'for ((i=X; i<1; i++)); do :; done',
    effect: APP,
    bypass: 'ask',
  },
  // An unquoted variable, or what xargs appends, may become several words: operators among them.
  {
    what: 'test on an unquoted variable that splits into -v',
    setup: [`export ARGS='a -o -v ${PAYLOAD}'`],
    command: '[ -f $ARGS ]',
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'test with arguments xargs appends',
    command: `echo 'a -o -v ${PAYLOAD}' | xargs test -f`,
    effect: APP,
    bypass: 'ask',
    bashOnly: true,
  },
  { what: 'subscript of an expansion', command: `echo \${${PAYLOAD}}`, effect: APP, bypass: 'deny' },
  { what: 'subscript of an assignment', command: `${PAYLOAD}=1`, effect: APP, bypass: 'deny' },
  { what: 'declare -i value', command: `declare -i z='${PAYLOAD}'`, effect: APP, bypass: 'deny' },
  { what: 'unset of a subscript', command: `unset '${PAYLOAD}'`, effect: APP, bypass: 'deny' },
  { what: 'printf -v into a subscript', command: `printf -v '${PAYLOAD}' x`, effect: APP, bypass: 'deny' },
  {
    what: 'let on a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'let X',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: 'an assignment from arithmetic on a session variable',
    setup: [SESSION_PAYLOAD],
    command: 'y=$((X))',
    effect: APP,
    bypass: 'ask',
  },
  {
    what: '(( )) on a session variable',
    setup: [SESSION_PAYLOAD],
    command: '(( X ))',
    effect: APP,
    bypass: 'ask',
  },
];

const PROD = { changed: 'config/prod.env' };

/** Variables whose value the shell runs: a trace prompt, a prompt command; a name bound to a program. */
export const CODE_VARIABLES: BypassCase[] = [
  {
    what: 'PS4 with a substitution, then set -x',
    command: "PS4='$(echo x > config/prod.env)'; set -x; ls",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'export PS4, then a traced shell',
    command: "export PS4='$(echo x > config/prod.env)'; bash -x -c ls",
    effect: PROD,
    bypass: 'deny',
    bashOnly: true,
  },
  {
    what: 'PS4 from the session, then a traced shell',
    setup: ["export PS4='$(echo x > config/prod.env)'"],
    command: 'bash -xc ls',
    effect: PROD,
    bypass: 'ask',
    bashOnly: true,
  },
  {
    what: 'PS4 from a variable',
    setup: ["export P='$(echo x > config/prod.env)'"],
    command: 'PS4=$P; set -x; ls',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'hash -p binds a read-only name to rm',
    command: 'hash -p /bin/rm ls; ls -f src/app.ts',
    effect: { removed: 'src/app.ts' },
    bypass: 'ask',
    bashOnly: true,
  },
];

export const EVAL: BypassCase[] = [
  {
    what: 'eval of a quoted command',
    command: "eval 'echo x > config/prod.env'",
    effect: PROD,
    bypass: 'deny',
  },
  { what: 'eval of eval', command: `eval eval "'echo x > config/prod.env'"`, effect: PROD, bypass: 'deny' },
  {
    what: 'eval of an ANSI-C string',
    command: "eval $'echo x \\x3e config/prod.env'",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'eval of a variable set in the line',
    command: 'c=\'echo x > config/prod.env\'; eval "$c"',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'eval of a session variable',
    setup: ["export C='echo x > config/prod.env'"],
    command: 'eval "$C"',
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'eval of a substitution',
    command: `eval "$(echo 'echo x > config/prod.env')"`,
    effect: PROD,
    bypass: 'ask',
  },
  {
    what: 'bash -c with ANSI-C',
    command: "bash -c $'echo x \\x3e config/prod.env'",
    effect: PROD,
    bypass: 'deny',
  },
];

const SRC = { removed: 'src/app.ts' };

export const ANSI_C: BypassCase[] = [
  {
    what: 'hex escapes for the program',
    command: "$'\\x72\\x6d' -f src/app.ts",
    effect: SRC,
    bypass: 'deny',
  },
  {
    what: 'octal escapes for the program',
    command: "$'\\162\\155' -f src/app.ts",
    effect: SRC,
    bypass: 'deny',
  },
  {
    what: 'unicode escape for the program',
    command: "$'\\u0072'm -f src/app.ts",
    effect: SRC,
    bypass: 'deny',
  },
  { what: 'half ANSI-C program', command: "r$'\\x6d' -f src/app.ts", effect: SRC, bypass: 'deny' },
  { what: 'quotes glued into the program', command: `"r"'m' -f src/app.ts`, effect: SRC, bypass: 'deny' },
  {
    what: 'ANSI-C program writing through -o',
    command: "$'\\x73\\x6f\\x72\\x74' -oconfig/prod.env notes.txt",
    effect: PROD,
    bypass: 'deny',
  },
  {
    what: 'ANSI-C in a redirection target',
    command: "echo x > $'config/prod\\x2eenv'",
    effect: PROD,
    bypass: 'deny',
  },
];
