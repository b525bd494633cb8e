/** What a program does with its arguments: the facts every program reader returns. */
import type { PathAccess, ShellWord } from './types.ts';

/** A path a program uses. */
export interface PathUse {
  word: ShellWord;
  access: PathAccess;
  sure: boolean;
  recursive: boolean;
  /** A redirection of the command (set by the walker). */
  redirect?: boolean;
  /** A redirection's write to /dev/null: the entry keeps it apart from its paths (ShellCommand.devices). */
  device?: boolean;
  /**
   * When the word names a directory, the program may go through the whole tree below it (an unknown
   * program's operand: `npx rimraf src`; diff's): the engine looks at the file system when it checks.
   */
  ifDirectory?: boolean;
}

/**
 * Whether a word may name a directory as far as its text tells: `.`, `..`, a trailing slash, a run-time
 * word, or a last name without an extension (`secrets`, `e`; not `notes.txt`). For programs that read
 * what is inside a directory operand (diff compares it file by file).
 */
export function mayNameDirectory(w: ShellWord): boolean {
  if (w.dynamic || w.glob) return true;
  const last = w.text.replace(/\/+$/, '').split('/').pop() ?? '';
  return w.text.endsWith('/') || last === '' || last === '.' || last === '..' || !/.\.[^.]+$/.test(last);
}

/** What a program does with its arguments. */
export interface ProgramFacts {
  paths: PathUse[];
  /** Why it is not read-only, or null when it is. */
  problem: string | null;
  /** Shell command texts it runs (an awk `system("...")` with a literal command). */
  scripts: string[];
  /** Runs code the analysis cannot see (sed `e`, awk `system(x)`, `--pre` programs). */
  opaque: boolean;
  /** Why its arguments are evaluated as code at run time (`test -v 'a[$(cmd)]'`); texts to parse. */
  evaluates: string[];
  evaluatedTexts: string[];
  destructive: boolean;
  /** Changes the shell session (variables, options, cwd). */
  changesState: boolean;
  /** Links it makes (`ln -s TARGET NAME`): later paths through NAME lead to TARGET. */
  links?: LinkUse[];
  /** A program the analysis has no reader for (it may do anything with its input). */
  unknown?: boolean;
}

/** A link a command makes: `at` (a path the link may be at) leads to `to`. */
export interface LinkUse {
  at: ShellWord;
  /** A symbolic link's text (relative to the link's directory), or a hard link's source (to the cwd). */
  to: ShellWord;
  symbolic: boolean;
}

export const pathUse = (word: ShellWord, access: PathAccess, sure: boolean, recursive = false): PathUse => ({
  word,
  access,
  sure,
  recursive,
});

/** `p`, going through the tree below it when it names a directory (see PathUse.ifDirectory). */
export const treeIfDirectory = (p: PathUse): PathUse => (p.recursive ? p : { ...p, ifDirectory: true });

export const emptyProgramFacts = (): ProgramFacts => ({
  paths: [],
  problem: null,
  scripts: [],
  opaque: false,
  evaluates: [],
  evaluatedTexts: [],
  destructive: false,
  changesState: false,
});
