/**
 * How the analysis describes a program it knows (a spec): which options take values and which values
 * are files, what the operands are, and whether it is read-only unless an option writes or runs
 * something; the helpers the spec tables (specs-readers.ts, specs-writers.ts) are written with; and the
 * shell's builtins. A program with no spec is not read-only, and its words are only maybe files (see
 * programs.ts).
 */
import type { OptionSpec, ParsedArgs, ValueKind } from './options.ts';

export type OperandRule =
  /** Files read / written; none: not files. */
  | 'read'
  | 'write'
  | 'none'
  /** Files read and rewritten in place (gzip, gunzip, patch): a Read rule and an Edit rule both meet them. */
  | 'modify'
  /** zip: the archive (read and rewritten), then the files it takes in (read). */
  | 'archive'
  /** split: an input file (read), then the prefix of the files it writes (`PREFIX*`, default `x` here). */
  | 'split'
  /** A pattern or program first (unless given by an option), then files read. */
  | 'pattern'
  /** cp/mv/ln/install: sources, then the destination (or `-t DIR`). */
  | 'copy'
  | 'move'
  /** chmod/chown: a mode or owner first (unless --reference), then files written. */
  | 'mode';

export interface Spec {
  options: OptionSpec;
  operands: OperandRule;
  /** True: read-only unless a flag or option value writes or runs something. A string: never, and why. */
  readOnly: true | string;
  /** Options that give the pattern (then every operand is a file). */
  patternOptions?: readonly string[];
  /** Recursive always, or with one of these flags. */
  recursive?: true | readonly string[];
  /** An operand that may name a directory is read with what is inside it (facts.ts mayNameDirectory). */
  directoryOperands?: boolean;
  /** Options whose value `recurse` (or any abbreviation of it, or a run-time value) makes it recursive. */
  recursiveValues?: readonly string[];
  destructive?: boolean;
  /** Flags that make it rewrite its file operands in place (`yq -i`): they are read and written. */
  inPlace?: readonly string[];
  /** Its own language may name files it reads (yq's load()): a file only known at run time is read. */
  readsNamed?: (args: ParsedArgs) => boolean;
  /**
   * The sandbox's program parses no options: any word, `--` or one that looks like an option too, may be
   * a file it reads (just-bash's tac reads its first word as its file: `tac -r notes.txt` reads `-r`).
   */
  wordsAreFiles?: true;
  /** More reasons it is not read-only (operands that write, options that set things). */
  check?: (args: ParsedArgs) => string | null;
}

export const flagsOf = (list: string): Record<string, ValueKind> =>
  Object.fromEntries(
    list
      .split(' ')
      .filter(Boolean)
      .map((f) => [f, 'value']),
  );

/** Long options whose value is optional, given only glued with `=` (GNU's `--color[=WHEN]`). */
export const optionalOf = (list: string): Record<string, `${ValueKind}?`> =>
  Object.fromEntries(
    list
      .split(' ')
      .filter(Boolean)
      .map((f) => [f, 'value?']),
  );

/** Short options taking a plain value, then overrides. */
export const short = (letters: string, extra: Record<string, ValueKind | `${ValueKind}?`> = {}) => ({
  ...Object.fromEntries([...letters].map((l) => [l, 'value' as ValueKind])),
  ...extra,
});

export const RECURSIVE_FLAGS = ['-r', '-R', '--recursive', '--dereference-recursive'];

/** Shell builtins: found without PATH; many change the shell session. */
const BUILTINS = new Set(
  (
    'cd pushd popd dirs echo printf test [ true false : pwd export unset alias unalias type command builtin ' +
    'eval source . exec read set shopt declare typeset local readonly let shift return exit break continue ' +
    'trap wait jobs kill umask getopts hash history help mapfile readarray times enable logout disown bg fg ' +
    'suspend compgen complete caller ulimit'
  ).split(' '),
);

/** Builtins that change the shell session (variables, options, functions, fds, the cwd). */
const STATE_BUILTINS = new Set(
  (
    'cd pushd popd export unset alias unalias set shopt declare typeset local readonly let shift read ' +
    'mapfile readarray getopts trap umask hash enable source . eval exec ulimit'
  ).split(' '),
);

/** Builtins whose arguments name variables; a subscript in a name is evaluated (`unset 'a[$(cmd)]'`). */
export const NAME_BUILTINS = new Set(
  'export unset declare typeset local readonly read mapfile readarray getopts let printf'.split(' '),
);

export const isBuiltin = (name: string): boolean => BUILTINS.has(name);
export const changesShellState = (name: string): boolean => STATE_BUILTINS.has(name);
