/**
 * A conservative shell-command classifier: parses a bash command line into simple commands and decides
 * whether it is read-only (safe to run without asking, and concurrently with other read-only calls).
 *
 * It fails closed: anything it does not fully understand (command substitution, subshells, here-docs,
 * process substitution, ANSI-C quoting, complex parameter expansion, background jobs, redirection other
 * than to /dev/null or between stdout/stderr, variable assignments, programs outside the allowlist,
 * flags that write or execute) makes the command NOT read-only.
 *
 * `parseCommand`/`splitCommand` are reusable by the permission engine (prefix rules per sub-command).
 */

/** One shell word after quote removal. */
export interface ShellWord {
  /** The word with quotes and backslashes removed (expansions kept as written, e.g. `$HOME`). */
  value: string;
  /** Some part of the word was quoted or escaped. */
  quoted: boolean;
  /** Contains a parameter expansion (`$NAME`, `${NAME}`, `$1`...): its value is only known at run time. */
  expanded: boolean;
  /** Contains an unquoted glob or brace character (`* ? [ {`): it may expand into other words. */
  glob: boolean;
}

export interface ShellRedirect {
  /** The file descriptor written before the operator ('' when none; '&' for `&>`). */
  fd: string;
  /** `>`, `>>`, `>&`, `>|`, `<`, `<&`, `<>`. */
  op: string;
  target: string;
}

/** A simple command: assignments, then a program and its arguments, plus redirections. */
export interface SimpleCommand {
  /** The source text of this command (trimmed). */
  text: string;
  /** Leading `NAME=value` words. */
  assignments: string[];
  /** Program and arguments (quote-removed). */
  argv: string[];
  words: ShellWord[];
  redirects: ShellRedirect[];
}

/** Operators between simple commands, in order. */
export type ShellOperator = '&&' | '||' | ';' | '|' | '|&' | '&' | '\n';

export type ParseResult =
  | { ok: true; commands: SimpleCommand[]; operators: ShellOperator[] }
  | { ok: false; reason: string };

export interface CommandClassification {
  /** False when the line uses syntax the parser does not support (then `commands` is empty). */
  parsed: boolean;
  commands: SimpleCommand[];
  operators: ShellOperator[];
  readOnly: boolean;
  /** Why the command is not read-only. */
  reason?: string;
}

class UnsupportedSyntax extends Error {}

const SPECIAL_PARAMS = '0123456789#?$!@*-';

/** Reads a `$...` at `i`. Returns the source text consumed and whether it is an expansion. */
function readDollar(
  s: string,
  i: number,
  inDouble: boolean,
): { text: string; end: number; expansion: boolean } {
  const next = s[i + 1];
  if (next === '(') throw new UnsupportedSyntax('command substitution');
  if (next === '{') {
    const m = /^\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9#?$!@*-])\}/.exec(s.slice(i));
    if (!m) throw new UnsupportedSyntax('complex parameter expansion');
    return { text: m[0], end: i + m[0].length, expansion: true };
  }
  if (!inDouble && (next === "'" || next === '"')) throw new UnsupportedSyntax('ANSI-C or locale quoting');
  if (next !== undefined && /[A-Za-z_]/.test(next)) {
    const m = /^\$[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i)) as RegExpExecArray;
    return { text: m[0], end: i + m[0].length, expansion: true };
  }
  if (next !== undefined && SPECIAL_PARAMS.includes(next))
    return { text: `$${next}`, end: i + 2, expansion: true };
  return { text: '$', end: i + 1, expansion: false };
}

interface WordBuilder extends ShellWord {
  start: number;
}

/**
 * Parses a command line into simple commands. Never throws: unsupported syntax gives `{ ok: false }`.
 */
export function parseCommand(command: string): ParseResult {
  try {
    return parseOrThrow(command);
  } catch (err) {
    if (err instanceof UnsupportedSyntax) return { ok: false, reason: err.message };
    throw err;
  }
}

function parseOrThrow(s: string): ParseResult {
  const commands: SimpleCommand[] = [];
  const operators: ShellOperator[] = [];
  let words: ShellWord[] = [];
  let wordStarts: number[] = [];
  let redirects: ShellRedirect[] = [];
  let segStart = 0;
  let word: WordBuilder | null = null;
  let pending: { fd: string; op: string } | null = null;

  const ensureWord = (i: number): WordBuilder => {
    word ??= { value: '', quoted: false, expanded: false, glob: false, start: i };
    return word;
  };
  const flushWord = (): void => {
    if (!word) return;
    const { start, ...w } = word;
    word = null;
    if (pending) {
      redirects.push({ ...pending, target: w.value });
      pending = null;
    } else {
      words.push(w);
      wordStarts.push(start);
    }
  };
  const endSegment = (end: number): void => {
    flushWord();
    if (pending) throw new UnsupportedSyntax('redirection without a target');
    const text = s.slice(segStart, end).trim();
    if (words.length > 0 || redirects.length > 0) {
      let k = 0;
      while (k < words.length && isAssignment(words[k], s[wordStarts[k]])) k++;
      commands.push({
        text,
        assignments: words.slice(0, k).map((w) => w.value),
        argv: words.slice(k).map((w) => w.value),
        words: words.slice(k),
        redirects,
      });
    }
    words = [];
    wordStarts = [];
    redirects = [];
  };
  const separator = (op: ShellOperator, i: number, len: number): number => {
    endSegment(i);
    operators.push(op);
    segStart = i + len;
    return i + len;
  };
  const startRedirect = (fd: string, op: string): void => {
    flushWord();
    if (pending) throw new UnsupportedSyntax('redirection without a target');
    pending = { fd, op };
  };

  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s[i];
    const next = s[i + 1];
    if (c === '#' && word === null) {
      while (i < n && s[i] !== '\n') i++;
      continue;
    }
    if (c === ' ' || c === '\t') {
      flushWord();
      i++;
    } else if (c === '\\') {
      if (next === '\n') {
        i += 2;
        continue;
      }
      const w = ensureWord(i);
      w.value += next ?? '\\';
      w.quoted = true;
      i += next === undefined ? 1 : 2;
    } else if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) throw new UnsupportedSyntax('unterminated quote');
      const w = ensureWord(i);
      w.value += s.slice(i + 1, close);
      w.quoted = true;
      i = close + 1;
    } else if (c === '"') {
      const w = ensureWord(i);
      w.quoted = true;
      let j = i + 1;
      while (j < n && s[j] !== '"') {
        const d = s[j];
        if (d === '\\' && j + 1 < n) {
          const e = s[j + 1];
          if (e !== '\n') w.value += '$`"\\'.includes(e) ? e : `\\${e}`;
          j += 2;
        } else if (d === '`') {
          throw new UnsupportedSyntax('command substitution');
        } else if (d === '$') {
          const r = readDollar(s, j, true);
          w.value += r.text;
          if (r.expansion) w.expanded = true;
          j = r.end;
        } else {
          w.value += d;
          j++;
        }
      }
      if (j >= n) throw new UnsupportedSyntax('unterminated quote');
      i = j + 1;
    } else if (c === '$') {
      const r = readDollar(s, i, false);
      const w = ensureWord(i);
      w.value += r.text;
      if (r.expansion) w.expanded = true;
      i = r.end;
    } else if (c === '`') {
      throw new UnsupportedSyntax('command substitution');
    } else if (c === '(' || c === ')') {
      throw new UnsupportedSyntax('subshell or grouping');
    } else if (c === ';') {
      if (next === ';' || next === '&') throw new UnsupportedSyntax('case syntax');
      i = separator(';', i, 1);
    } else if (c === '\n') {
      i = separator('\n', i, 1);
    } else if (c === '|') {
      if (next === '|') i = separator('||', i, 2);
      else if (next === '&') i = separator('|&', i, 2);
      else i = separator('|', i, 1);
    } else if (c === '&') {
      if (next === '&') i = separator('&&', i, 2);
      else if (next === '>') {
        const append = s[i + 2] === '>';
        startRedirect('&', append ? '>>' : '>');
        i += append ? 3 : 2;
      } else i = separator('&', i, 1);
    } else if (c === '>' || c === '<') {
      let fd = '';
      const w = word as WordBuilder | null;
      if (w && !w.quoted && /^\d+$/.test(w.value)) {
        fd = w.value;
        word = null;
      }
      let op: string;
      if (c === '<') {
        if (next === '<') throw new UnsupportedSyntax('here-document');
        if (next === '(') throw new UnsupportedSyntax('process substitution');
        op = next === '>' || next === '&' ? `<${next}` : '<';
      } else {
        if (next === '(') throw new UnsupportedSyntax('process substitution');
        op = next === '>' || next === '&' || next === '|' ? `>${next}` : '>';
      }
      startRedirect(fd, op);
      i += op.length;
    } else {
      const w = ensureWord(i);
      w.value += c;
      if ('*?[{'.includes(c)) w.glob = true;
      i++;
    }
  }
  endSegment(n);
  return { ok: true, commands, operators };
}

/** `NAME=value` or `NAME+=value` with an unquoted name (what bash treats as an assignment). */
function isAssignment(w: ShellWord, firstSourceChar: string | undefined): boolean {
  return (
    firstSourceChar !== undefined &&
    /[A-Za-z_]/.test(firstSourceChar) &&
    /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w.value)
  );
}

/** The source text of each simple command, or null when the line uses unsupported syntax. Never throws. */
export function splitCommand(command: string): string[] | null {
  const parsed = parseCommand(command);
  return parsed.ok ? parsed.commands.map((c) => c.text) : null;
}

// ---------------------------------------------------------------------------------------------------
// Read-only rules

/** A set of space-separated words. */
const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

/** A checker returns why the arguments make the command not read-only, or null. */
type ArgsChecker = (args: ShellWord[]) => string | null;

/** Programs that have no option that writes files or runs commands: any arguments are fine. */
const PLAIN_READ_ONLY = words(
  'ls cat head tail wc grep egrep fgrep pwd echo stat du diff cut tr jq basename dirname realpath readlink ' +
    'which printenv true false test [ nl od md5sum sha256sum column rev tac seq',
);

const isShortCluster = (v: string): boolean => /^-[^-]/.test(v);
const dynamicArg = (args: ShellWord[]): string | null =>
  args.some((a) => a.expanded || a.glob)
    ? 'an argument expands at run time and could become an option'
    : null;

/** A checker that refuses dynamic arguments and any argument `bad` flags. */
function refuse(bad: (value: string, index: number) => boolean, what: string): ArgsChecker {
  return (args) => dynamicArg(args) ?? (args.some((a, k) => bad(a.value, k)) ? what : null);
}

const FIND_BAD = words('-exec -execdir -ok -okdir -delete -fprint -fprint0 -fprintf -fls');

const CHECKERS: Record<string, ArgsChecker> = {
  find: refuse((v) => FIND_BAD.has(v), 'find with an action that runs commands or writes/deletes files'),
  sort: refuse(
    (v) =>
      v.startsWith('--output') ||
      v.startsWith('--compress-program') ||
      (isShortCluster(v) && v.includes('o')),
    'sort -o writes a file',
  ),
  printf: refuse((v, k) => k === 0 && v.startsWith('-v'), 'printf -v assigns a variable'),
  date: refuse(
    (v) => v.startsWith('--set') || (isShortCluster(v) && v.includes('s')),
    'date -s sets the clock',
  ),
  tree: refuse((v) => v.startsWith('-o') || v === '-R', 'tree -o/-R writes files'),
  file: refuse((v) => v === '--compile' || (isShortCluster(v) && v.includes('C')), 'file -C writes a file'),
  rg: refuse((v) => v.startsWith('--pre') || v.startsWith('--hostname-bin'), 'rg --pre runs a command'),
  env: (args) => (args.length > 0 ? 'env runs a command or changes the environment' : null),
  uniq: checkUniq,
  sed: checkSed,
  git: checkGit,
};

function checkUniq(args: ShellWord[]): string | null {
  const dyn = dynamicArg(args);
  if (dyn) return dyn;
  let positional = 0;
  for (let k = 0; k < args.length; k++) {
    const v = args[k].value;
    if (v === '-f' || v === '-s' || v === '-w') k++;
    else if (v === '-' || !v.startsWith('-')) positional++;
  }
  return positional > 1 ? 'uniq with two file arguments writes the second' : null;
}

const SED_FLAGS = words(
  '--quiet --silent --regexp-extended --separate --unbuffered --null-data --posix --debug --sandbox',
);

function checkSed(args: ShellWord[]): string | null {
  const dyn = dynamicArg(args);
  if (dyn) return dyn;
  const scripts: string[] = [];
  const positionals: string[] = [];
  let endOfOptions = false;
  for (let k = 0; k < args.length; k++) {
    const v = args[k].value;
    if (endOfOptions || v === '-' || !v.startsWith('-')) positionals.push(v);
    else if (v === '--') endOfOptions = true;
    else if (v === '-e' || v === '--expression') {
      if (k + 1 >= args.length) return 'sed -e without a script';
      scripts.push(args[++k].value);
    } else if (v.startsWith('--expression=')) scripts.push(v.slice('--expression='.length));
    else if (SED_FLAGS.has(v) || /^-[nErsuz]+$/.test(v)) continue;
    else return `sed option ${v} is not known to be read-only`;
  }
  if (scripts.length === 0) {
    const first = positionals.shift();
    if (first === undefined) return 'sed without a script';
    scripts.push(first);
  }
  return scripts.every(isSafeSedScript) ? null : 'sed script may write files or run commands';
}

/**
 * True when a sed script only uses commands that print, delete, substitute or transliterate, with no
 * `w`/`e` flags and no `w`/`W`/`e`/`r`/`R` commands. Unknown syntax → false.
 */
export function isSafeSedScript(script: string): boolean {
  const s = script;
  let i = 0;
  const skipBlank = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  // Reads up to the unescaped delimiter; a bracket expression containing the delimiter is refused
  // (sed implementations disagree on whether it ends the part).
  const readPart = (delim: string): boolean => {
    while (i < s.length && s[i] !== delim) {
      if (s[i] === '\n') return false;
      if (s[i] === '\\') i += 2;
      else if (s[i] === '[') {
        const close = s.indexOf(']', i + (s[i + 1] === '^' ? 3 : 2));
        if (close < 0 || s.slice(i, close).includes(delim)) return false;
        i = close + 1;
      } else i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const readAddress = (): boolean => {
    if (s[i] === '$') i++;
    else if (/[0-9]/.test(s[i] ?? '')) while (/[0-9~]/.test(s[i] ?? '')) i++;
    else if (s[i] === '/') {
      i++;
      if (!readPart('/')) return false;
      while (s[i] === 'I' || s[i] === 'M') i++;
    }
    return true;
  };
  while (i < s.length) {
    skipBlank();
    if (s[i] === ';' || s[i] === '\n') {
      i++;
      continue;
    }
    if (i >= s.length) break;
    if (!readAddress()) return false;
    if (s[i] === ',') {
      i++;
      if (s[i] === '+' || s[i] === '~') i++;
      if (!readAddress()) return false;
    }
    skipBlank();
    if (s[i] === '!') i++;
    skipBlank();
    const cmd = s[i++];
    if (cmd === undefined) return false;
    if (cmd === 's' || cmd === 'y') {
      const delim = s[i++];
      if (delim === undefined || delim === '\\' || delim === '\n' || delim === ' ') return false;
      if (!readPart(delim) || !readPart(delim)) return false;
      if (cmd === 's') while (/[gpiIm0-9]/.test(s[i] ?? '')) i++;
    } else if (cmd === 'q' || cmd === 'Q') {
      while (/[0-9]/.test(s[i] ?? '')) i++;
    } else if (!'pdnNPDgGhHxl='.includes(cmd)) return false;
    skipBlank();
    if (i < s.length && s[i] !== ';' && s[i] !== '\n') return false;
  }
  return true;
}

const GIT_READ_ONLY = new Set(['status', 'log', 'diff', 'show', 'branch']);
const GIT_BRANCH_FLAGS = words(
  '-a --all -r --remotes -v -vv --verbose -l --list --show-current --no-color --no-column -i --ignore-case',
);
const GIT_BRANCH_VALUE_FLAGS = words(
  '--contains --no-contains --merged --no-merged --points-at --sort --format --color --column',
);

function checkGit(args: ShellWord[]): string | null {
  const dyn = dynamicArg(args);
  if (dyn) return dyn;
  let k = 0;
  while (k < args.length && args[k].value.startsWith('-')) {
    const v = args[k].value;
    if (v === '--no-pager') k++;
    else if (v === '-C' && k + 1 < args.length) k += 2;
    else return `git option ${v} is not known to be read-only`;
  }
  const sub = args[k]?.value;
  if (sub === undefined || !GIT_READ_ONLY.has(sub))
    return `git ${sub ?? ''} is not a read-only git command`.trim();
  const rest = args.slice(k + 1).map((a) => a.value);
  if (rest.some((v) => v.startsWith('--output') || v === '--ext-diff')) return 'git --output writes a file';
  if (sub !== 'branch') return null;
  const listMode = rest.some((v) => v === '--list' || v === '-l');
  for (let j = 0; j < rest.length; j++) {
    const v = rest[j];
    const name = v.split('=')[0];
    if (GIT_BRANCH_FLAGS.has(v)) continue;
    if (GIT_BRANCH_VALUE_FLAGS.has(name)) {
      if (!v.includes('=') && name !== '--color' && name !== '--column') j++;
      continue;
    }
    if (!v.startsWith('-') && listMode) continue;
    return 'git branch that creates, deletes or changes branches';
  }
  return null;
}

const SAFE_REDIRECT_TARGETS = new Set(['1', '2']);

function redirectProblem(r: ShellRedirect): string | null {
  if (r.op === '>&' && (r.fd === '' || r.fd === '1' || r.fd === '2') && SAFE_REDIRECT_TARGETS.has(r.target)) {
    return null;
  }
  if ((r.op === '>' || r.op === '>>') && r.target === '/dev/null') return null;
  return `redirection ${r.fd}${r.op}${r.target}`;
}

/** Why one simple command is not read-only, or null when it is. */
function commandProblem(cmd: SimpleCommand): string | null {
  if (cmd.assignments.length > 0) return 'variable assignment';
  for (const r of cmd.redirects) {
    const problem = redirectProblem(r);
    if (problem) return problem;
  }
  return programProblem(cmd.words);
}

/**
 * Why a program with these arguments (quote-removed words, program first) is not read-only, or null
 * when it is. Redirections and assignments are the caller's concern. Shared with the permission
 * matcher's shell analysis (shell-analysis.ts), which parses with just-bash's parser. Never throws.
 */
export function programProblem(words: readonly ShellWord[]): string | null {
  const [program, ...args] = words;
  if (!program) return null;
  if (program.expanded || (program.glob && program.value !== '['))
    return 'the program name expands at run time';
  const name = program.value;
  const checker = CHECKERS[name];
  if (checker) return checker(args);
  if (PLAIN_READ_ONLY.has(name)) return null;
  return `${name} is not a known read-only command`;
}

/**
 * Parses and classifies a command line. Read-only means: every simple command runs an allowlisted
 * program with read-only arguments, no assignments, no background jobs, and only harmless redirections.
 * Never throws.
 */
export function classifyCommand(command: string): CommandClassification {
  const parsed = parseCommand(command);
  if (!parsed.ok)
    return { parsed: false, commands: [], operators: [], readOnly: false, reason: parsed.reason };
  const base = { parsed: true, commands: parsed.commands, operators: parsed.operators };
  if (parsed.commands.length === 0) return { ...base, readOnly: false, reason: 'empty command' };
  if (parsed.operators.includes('&')) return { ...base, readOnly: false, reason: 'background job' };
  for (const cmd of parsed.commands) {
    const reason = commandProblem(cmd);
    if (reason) return { ...base, readOnly: false, reason };
  }
  return { ...base, readOnly: true };
}

/** True only when `classifyCommand` proves the command read-only. Never throws. */
export function isReadOnlyCommand(command: string): boolean {
  return classifyCommand(command).readOnly;
}

/** Programs that delete or destroy data. */
const DESTRUCTIVE_PROGRAMS = words('rm rmdir unlink shred truncate dd mkfs wipefs kill pkill killall');

/** Why a git invocation throws work away, or null. */
function gitDestroys(args: readonly string[]): boolean {
  const [sub, ...rest] = args;
  if (sub === 'clean' || sub === 'restore') return true;
  if (sub === 'reset') return rest.includes('--hard') || rest.includes('--merge');
  if (sub === 'checkout') return rest.includes('--') || rest.includes('.') || rest.includes('-f');
  if (sub === 'push') return rest.some((a) => a === '-f' || a.startsWith('--force') || a === '--delete');
  if (sub === 'branch') return rest.some((a) => a === '-D' || a === '--delete');
  return false;
}

/**
 * True when a command may delete or overwrite data: rm-like programs, `find -delete`, `git reset --hard`
 * and friends, `>` onto a file. A line the classifier cannot parse counts as destructive. Never throws.
 */
export function isDestructiveCommand(command: string): boolean {
  const parsed = parseCommand(command);
  if (!parsed.ok) return true;
  return parsed.commands.some((cmd) => {
    if (cmd.redirects.some((r) => (r.op === '>' || r.op === '>|') && r.target !== '/dev/null')) return true;
    const [program, ...args] = cmd.argv;
    if (program === undefined) return false;
    const name = program.slice(program.lastIndexOf('/') + 1);
    if (DESTRUCTIVE_PROGRAMS.has(name)) return true;
    if (name === 'find') return args.includes('-delete');
    return name === 'git' && gitDestroys(args.filter((a) => !a.startsWith('-C')));
  });
}
