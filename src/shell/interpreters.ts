/**
 * Shells and interpreters: what a shell invocation runs (`-c` text, a script file, standard input), how
 * an interpreter gets its code (`node -e`, `python3 FILE`), and the files a command reads as code
 * (`source FILE`, `sh FILE`). Pure functions over quote-removed words, used by the walker.
 */
import type { ShellWord } from './types.ts';

/** Shells: `-c text` runs text; otherwise they run a script file or their standard input. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish']);

/**
 * What a shell invocation runs: the `-c` text, a script file, or standard input; `file` may carry what
 * another shell runs instead (`text`, `stdin`), for the analysis to read too.
 */
export type ShellInvocation =
  | { kind: 'text'; text: ShellWord }
  | { kind: 'file'; text?: ShellWord; stdin?: true }
  | { kind: 'stdin' };

/**
 * The script file just-bash's bash and sh run, or null: their one option is a first `-c` with a text
 * after it, and any other first word is a script file (`bash -e -c 'ls'` runs the file `-e`, `sh -s` the
 * file `-s`, `bash -lc CMD` the file `-lc`).
 */
function justBashScript(words: readonly ShellWord[]): ShellWord | null {
  const first = words[1];
  if (!first || (!first.dynamic && first.text === '-c' && words.length > 2)) return null;
  return first;
}

/**
 * What a shell invocation runs, as bash reads it (options before the first operand are skipped: `bash
 * -e -o pipefail -c '...'`) and as just-bash's does: where just-bash runs a script file instead, a file.
 */
export function shellInvocation(words: readonly ShellWord[]): ShellInvocation {
  const bash = bashInvocation(words);
  if (bash.kind === 'file' || !justBashScript(words)) return bash;
  return bash.kind === 'text' ? { kind: 'file', text: bash.text } : { kind: 'file', stdin: true };
}

function bashInvocation(
  words: readonly ShellWord[],
): { kind: 'text'; text: ShellWord } | { kind: 'file' } | { kind: 'stdin' } {
  let hasC = false;
  let hasS = false;
  let i = 1;
  for (; i < words.length; i++) {
    const w = words[i];
    if (w.dynamic) return { kind: 'file' };
    const t = w.text;
    if (t === '--' || t === '-') {
      i++;
      break;
    }
    if (!t.startsWith('-') && !t.startsWith('+')) break;
    if (/^[-+]o$/.test(t) || t === '-O' || t === '--rcfile' || t === '--init-file') i++;
    else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(t)) hasC = true;
    else if (/^-[A-Za-z]*s[A-Za-z]*$/.test(t)) hasS = true;
  }
  if (hasC) return i < words.length ? { kind: 'text', text: words[i] } : { kind: 'file' };
  // `sh -s ARGS`: the commands come from standard input, the operands are its arguments.
  return i < words.length && !hasS ? { kind: 'file' } : { kind: 'stdin' };
}

/** Interpreters and the options that give them code inline. */
const INTERPRETER_CODE_FLAGS: Record<string, readonly string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print', '-pe'],
  nodejs: ['-e', '--eval', '-p', '--print', '-pe'],
  bun: ['-e', '--eval', '-p', '--print'],
  js: ['-e'],
  // just-bash's JavaScript runner.
  'js-exec': ['-c'],
  deno: ['eval'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  tclsh: [],
  Rscript: ['-e'],
};

/**
 * How an interpreter call gets its code: `inline` (`node -e`, `python3 -c`: the code is in the command,
 * and may do anything), `stdin` (no script: a here-doc or a pipe feeds it), `file` (a script), or null
 * when the program is not an interpreter or runs no code (`node --version`).
 */
export function interpreterCode(words: readonly ShellWord[]): 'inline' | 'stdin' | 'file' | null {
  const name = words[0]?.text ?? '';
  const flags = INTERPRETER_CODE_FLAGS[name] ?? INTERPRETER_CODE_FLAGS[name.replace(/[0-9.]+$/, '')];
  if (!flags) return null;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w.dynamic) return 'inline';
    if (flags.includes(w.text) || flags.some((f) => f.startsWith('--') && w.text.startsWith(`${f}=`))) {
      return 'inline';
    }
    if (w.text === '-') return 'stdin';
    if (!w.text.startsWith('-')) return 'file';
  }
  // Only options: a version or help flag prints and exits (no code runs); anything else reads code from stdin.
  return words.slice(1).some((w) => /^(-v|-V|--version|-h|--help)$/.test(w.text)) ? null : 'stdin';
}

/**
 * The files a command reads as code (`source FILE`, `. FILE`, `sh FILE`, `bash --rcfile FILE`, `python3
 * FILE`, `node FILE`): the analysis cannot see what they run, but the file is surely read, so a Read
 * rule on it denies (the shell's error messages print a file that is not shell).
 */
export function scriptFiles(words: readonly ShellWord[]): ShellWord[] {
  const name = words[0] && !words[0].dynamic ? words[0].text : '';
  if (name === 'source' || name === '.') {
    const file = words[1]?.text === '--' && !words[1].dynamic ? words[2] : words[1];
    return file ? [file] : [];
  }
  const out: ShellWord[] = [];
  if (SHELLS.has(name)) {
    let i = 1;
    let hasC = false;
    for (; i < words.length; i++) {
      const t = words[i].text;
      if (words[i].dynamic) return out;
      if (t === '--' || t === '-') {
        i++;
        break;
      }
      if (!t.startsWith('-') && !t.startsWith('+')) break;
      if (t === '--rcfile' || t === '--init-file') {
        if (words[i + 1]) out.push(words[i + 1]);
        i++;
      } else if (/^[-+]o$/.test(t) || t === '-O') i++;
      else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(t)) hasC = true;
      else if (/^-[A-Za-z]*s[A-Za-z]*$/.test(t)) hasC = true;
    }
    // With -c the operand is the command text; with -s the operands are arguments (code from stdin).
    if (!hasC && words[i]) out.push(words[i]);
    const script = justBashScript(words);
    if (script && !out.includes(script)) out.push(script);
    return out;
  }
  if (interpreterCode(words) === 'file') {
    const file = words.slice(1).find((w) => !w.text.startsWith('-'));
    if (file) out.push(file);
  }
  return out;
}
