/**
 * awk: its options and its program. A program writes files through `print > "FILE"` / `>>` and runs
 * commands through `system(...)`, `print | "cmd"` and `"cmd" | getline`. A literal target or command
 * is named (a command is parsed as shell); anything else, or text the reader cannot follow, makes awk
 * opaque.
 */

import type { PathUse, ProgramFacts } from './facts.ts';
import { type ParsedArgs, parseArgs } from './options.ts';
import type { ShellWord } from './types.ts';

const AWK_OPTIONS = {
  short: { F: 'value', v: 'value', f: 'read', e: 'value', i: 'read', l: 'read', E: 'read' } as const,
  long: {
    '--field-separator': 'value',
    '--assign': 'value',
    '--file': 'read',
    '--source': 'value',
    '--include': 'read',
    '--load': 'read',
    '--exec': 'read',
  } as const,
};

/** Flags that change nothing outside awk. */
const HARMLESS = new Set(
  '-b -c -C -g -h -M -n -N -O -P -r -s -S -t -V --sandbox --posix --traditional --re-interval --characters-as-bytes --version --help'.split(
    ' ',
  ),
);

/** What an awk program does. */
export interface AwkProgram {
  writes: string[];
  /** A write whose target is an expression (only known at run time). */
  dynamicWrite: boolean;
  /** A `getline < file` whose file is an expression. */
  dynamicRead: boolean;
  reads: string[];
  /** Shell commands it runs, when given as literal strings. */
  commands: string[];
  /** Why it runs something it cannot name, or the reader got lost. */
  opaque: string | null;
}

type Token =
  | { kind: 'str'; value: string }
  | { kind: 'regex' }
  | { kind: 'word'; value: string }
  | { kind: 'op'; value: string }
  | { kind: 'end' };

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' };

/**
 * The text of the escape after a backslash at `at` in a string, and its length: `\056` (octal, up to 3
 * digits) and `\x2e` (hex, up to 2) name any character (`"\056env"` is `.env`), `\n` and the like;
 * another character stands for itself.
 */
function awkEscape(src: string, at: number): [string, number] {
  const octal = /^[0-7]{1,3}/.exec(src.slice(at, at + 3));
  if (octal) return [String.fromCharCode(Number.parseInt(octal[0], 8)), octal[0].length];
  const hex = /^x([0-9A-Fa-f]{1,2})/.exec(src.slice(at, at + 3));
  if (hex) return [String.fromCharCode(Number.parseInt(hex[1], 16)), hex[0].length];
  const e = src[at];
  return [ESCAPES[e] ?? e, 1];
}

/** Splits an awk program into tokens; null when a string or regex does not end. */
function tokenize(src: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  const operandBefore = (): boolean => {
    const last = tokens[tokens.length - 1];
    if (!last) return false;
    if (last.kind === 'str' || last.kind === 'regex') return true;
    if (last.kind === 'word')
      return !/^(print|printf|return|in|getline|case|if|while|for|do|else)$/.test(last.value);
    return last.kind === 'op' && (last.value === ')' || last.value === ']' || last.value === '$');
  };
  while (i < src.length) {
    const c = src[i];
    const last = tokens[tokens.length - 1];
    // `x++ / 2`: a division in some awks, a regex in others (mawk): the program means two things. So does
    // `getline / 1` (a division to just-bash and mawk) and a `/` after in, else or case.
    if (c === '/' && last?.kind === 'op' && (last.value === '++' || last.value === '--')) return null;
    if (c === '/' && last?.kind === 'word' && /^(getline|in|else|case)$/.test(last.value)) return null;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
    } else if (c === '\n' || c === ';') {
      tokens.push({ kind: 'end' });
      i++;
    } else if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '"') {
      let value = '';
      i++;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === '\\' && i + 1 < src.length) {
          const [text, length] = awkEscape(src, i + 1);
          value += text;
          i += 1 + length;
        } else if (src[i] === '\n') return null;
        else value += src[i++];
      }
      if (i >= src.length) return null;
      i++;
      tokens.push({ kind: 'str', value });
    } else if (c === '/' && !operandBefore()) {
      i++;
      let inClass = false;
      while (i < src.length && (src[i] !== '/' || inClass)) {
        if (src[i] === '\\') i++;
        else if (src[i] === '[' && !inClass) {
          // `[]…]`, `[^]…]`: a literal `]` in POSIX awk and mawk, an empty class in others (just-bash's):
          // where the regex ends, and so what is code, differs.
          if (src[i + 1] === ']' || (src[i + 1] === '^' && src[i + 2] === ']')) return null;
          inClass = true;
        } else if (src[i] === ']') inClass = false;
        else if (src[i] === '\n') return null;
        // `/[/]/`: a `/` in a bracket expression to POSIX awk and gawk, the regex's end to just-bash's awk,
        // which reads what follows as code (`x = /[/; getline < ".env"; y = /]/`).
        else if (src[i] === '/' && inClass) return null;
        i++;
      }
      if (i >= src.length) return null;
      i++;
      tokens.push({ kind: 'regex' });
    } else if (/[A-Za-z_@]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[A-Za-z0-9_]/.test(src[j])) j++;
      tokens.push({ kind: 'word', value: src.slice(i, j) });
      i = j;
    } else if (/[0-9.]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[0-9.eE]/.test(src[j])) j++;
      tokens.push({ kind: 'word', value: src.slice(i, j) });
      i = j;
    } else {
      const two = src.slice(i, i + 2);
      const op = [
        '>>',
        '||',
        '&&',
        '|&',
        '==',
        '!=',
        '<=',
        '>=',
        '++',
        '--',
        '+=',
        '-=',
        '*=',
        '/=',
        '%=',
        '^=',
        '**',
      ].includes(two)
        ? two
        : c;
      tokens.push({ kind: 'op', value: op });
      i += op.length;
    }
  }
  return tokens;
}

/**
 * Tokens an expression starts after: a string right after one is the whole of `STRING | getline`'s
 * command. After anything else it may be the end of a longer one: joined to an operand (`(a) "ls"`,
 * `a[1] "ls"`, `$"0"`) or to a comparison that a string joins in turn (`"cat .env; " x == "ls"`).
 */
const EXPRESSION_START = new Set([
  '{',
  '}',
  '(',
  ',',
  ';',
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '?',
  ':',
  '&&',
  '||',
]);
const startsExpression = (t: Token | undefined): boolean =>
  t === undefined || t.kind === 'end' || (t.kind === 'op' && EXPRESSION_START.has(t.value));

/** Reads an awk program. Never throws; what it cannot follow gives `opaque`. */
export function readAwkProgram(src: string): AwkProgram {
  const out: AwkProgram = {
    writes: [],
    dynamicWrite: false,
    dynamicRead: false,
    reads: [],
    commands: [],
    opaque: null,
  };
  const tokens = tokenize(src);
  if (!tokens) {
    out.opaque = 'an awk program the reader cannot follow';
    return out;
  }
  // Inside a print/printf statement (depth of parentheses when it began), `>` redirects.
  let printDepth: number | null = null;
  let depth = 0;
  // A getline earlier in the statement: a `<` after it (past any target: `getline $1 < f`) opens a file.
  let afterGetline = false;
  /** A string that the next token joins to (awk concatenates side by side): the whole is an expression. */
  const joined = (k: number) => {
    const after = tokens[k + 1];
    return (
      after !== undefined &&
      (after.kind === 'str' ||
        after.kind === 'word' ||
        (after.kind === 'op' && (after.value === '(' || after.value === '$')))
    );
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const next = tokens[k + 1];
    const prev = tokens[k - 1];
    if (t.kind === 'end' || (t.kind === 'op' && (t.value === '{' || t.value === '}'))) {
      printDepth = null;
      afterGetline = false;
      if (t.kind === 'op') depth = 0;
      continue;
    }
    if (t.kind === 'word') {
      if (t.value === 'getline') afterGetline = true;
      // ARGV and ARGC name the input files: a program that changes them reads files its words do not show.
      if (t.value === 'ARGV' || t.value === 'ARGC') out.dynamicRead = true;
      if (t.value === 'print' || t.value === 'printf') printDepth = depth;
      else if (t.value.startsWith('@')) out.opaque ??= `awk ${t.value} loads code`;
      else if (t.value === 'system') {
        const arg = tokens[k + 2];
        if (
          next?.kind === 'op' &&
          next.value === '(' &&
          arg?.kind === 'str' &&
          tokens[k + 3]?.kind === 'op'
        ) {
          out.commands.push(arg.value);
        } else out.opaque ??= 'awk system() runs a command only known at run time';
      }
      continue;
    }
    if (t.kind !== 'op') continue;
    if (t.value === '<' && afterGetline) {
      // `getline < "file"`, `getline line < "file"`, `getline $1 < "file"`.
      if (next?.kind === 'str' && !joined(k + 1)) out.reads.push(next.value);
      else out.dynamicRead = true;
    } else if (t.value === '(' || t.value === '[') depth++;
    else if (t.value === ')' || t.value === ']') depth = Math.max(0, depth - 1);
    else if (t.value === '|' || t.value === '|&') {
      // `print ... | "cmd"` or `"cmd" | getline`. The command of a getline is the whole expression before
      // the `|` (just-bash's awk takes all of an `||` expression): a string is all of it only right after
      // the start of one.
      const cmd =
        next?.kind === 'str' && printDepth !== null && !joined(k + 1)
          ? next
          : prev?.kind === 'str' && startsExpression(tokens[k - 2])
            ? prev
            : undefined;
      if (cmd?.kind === 'str') out.commands.push(cmd.value);
      else out.opaque ??= 'an awk pipe runs a command only known at run time';
    } else if ((t.value === '>' || t.value === '>>') && printDepth !== null && depth === printDepth) {
      // just-bash's awk appends by reading the file and writing it whole: through a link (/dev/stderr
      // may be one), `>>` copies what it leads to into the file, so the file is read too.
      const append = t.value === '>>';
      if (next?.kind === 'str' && !joined(k + 1)) {
        if (!/^\/dev\/(stdout|stderr)$/.test(next.value)) out.writes.push(next.value);
        if (append) out.reads.push(next.value);
      } else {
        out.dynamicWrite = true;
        if (append) out.dynamicRead = true;
      }
    }
  }
  return out;
}

const word = (text: string): ShellWord => ({ text, dynamic: false, glob: false });

/** Options whose value is a program file (`-f`, gawk's `-i` and `-l` and `-E`). */
const FROM_FILE = ['-f', '--file', '-i', '--include', '-l', '--load', '-E', '--exec'];

/**
 * The readings of awk's words. Every awk stops reading options at its program (`awk 'PROG' -e 1` reads
 * the files `-e` and `1`). They differ on a lone `-` there: the program to POSIX, skipped by just-bash's
 * awk (`awk - 'PROG'` runs PROG). Both readings count.
 */
function awkReadings(args: readonly ShellWord[]): ParsedArgs[] {
  const posix = parseArgs(args, AWK_OPTIONS, { stopAtOperand: true });
  let words = args;
  let skipped = posix;
  for (let dash = posix.operands[0]; dash?.text === '-' && !dash.dynamic; dash = skipped.operands[0]) {
    words = words.filter((w) => w !== dash);
    skipped = parseArgs(words, AWK_OPTIONS, { stopAtOperand: true });
  }
  return skipped === posix ? [posix] : [posix, skipped];
}

/** Facts of an awk call. */
export function analyzeAwk(args: readonly ShellWord[]): ProgramFacts {
  const readings = awkReadings(args);
  const paths: PathUse[] = [];
  const facts: ProgramFacts = {
    paths,
    problem: null,
    scripts: [],
    opaque: false,
    evaluates: [],
    evaluatedTexts: [],
    destructive: false,
    changesState: false,
  };
  const programs = new Set<ShellWord>();
  const fromFiles = new Set<ShellWord>();
  const operands = new Set<ShellWord>();
  for (const a of readings) {
    const own = a.values.filter((v) => v.option === '-e' || v.option === '--source').map((v) => v.word);
    const files = a.values.filter((v) => FROM_FILE.includes(v.option)).map((v) => v.word);
    const rest = [...a.operands];
    if (own.length === 0 && files.length === 0) {
      const first = rest.shift();
      if (first) own.push(first);
      else facts.problem ??= 'awk without a program';
    }
    for (const w of own) programs.add(w);
    for (const w of files) fromFiles.add(w);
    for (const w of rest) operands.add(w);
  }
  // The rest are input files. A `var=value` operand assigns in most awks, but just-bash's opens it as a
  // file (and its fs takes `..` by the text: `a=/../.env` is .env), so it is read all the same.
  for (const w of operands) paths.push({ word: w, access: 'read', sure: !w.dynamic, recursive: false });
  for (const w of fromFiles) {
    paths.push({ word: w, access: 'read', sure: true, recursive: false });
    facts.opaque = true;
    facts.problem ??= 'awk runs a program from a file';
  }
  const valueOptions = [
    ...Object.keys(AWK_OPTIONS.short).map((l) => `-${l}`),
    ...Object.keys(AWK_OPTIONS.long),
  ];
  const flags = readings.flatMap((a) => [...a.flags]);
  const unknown = flags.find((f) => !HARMLESS.has(f) && !valueOptions.includes(f));
  if (unknown) facts.problem ??= `awk option ${unknown} is not known to be read-only`;
  if (readings.some((a) => a.dynamicOption))
    facts.problem ??= 'an argument of awk only known at run time could be an option that writes';
  for (const w of programs) {
    if (w.dynamic) {
      facts.opaque = true;
      facts.problem ??= 'the awk program is only known at run time';
      continue;
    }
    const program = readAwkProgram(w.text);
    if (program.opaque) {
      facts.opaque = true;
      facts.problem ??= program.opaque;
    }
    for (const f of program.writes)
      paths.push({ word: word(f), access: 'write', sure: true, recursive: false });
    for (const f of program.reads)
      paths.push({ word: word(f), access: 'read', sure: true, recursive: false });
    if (program.dynamicRead) {
      paths.push({
        word: { text: '(awk input file)', dynamic: true, glob: false },
        access: 'read',
        sure: false,
        recursive: false,
      });
    }
    if (program.dynamicWrite) {
      paths.push({
        word: { text: '(awk output file)', dynamic: true, glob: false },
        access: 'write',
        sure: false,
        recursive: false,
      });
      facts.problem ??= 'the awk program writes to a file only known at run time';
    }
    facts.scripts.push(...program.commands);
    if (program.writes.length > 0) facts.problem ??= 'the awk program writes a file';
    if (program.commands.length > 0) facts.problem ??= 'the awk program runs a command';
  }
  return facts;
}
