/**
 * Commands that run other commands: following wrapper chains (`env`, `command`, `timeout`, `sudo`,
 * `xargs`...; the table of wrappers is in wrapper-table.ts) and `find -exec`. Pure functions over
 * quote-removed words, used by the walker to find what finally runs.
 */
import { isPlainVariable } from './session.ts';
import type { PathAccess, ShellWord } from './types.ts';
import { type OptionSpec, WRAPPERS, type Wrapper } from './wrapper-table.ts';

/** What a wrapper chain finally runs. */
export interface Unwrapped {
  /** The command that runs (program first); empty when the wrapper runs nothing (`env`, `command -v x`). */
  words: ShellWord[];
  /** Every wrapper leaves what runs unchanged (command, builtin, exec, nohup, nice, timeout, stdbuf, time). */
  transparent: boolean;
  /**
   * A wrapper changes the environment (`env NAME=value`, `env -i`, `sudo`); not when `env` only sets
   * variables of the script's own (`env dir=src ls`, as `dir=src ls` is read-only).
   */
  changesEnvironment: boolean;
  /** Variables a wrapper sets for the command (`env NAME=value cmd`). */
  sets?: string[];
  /**
   * Variables the wrappers set or unset for the command (`env HOME=x`, `env -u PATH`), or 'any' (`env
   * -i`, `sudo`): the code the command runs sees them, so they count as the line's assignments, as
   * `HOME=x cmd` does (session.ts then reads `~` and PATH as unknown).
   */
  assigns: string[] | 'any';
  /** Only looks a command up (`command -v`, `command -V`). */
  lookup: boolean;
  /** `env -C dir`: the directory the command runs in. */
  chdir?: ShellWord;
  /** `env -S "text"`: a command line to parse (followed by the remaining words). */
  splitString?: ShellWord;
  /** `xargs`: the command gets more arguments at run time. */
  xargs: boolean;
  /** Files the wrappers themselves use (`time -o FILE`, `xargs -a FILE`). */
  paths: Array<{ word: ShellWord; access: PathAccess }>;
}

const DYNAMIC: ShellWord = { text: '…', dynamic: true, glob: false, split: true };

/**
 * Index of the first word after the options starting at `start`. A run-time word stops the scan (it is
 * then taken as the program, which only known at run time).
 */
function skipOptions(
  words: readonly ShellWord[],
  start: number,
  spec: OptionSpec,
  paths?: Unwrapped['paths'],
): number {
  let i = start;
  const file = (option: string, word: ShellWord | undefined) => {
    const access = spec.files?.[option];
    if (access && word && paths) paths.push({ word, access });
  };
  while (i < words.length) {
    const w = words[i];
    if (w.dynamic) return i;
    const t = w.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-') || t === '-') return i;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const given = eq < 0 ? t : t.slice(0, eq);
      // getopt_long takes an unambiguous prefix (`time --out=FILE`, `timeout --sig KILL 5 cmd`).
      const name = spec.long.includes(given) ? given : (spec.long.find((o) => o.startsWith(given)) ?? given);
      if (eq >= 0) file(name, { ...w, text: t.slice(eq + 1) });
      else if (spec.long.includes(name)) file(name, words[i + 1]);
      i += spec.long.includes(name) && eq < 0 ? 2 : 1;
      continue;
    }
    let next = 1;
    for (let j = 1; j < t.length; j++) {
      if (spec.short.includes(t[j])) {
        if (j === t.length - 1) {
          next = 2;
          file(`-${t[j]}`, words[i + 1]);
        } else file(`-${t[j]}`, { ...w, text: t.slice(j + 1) });
        break;
      }
    }
    i += next;
  }
  return i;
}

const SHELL_WORD: ShellWord = { text: 'sh', dynamic: false, glob: false };
const DASH_C: ShellWord = { text: '-c', dynamic: false, glob: false };

/**
 * The command line a wrapper runs with `sh -c` (`flock FILE -c 'CMD'`, `su -c 'CMD' root`: getopt takes
 * options after operands too), or null.
 */
function commandOption(words: readonly ShellWord[], wrapper: Wrapper): ShellWord | null {
  const names = wrapper.commandOptions;
  if (!names) return null;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w.dynamic) continue;
    const t = w.text;
    if (t === '--') return null;
    const eq = t.indexOf('=');
    const given = t.startsWith('--') && eq > 0 ? t.slice(0, eq) : t;
    const long = names.find((n) => n.startsWith('--') && given.length > 3 && n.startsWith(given));
    if (long && eq > 0) return { ...w, text: t.slice(eq + 1) };
    if (long || names.includes(t)) return words[i + 1] ?? null;
    // `-c` glued in a short cluster (`-fc CMD`, `-cCMD`).
    const short = names.find((n) => n.length === 2);
    if (short && /^-[A-Za-z]+/.test(t) && !t.startsWith('--')) {
      const k = t.indexOf(short[1]);
      if (k > 0) return k < t.length - 1 ? { ...w, text: t.slice(k + 1) } : (words[i + 1] ?? null);
    }
  }
  return null;
}

/** A program named by its path in one of the system's bin directories. */
const SYSTEM_PROGRAM = /^\/+(usr\/+(local\/+)?)?s?bin\/+[^/]+$/;

const XARGS_SPEC: OptionSpec = {
  short: 'adEILnPs',
  // `--eof[=STR]`, `--max-lines[=N]`, `--replace[=R]` take their value glued only: a next word is the program.
  long: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
  files: { '-a': 'read', '--arg-file': 'read' },
};

/**
 * GNU env's long options, in the order an abbreviation is read as (getopt_long takes any unambiguous
 * prefix; an ambiguous one is read as the first, the most dangerous, so `--s` counts as --split-string).
 */
const ENV_LONG: Record<string, 'S' | 'C' | 'u' | 'a' | 'i' | 'flag' | 'optional'> = {
  '--split-string': 'S',
  '--chdir': 'C',
  '--unset': 'u',
  '--argv0': 'a',
  '--ignore-environment': 'i',
  '--null': 'flag',
  '--debug': 'flag',
  '--list-signal-handling': 'flag',
  '--block-signal': 'optional',
  '--default-signal': 'optional',
  '--ignore-signal': 'optional',
};

/** env's short options that take a value (glued, `-uNAME`, or the next word). */
const ENV_VALUED = 'SCua';

const isAssignmentWord = (w: ShellWord): boolean => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text);

/** Records variables a wrapper sets or unsets; 'any' (or a name only known at run time) may be any. */
function assign(out: Unwrapped, names: string[] | 'any'): void {
  out.assigns = out.assigns === 'any' || names === 'any' ? 'any' : [...out.assigns, ...names];
}

/** `NAME=value` given to a wrapper (`env`, `sudo`): set for the command it runs. */
function setVariable(out: Unwrapped, w: ShellWord): void {
  const name = w.text.slice(0, w.text.indexOf('='));
  if (!isPlainVariable(name)) out.changesEnvironment = true;
  out.sets = [...(out.sets ?? []), name];
  assign(out, [name]);
}

/**
 * Unwraps one `env` call the way GNU env's getopt reads it: clusters (`-iS 'text'`, `-vS'text'`), values
 * glued or in the next word, abbreviated long options (`--split-s=text`, `--ch=dir`). Returns the index
 * of the command and records what env does. A run-time word where an option could be is taken as the
 * program (only known at run time).
 */
function unwrapEnv(words: readonly ShellWord[], out: Unwrapped): number {
  const apply = (letter: string, value: ShellWord | undefined) => {
    if (letter === 'S') out.splitString = value ?? DYNAMIC;
    else if (letter === 'C') out.chdir = value ?? DYNAMIC;
    else out.changesEnvironment = true;
    // `-u NAME`: the command runs without it (`~` with no HOME is the passwd entry's, PATH bash's default).
    if (letter === 'u') assign(out, !value || value.dynamic ? 'any' : [value.text]);
  };
  const clear = () => {
    // `-i`, `-`: nothing of the session's environment is left.
    out.changesEnvironment = true;
    assign(out, 'any');
  };
  let i = 1;
  while (i < words.length) {
    const w = words[i];
    if (w.dynamic) return i;
    const t = w.text;
    if (t === '--') {
      i++;
      break;
    }
    if (t === '-') clear();
    else if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const given = eq < 0 ? t : t.slice(0, eq);
      const name = Object.keys(ENV_LONG).find((k) => k.startsWith(given));
      const kind = name ? ENV_LONG[name] : 'flag';
      if (kind === 'S' || kind === 'C' || kind === 'u' || kind === 'a') {
        const value = eq >= 0 ? { ...w, text: t.slice(eq + 1) } : words[++i];
        apply(kind, value);
      } else if (kind === 'i') clear();
      else if (kind === 'optional') out.changesEnvironment = true;
    } else if (t.startsWith('-')) {
      for (let j = 1; j < t.length; j++) {
        const letter = t[j];
        if (letter === 'u' && j > 1) {
          // just-bash's env takes a value only after a leading u (`-uNAME`, `-u NAME`): `-iu NAME cmd` runs
          // NAME there, and unsets it in GNU env. What runs is only known at run time.
          out.words = [...words.slice(0, i + 1), DYNAMIC, ...words.slice(i + 1)];
          return i + 1;
        }
        if (ENV_VALUED.includes(letter)) {
          apply(letter, j < t.length - 1 ? { ...w, text: t.slice(j + 1) } : words[++i]);
          break;
        }
        if (letter === 'i') clear();
      }
    } else if (isAssignmentWord(w)) setVariable(out, w);
    else break;
    i++;
  }
  return skipAssignments(words, i, out);
}

/**
 * Unwraps one `time` program call (`env time`, `command time`; the `time` keyword is the parser's): the
 * index of its command. just-bash's time takes a value after -f, -o, --format and --output written alone,
 * and any other word starting with `-` as a flag (`-pf X cmd` runs X). GNU time's getopt takes the next
 * word after a cluster ending in f or o, an abbreviation (`--out X`), and a lone `-` as the command: where
 * the two differ, what runs is only known at run time.
 */
function unwrapTime(words: readonly ShellWord[], out: Unwrapped): number {
  // With -a it appends by reading the file and writing it whole: through a link, what it leads to is
  // copied into the file, so the file is read too.
  const append = words.some((w) => w.text === '-a' || w.text === '--append');
  const first = out.paths.length;
  const done = (at: number): number => {
    if (append) for (const p of out.paths.slice(first)) out.paths.push({ word: p.word, access: 'read' });
    return at;
  };
  let i = 1;
  while (i < words.length) {
    const w = words[i];
    if (w.dynamic) return done(i);
    const t = w.text;
    if (t === '-f' || t === '--format' || t === '-o' || t === '--output') {
      if (t.endsWith('o') || t === '--output') {
        const file = words[i + 1];
        if (file) out.paths.push({ word: file, access: 'write' });
      }
      i += 2;
      continue;
    }
    if (t === '--') return done(i + 1);
    if (!t.startsWith('-')) return done(i);
    const valued = /^-[^-]/.test(t) ? /[fo]/.exec(t.slice(1)) : null;
    const long = t.startsWith('--') && t.length > 2 && !t.includes('=');
    if (
      t === '-' ||
      (valued && valued.index === t.length - 2) ||
      (long && ['--format', '--output'].some((o) => o.startsWith(t)))
    ) {
      out.words = [...words.slice(0, i), DYNAMIC, ...words.slice(i)];
      return done(i);
    }
    // GNU time writes the file of a glued -oFILE or --output=FILE (just-bash's takes them as flags).
    const glued = valued && t[valued.index + 1] === 'o' ? t.slice(valued.index + 2) : null;
    const eq = t.indexOf('=');
    const named = eq > 0 && '--output'.startsWith(t.slice(0, eq)) && eq > 2 ? t.slice(eq + 1) : glued;
    if (named) out.paths.push({ word: { ...w, text: named }, access: 'write' });
    i++;
  }
  return done(i);
}

/** Index of the first word after the `NAME=value` words from `start`, each set for the command. */
function skipAssignments(words: readonly ShellWord[], start: number, out: Unwrapped): number {
  let i = start;
  for (; i < words.length && isAssignmentWord(words[i]) && !words[i].dynamic; i++) setVariable(out, words[i]);
  return i;
}

/** A word known before the run that starts with `-`. */
const isDashWord = (w: ShellWord | undefined): boolean => !!w && !w.dynamic && w.text.startsWith('-');

/** Follows a chain of wrappers (`sudo env FOO=1 timeout 5 rm -rf x` → `rm -rf x`). Never throws. */
export function unwrapCommand(words: readonly ShellWord[]): Unwrapped {
  const out: Unwrapped = {
    words: [...words],
    transparent: true,
    changesEnvironment: false,
    assigns: [],
    lookup: false,
    xargs: false,
    paths: [],
  };
  for (let depth = 0; depth < 16 && out.words.length > 0; depth++) {
    const [program] = out.words;
    if (program.dynamic) break;
    // A program of the system's bin directories is that program (`/bin/sed`, `/usr/bin/env rm`): it is
    // read, and rules match it, by its name (the word as written stays in `written`).
    if (SYSTEM_PROGRAM.test(program.text)) {
      out.words[0] = { ...program, text: program.text.slice(program.text.lastIndexOf('/') + 1) };
    }
    const name = out.words[0].text;
    let start: number;
    if (name === 'env') {
      start = unwrapEnv(out.words, out);
      // Allow rules name what runs with its variables: `env dir=src ls` is not `ls`, as `dir=src ls` is not.
      out.transparent =
        out.transparent && !out.changesEnvironment && !out.sets && !out.chdir && !out.splitString;
    } else if (name === 'time') {
      start = unwrapTime(out.words, out);
    } else if (name === 'command' && isDashWord(out.words[1])) {
      // just-bash's command takes every word that starts with `-` up to `--` as options, a lone `-` and
      // letters it does not know too (`command -p -x - rm FILE` runs rm); a v or V in any looks it up.
      start = 1;
      let lookup = false;
      while (isDashWord(out.words[start])) {
        const t = out.words[start++].text;
        if (t === '--') break;
        if (/[vV]/.test(t)) lookup = true;
      }
      if (lookup) {
        out.lookup = true;
        out.words = [];
        break;
      }
    } else if (name === 'xargs') {
      start = skipOptions(out.words, 1, XARGS_SPEC, out.paths);
      // just-bash's xargs skips a lone `-` among its options (GNU's would run a program named `-`, which
      // fails): `xargs - rm FILE` runs rm, and its options go on after it (`xargs - -t rm`).
      while (out.words[start]?.text === '-' && !out.words[start].dynamic) {
        start = skipOptions(out.words, start + 1, XARGS_SPEC, out.paths);
      }
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
      if (!wrapper.transparent) {
        out.transparent = false;
        out.changesEnvironment = true;
      }
      if (wrapper.assigns) assign(out, wrapper.assigns);
      const line = commandOption(out.words, wrapper);
      if (line) {
        // `flock FILE -c 'CMD'`, `su -c 'CMD'`: a shell runs the line.
        const given = skipOptions(out.words, 1, wrapper.spec, out.paths);
        if (wrapper.positionalAccess && out.words[given] && out.words[given] !== line) {
          out.paths.push({ word: out.words[given], access: wrapper.positionalAccess });
        }
        out.words = [SHELL_WORD, DASH_C, line];
        continue;
      }
      let options = skipOptions(out.words, 1, wrapper.spec, out.paths);
      // `sudo HOME=x cmd`: the variables come before the command.
      if (wrapper.takesAssignments) options = skipAssignments(out.words, options, out);
      start = options + (wrapper.positional ?? 0);
      if (wrapper.positionalAccess) {
        for (const w of out.words.slice(options, start))
          out.paths.push({ word: w, access: wrapper.positionalAccess });
      }
      if (wrapper.shellArgs && start < out.words.length) {
        // `su USER ARGS`: the arguments are the shell's.
        out.words = [SHELL_WORD, ...out.words.slice(start)];
        continue;
      }
      if (start >= out.words.length && wrapper.noCommand === 'shell') {
        // No command: an interactive shell reads standard input.
        out.words = [SHELL_WORD];
        break;
      }
      if (name === 'busybox' || name === 'toybox') {
        // `busybox --list`, `--install`, `--help`: no applet runs.
        if (out.words[start] && !out.words[start].dynamic && out.words[start].text.startsWith('-'))
          start = out.words.length;
      }
    }
    out.words = out.words.slice(start);
  }
  return out;
}

/**
 * The commands `find` runs with -exec/-execdir/-ok/-okdir (`{}` is only known at run time); `inDir`:
 * -execdir/-okdir run it in each found file's directory.
 */
export function findExecCommands(words: readonly ShellWord[]): Array<ShellWord[] & { inDir?: true }> {
  const out: Array<ShellWord[] & { inDir?: true }> = [];
  for (let i = 1; i < words.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[i].text)) continue;
    const cmd: ShellWord[] = [];
    let j = i + 1;
    for (; j < words.length; j++) {
      const t = words[j].text;
      if (t === ';' || (t === '+' && cmd.length > 0)) break;
      cmd.push(t.includes('{}') ? { ...words[j], dynamic: true } : words[j]);
    }
    const found: ShellWord[] & { inDir?: true } = cmd.length > 0 ? cmd : [DYNAMIC];
    if (/dir$/.test(words[i].text)) found.inDir = true;
    out.push(found);
    i = j;
  }
  return out;
}
