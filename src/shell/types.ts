/**
 * What the shell analysis says about one command line: plain data, made once per Bash call, read by
 * the Bash tool (read-only, concurrency) and the permission engine (rules, protected paths, the prompt).
 */

/** One shell word after quote removal. */
export interface ShellWord {
  /** The text after quote removal; run-time parts appear as written (`$HOME`, `$(…)`, `$((…))`). */
  text: string;
  /**
   * The word as written, quotes and escapes kept (`'console.log(1+1)'`), for messages a user reads;
   * substitutions are shortened as in `text`. Absent on words the analysis made up.
   */
  written?: string;
  /** Part of the word is only known at run time (parameter, command, arithmetic or brace expansion). */
  dynamic: boolean;
  /** Contains an unquoted glob (`*`, `?`, `[`), which may expand into other words. */
  glob: boolean;
  /** Starts with an unquoted `~` (the shell replaces it with HOME). */
  tilde?: boolean;
  /**
   * May become several words, or none, when it runs: an unquoted expansion or glob (word splitting),
   * `"$@"`, or the arguments xargs appends.
   */
  split?: boolean;
}

/** How a command uses a path. */
export type PathAccess = 'read' | 'write' | 'unknown';

/** A path a command reads or writes. */
export interface ShellPathRef {
  text: string;
  dynamic: boolean;
  glob: boolean;
  /** `~` at the start stands for HOME. */
  tilde: boolean;
  access: PathAccess;
  /**
   * The analysis knows this word names a file the command uses (a redirection, an operand of a program
   * it knows). False: it only may (an operand of an unknown program, a value glued to an option it
   * cannot place): rules then match "maybe".
   */
  sure: boolean;
  /** The command goes through the whole tree below this path (`grep -r`, `rm -r`, `find`, `ln`). */
  recursive: boolean;
  /**
   * It does so when the path names a directory, which only the file system can tell (an unknown
   * program's operand, `npx rimraf src`): the permission engine looks before it decides.
   */
  ifDirectory?: boolean;
  /**
   * A redirection (`> out`, `>> log`, `< in`) rather than something the program does with its arguments:
   * a rule allowing the program does not allow its redirections.
   */
  redirect: boolean;
  /** A redirection's write to /dev/null (see ShellCommand.devices). */
  device?: boolean;
  /**
   * Static `cd` targets that may have run before this command in its scope, in order (each may or may
   * not have run); null when a `cd` went somewhere only known at run time.
   */
  cdTrail: readonly string[] | null;
}

/** A form of a command deny and ask rules are matched against. */
export interface ShellForm {
  words: readonly ShellWord[];
  /**
   * This is surely what runs (as written, unwrapped, the program's basename). False for forms that only
   * look like it: a later word taken as a program (`docker rm`), look-alike letters folded, a program
   * name shadowed by a function defined in the line.
   */
  sure: boolean;
}

/** One command a line runs (compound lines, substitutions and nested scripts are split). */
export interface ShellCommand {
  /** Source text, for messages. */
  source: string;
  /** What runs after wrappers (`env`, `command`, `timeout`, `nice`...) are removed. Empty: no program. */
  words: readonly ShellWord[];
  /**
   * Texts allow rules match (words joined by single spaces): as written, and unwrapped when the wrappers
   * change nothing (`timeout 60 npm test` → `npm test`). Empty when no allow rule may match (run-time
   * words, variable assignments).
   */
  allowTexts: readonly string[];
  /** The forms deny and ask rules match. */
  forms: readonly ShellForm[];
  /** Cannot change files, run other code, or evaluate run-time text as code. */
  readOnly: boolean;
  /** Why it is not read-only. */
  reason?: string;
  /** Changes the shell session (cwd, variables, options, functions): not safe to run beside others. */
  changesState: boolean;
  /** Runs code the analysis cannot see (a script file, standard input, eval of run-time text). */
  opaque: boolean;
  /**
   * Only runs the commands listed after it (`bash -c 'a; b'`, `eval 'a'`, `xargs`): it needs no allow
   * rule of its own, though deny and ask rules still apply to it.
   */
  container: boolean;
  /** Starts a shell, which reads start-up code named by the environment (BASH_ENV, ENV). */
  startsShell: boolean;
  /** The program is looked up through PATH (a plain name that is not a shell builtin). */
  usesPath: boolean;
  /** mkdir, touch, mv, cp or rm: a file-only command acceptEdits may allow on workspace paths. */
  fileOnly: boolean;
  /** Deletes or overwrites data (rm, `find -delete`, `git reset --hard`, `>` onto a file). */
  destructive: boolean;
  /** Files it reads and writes: redirections, operands, option values, program texts (sed `w`). */
  paths: readonly ShellPathRef[];
  /**
   * Redirections writing /dev/null (or /dev/stdout, /dev/stderr by `&>`): just-bash's plain files, which
   * no write changes anything that matters in, so not in `paths`; the permission engine counts one as a
   * path written where it is a link, or the line writes there.
   */
  devices?: readonly ShellPathRef[];
  /**
   * Where it runs: static `cd` targets that may have run before it (as `ShellPathRef.cdTrail`; null: a
   * `cd` only known at run time). Absent on entries that are no program (redirections, `[[ ]]`).
   */
  cdTrail?: readonly string[] | null;
  /**
   * Links it makes (`ln -s ../config d/c`): a later command's path through `at` leads to `to` (a symbolic
   * link's text is relative to the link's directory, a hard link's source to the cwd).
   */
  links?: readonly { at: ShellPathRef; to: ShellPathRef; symbolic: boolean }[];
}

/** The analysis of one command line. */
export interface ShellAnalysis {
  command: string;
  /** False when the line could not be parsed (then `commands` is empty and everything asks). */
  parsed: boolean;
  parseError?: string;
  commands: readonly ShellCommand[];
  /** Every command is read-only and nothing is written. */
  readOnly: boolean;
  /** Read-only, and nothing changes the shell session: it may run beside other calls. */
  concurrencySafe: boolean;
  /** Some command deletes or overwrites data. */
  destructive: boolean;
  /**
   * Variables the line may set before some part of it reads them (sorted), or 'any' when it runs code
   * that could set any (eval of run-time text, source). HOME, CDPATH and PATH decide what `~`, `cd` and
   * program names mean.
   */
  assigns: readonly string[] | 'any';
  /** How many times the parser ran (1 for the line, plus one per nested script text). */
  parserRuns: number;
}
