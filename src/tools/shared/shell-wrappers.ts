/**
 * Commands that run other commands: wrappers (`env`, `command`, `timeout`, `nice`, `sudo`, `xargs`...),
 * `find -exec`, and inline code of interpreters. Pure functions over quote-removed words, used by the
 * permission matcher (shell-analysis.ts) to find what finally runs.
 */
import type { ShellWordInfo } from '../../core/permissions/types.ts';

/** What a wrapper chain finally runs. */
export interface Unwrapped {
  /** The command that runs (program first); empty when the wrapper runs nothing (`env`, `command -v x`). */
  words: ShellWordInfo[];
  /** Every wrapper leaves what runs unchanged (command, builtin, exec, nohup, nice, timeout, stdbuf, time). */
  transparent: boolean;
  /** A wrapper changes the environment (`env NAME=value`, `env -i`, `sudo`). */
  changesEnvironment: boolean;
  /** Only looks a command up (`command -v`, `command -V`). */
  lookup: boolean;
  /** `env -C dir`: the directory the command runs in. */
  chdir?: ShellWordInfo;
  /** `env -S "text"`: a command line to parse (followed by the remaining words). */
  splitString?: ShellWordInfo;
  /** `xargs`: the command gets more arguments at run time. */
  xargs: boolean;
}

const DYNAMIC: ShellWordInfo = { text: '…', dynamic: true, glob: false };

interface OptionSpec {
  /** Short options that take a value (the rest of the cluster, or the next word). */
  short: string;
  /** Long options that take a value in the next word when written without `=`. */
  long: readonly string[];
}

/**
 * Index of the first word after the options starting at `start`. A run-time word stops the scan (it is
 * then taken as the program, which only known at run time).
 */
function skipOptions(words: readonly ShellWordInfo[], start: number, spec: OptionSpec): number {
  let i = start;
  while (i < words.length) {
    const w = words[i];
    if (w.dynamic) return i;
    const t = w.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-') || t === '-') return i;
    if (t.startsWith('--')) {
      const name = t.split('=')[0];
      i += spec.long.includes(name) && !t.includes('=') ? 2 : 1;
      continue;
    }
    let next = 1;
    for (let j = 1; j < t.length; j++) {
      if (spec.short.includes(t[j])) {
        if (j === t.length - 1) next = 2;
        break;
      }
    }
    i += next;
  }
  return i;
}

const NO_OPTIONS: OptionSpec = { short: '', long: [] };

/** Wrappers that run the rest of their words as a command, and how to skip their options. */
const WRAPPERS: Record<string, { spec: OptionSpec; transparent: boolean; positional?: number }> = {
  command: { spec: NO_OPTIONS, transparent: true },
  builtin: { spec: NO_OPTIONS, transparent: true },
  exec: { spec: { short: 'a', long: [] }, transparent: true },
  nohup: { spec: NO_OPTIONS, transparent: true },
  nice: { spec: { short: 'n', long: ['--adjustment'] }, transparent: true },
  timeout: { spec: { short: 'sk', long: ['--signal', '--kill-after'] }, transparent: true, positional: 1 },
  stdbuf: { spec: { short: 'ioe', long: ['--input', '--output', '--error'] }, transparent: true },
  time: { spec: { short: 'fo', long: ['--format', '--output'] }, transparent: true },
  sudo: {
    spec: {
      short: 'ugCDhprtTU',
      long: ['--user', '--group', '--chdir', '--host', '--prompt', '--close-from'],
    },
    transparent: false,
  },
  doas: { spec: { short: 'uC', long: [] }, transparent: false },
  setsid: { spec: NO_OPTIONS, transparent: true },
  ionice: { spec: { short: 'cnp', long: ['--class', '--classdata', '--pid'] }, transparent: true },
  chrt: { spec: NO_OPTIONS, transparent: false },
  taskset: { spec: NO_OPTIONS, transparent: false },
  unbuffer: { spec: NO_OPTIONS, transparent: true },
};

const XARGS_SPEC: OptionSpec = {
  short: 'adEILnPsil',
  long: ['--arg-file', '--delimiter', '--eof', '--max-lines', '--max-args', '--max-procs', '--max-chars'],
};

const ENV_SPEC: OptionSpec = { short: 'uCS', long: ['--unset', '--chdir', '--split-string'] };

const isAssignmentWord = (w: ShellWordInfo): boolean => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text);

/** Unwraps one `env` call; returns the index of the command and what env does. */
function unwrapEnv(words: readonly ShellWordInfo[], out: Unwrapped): number {
  let i = 1;
  while (i < words.length) {
    const w = words[i];
    if (w.dynamic) return i;
    const t = w.text;
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-' || t === '-i' || t === '--ignore-environment') out.changesEnvironment = true;
    else if (t === '-C' || t === '--chdir') out.chdir = words[++i];
    else if (t.startsWith('--chdir=')) out.chdir = { ...w, text: t.slice('--chdir='.length) };
    else if (t.startsWith('-C') && t.length > 2) out.chdir = { ...w, text: t.slice(2) };
    else if (t === '-S' || t === '--split-string') out.splitString = words[++i];
    else if (t.startsWith('--split-string=')) out.splitString = { ...w, text: t.slice(15) };
    else if (t.startsWith('-S') && t.length > 2) out.splitString = { ...w, text: t.slice(2) };
    else if (t.startsWith('-')) {
      const next = skipOptions(words, i, ENV_SPEC);
      if (next > i + 1) out.changesEnvironment = true;
      i = next;
      continue;
    } else if (isAssignmentWord(w)) out.changesEnvironment = true;
    else break;
    i++;
  }
  while (i < words.length && isAssignmentWord(words[i]) && !words[i].dynamic) {
    out.changesEnvironment = true;
    i++;
  }
  return i;
}

/** Follows a chain of wrappers (`sudo env FOO=1 timeout 5 rm -rf x` → `rm -rf x`). Never throws. */
export function unwrapCommand(words: readonly ShellWordInfo[]): Unwrapped {
  const out: Unwrapped = {
    words: [...words],
    transparent: true,
    changesEnvironment: false,
    lookup: false,
    xargs: false,
  };
  for (let depth = 0; depth < 16 && out.words.length > 0; depth++) {
    const [program] = out.words;
    if (program.dynamic) break;
    const name = program.text;
    let start: number;
    if (name === 'env') {
      start = unwrapEnv(out.words, out);
      out.transparent = out.transparent && !out.changesEnvironment && !out.chdir && !out.splitString;
    } else if (name === 'command' && /^-[pvV]+$/.test(out.words[1]?.text ?? '')) {
      if (/[vV]/.test(out.words[1].text)) {
        out.lookup = true;
        out.words = [];
        break;
      }
      start = 2;
    } else if (name === 'xargs') {
      start = skipOptions(out.words, 1, XARGS_SPEC);
      const replace = out.words
        .slice(1, start)
        .map((w, k, arr) =>
          w.text === '-I' ? arr[k + 1]?.text : /^-I./.test(w.text) ? w.text.slice(2) : null,
        )
        .find((r): r is string => typeof r === 'string');
      const hasReplace =
        replace !== undefined || out.words.slice(1, start).some((w) => /^(-i|--replace)/.test(w.text));
      let rest = out.words.slice(start);
      if (rest.length === 0) rest = [{ text: 'echo', dynamic: false, glob: false }];
      const token = replace ?? '{}';
      out.words = hasReplace
        ? rest.map((w) => (w.text.includes(token) ? { ...w, dynamic: true } : w))
        : [...rest, DYNAMIC];
      out.xargs = true;
      out.transparent = false;
      continue;
    } else {
      const wrapper = WRAPPERS[name];
      if (!wrapper) break;
      start = skipOptions(out.words, 1, wrapper.spec) + (wrapper.positional ?? 0);
      if (!wrapper.transparent) {
        out.transparent = false;
        out.changesEnvironment = true;
      }
    }
    out.words = out.words.slice(start);
  }
  return out;
}

/** The commands `find` runs with -exec/-execdir/-ok/-okdir (`{}` is only known at run time). */
export function findExecCommands(words: readonly ShellWordInfo[]): ShellWordInfo[][] {
  const out: ShellWordInfo[][] = [];
  for (let i = 1; i < words.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[i].text)) continue;
    const cmd: ShellWordInfo[] = [];
    let j = i + 1;
    for (; j < words.length; j++) {
      const t = words[j].text;
      if (t === ';' || (t === '+' && cmd.length > 0)) break;
      cmd.push(t.includes('{}') ? { ...words[j], dynamic: true } : words[j]);
    }
    out.push(cmd.length > 0 ? cmd : [DYNAMIC]);
    i = j;
  }
  return out;
}

/** Shells: `-c text` runs text; otherwise they run a script file or their standard input. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish', 'busybox']);

/**
 * What a shell invocation runs: the `-c` text, a script file, or standard input. Options before the
 * first operand are skipped (`bash -e -o pipefail -c '...'`).
 */
export function shellInvocation(
  words: readonly ShellWordInfo[],
): { kind: 'text'; text: ShellWordInfo } | { kind: 'file' } | { kind: 'stdin' } {
  let hasC = false;
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
  }
  if (hasC) return i < words.length ? { kind: 'text', text: words[i] } : { kind: 'file' };
  return i < words.length ? { kind: 'file' } : { kind: 'stdin' };
}

const INTERPRETER_CODE_FLAGS: Record<string, readonly string[]> = {
  python: ['-c'],
  python3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  js: ['-e'],
  deno: ['eval'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
};

const SPAWNS = /\b(system|exec\w*|spawn\w*|popen\w*|subprocess|child_process|fork|shell_exec|passthru)\b|`/;

/**
 * True when an interpreter call runs inline code that can start other commands (`python3 -c
 * "os.system(...)"`, `awk 'BEGIN { system("...") }'`): its commands cannot be seen.
 */
export function inlineCodeSpawns(words: readonly ShellWordInfo[]): boolean {
  const name = words[0]?.text ?? '';
  if (/^(g|m|n)?awk$/.test(name)) {
    return words.slice(1).some((w) => w.dynamic || /\bsystem\s*\(|\|/.test(w.text));
  }
  const flags = INTERPRETER_CODE_FLAGS[name.replace(/[0-9.]+$/, '')] ?? INTERPRETER_CODE_FLAGS[name];
  if (!flags) return false;
  for (let i = 1; i < words.length - 1; i++) {
    if (flags.includes(words[i].text)) {
      const code = words[i + 1];
      return code.dynamic || SPAWNS.test(code.text);
    }
  }
  return false;
}

/**
 * True when an interpreter with no script argument reads code from a here-doc or here-string that can
 * start other commands (`python3 <<EOF ... os.system(...) EOF`).
 */
export function stdinCodeSpawns(words: readonly ShellWordInfo[], stdin: string): boolean {
  const name = (words[0]?.text ?? '').replace(/[0-9.]+$/, '');
  if (!(name in INTERPRETER_CODE_FLAGS) && !/^(g|m|n)?awk$/.test(name)) return false;
  if (words.slice(1).some((w) => !w.text.startsWith('-'))) return false;
  return SPAWNS.test(stdin);
}
