/**
 * Commands that run other commands: wrappers (`env`, `command`, `timeout`, `nice`, `sudo`, `xargs`...),
 * `find -exec`, shells and interpreters. Pure functions over quote-removed words, used by the walker to
 * find what finally runs.
 */
import type { PathAccess, ShellWord } from './types.ts';

/** What a wrapper chain finally runs. */
export interface Unwrapped {
  /** The command that runs (program first); empty when the wrapper runs nothing (`env`, `command -v x`). */
  words: ShellWord[];
  /** Every wrapper leaves what runs unchanged (command, builtin, exec, nohup, nice, timeout, stdbuf, time). */
  transparent: boolean;
  /** A wrapper changes the environment (`env NAME=value`, `env -i`, `sudo`). */
  changesEnvironment: boolean;
  /** Variables a wrapper sets for the command (`env NAME=value cmd`). */
  sets?: string[];
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

interface OptionSpec {
  /** Short options that take a value (the rest of the cluster, or the next word). */
  short: string;
  /** Long options that take a value in the next word when written without `=`. */
  long: readonly string[];
  /** Options whose value is a file, and how it is used. */
  files?: Record<string, PathAccess>;
}

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

const NO_OPTIONS: OptionSpec = { short: '', long: [] };

interface Wrapper {
  spec: OptionSpec;
  /** Runs the command unchanged (allow rules of the command apply to it). */
  transparent: boolean;
  /** Words after the options before the command (`timeout 5`, `flock FILE`, `chroot DIR`). */
  positional?: number;
  /** What those words are, when they are files (`flock FILE` creates its lock file). */
  positionalAccess?: PathAccess;
  /** Options whose value is a command line the wrapper runs with `sh -c` (`flock -c`, `su -c`). */
  commandOptions?: readonly string[];
  /**
   * With no command: `shell`, the wrapper starts a shell reading standard input (`su`, `script`,
   * `chroot DIR`); otherwise nothing runs. `shellArgs`: the words after the positional ones are the
   * shell's own (`su USER ARGS`).
   */
  noCommand?: 'shell';
  shellArgs?: boolean;
}

const SHELL_WORD: ShellWord = { text: 'sh', dynamic: false, glob: false };
const DASH_C: ShellWord = { text: '-c', dynamic: false, glob: false };

/**
 * Wrappers that run the rest of their words as a command, and how to skip their options. Those that
 * change the user, the root, the limits or the tracing of what runs are not transparent: an allow rule
 * must name them.
 */
const WRAPPERS: Record<string, Wrapper> = {
  command: { spec: NO_OPTIONS, transparent: true },
  builtin: { spec: NO_OPTIONS, transparent: true },
  exec: { spec: { short: 'a', long: [] }, transparent: true },
  nohup: { spec: NO_OPTIONS, transparent: true },
  nice: { spec: { short: 'n', long: ['--adjustment'] }, transparent: true },
  timeout: { spec: { short: 'sk', long: ['--signal', '--kill-after'] }, transparent: true, positional: 1 },
  stdbuf: { spec: { short: 'ioe', long: ['--input', '--output', '--error'] }, transparent: true },
  time: {
    spec: {
      short: 'fo',
      long: ['--format', '--output'],
      files: { '-o': 'write', '--output': 'write' },
    },
    transparent: true,
  },
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
  // `chrt [opts] PRIORITY CMD`, `taskset [opts] MASK CMD` (with -p they take a PID and run nothing).
  chrt: {
    spec: { short: 'T P D', long: ['--sched-runtime', '--sched-period', '--sched-deadline'] },
    transparent: false,
    positional: 1,
  },
  taskset: { spec: NO_OPTIONS, transparent: false, positional: 1 },
  // Multi-call binaries: `busybox rm x` is rm.
  busybox: { spec: NO_OPTIONS, transparent: false },
  toybox: { spec: NO_OPTIONS, transparent: false },
  // util-linux flock: `flock [opts] FILE CMD...`, `flock [opts] FILE -c 'CMD'`; the lock file is created.
  flock: {
    spec: { short: 'wE', long: ['--timeout', '--conflict-exit-code'] },
    transparent: false,
    positional: 1,
    positionalAccess: 'write',
    commandOptions: ['-c', '--command'],
  },
  su: {
    spec: {
      short: 'cgGsw',
      long: [
        '--command',
        '--session-command',
        '--group',
        '--supp-group',
        '--shell',
        '--whitelist-environment',
      ],
    },
    transparent: false,
    positional: 1,
    commandOptions: ['-c', '--command', '--session-command'],
    noCommand: 'shell',
    shellArgs: true,
  },
  runuser: {
    spec: {
      short: 'cgGsuw',
      long: [
        '--command',
        '--session-command',
        '--group',
        '--supp-group',
        '--shell',
        '--user',
        '--whitelist-environment',
      ],
    },
    transparent: false,
    commandOptions: ['-c', '--command', '--session-command'],
    noCommand: 'shell',
  },
  sg: {
    spec: { short: 'c', long: [] },
    transparent: false,
    positional: 1,
    commandOptions: ['-c'],
    noCommand: 'shell',
  },
  pkexec: { spec: { short: '', long: ['--user'] }, transparent: false, noCommand: 'shell' },
  // `script [opts] [FILE]`: -c CMD runs CMD, else a shell; FILE is the typescript it writes.
  script: {
    spec: {
      short: 'cEIOBTmo',
      long: [
        '--command',
        '--echo',
        '--log-in',
        '--log-out',
        '--log-io',
        '--log-timing',
        '--logging-format',
        '--output-limit',
      ],
      files: {
        '-I': 'write',
        '-O': 'write',
        '-B': 'write',
        '-T': 'write',
        '--log-in': 'write',
        '--log-out': 'write',
        '--log-io': 'write',
        '--log-timing': 'write',
      },
    },
    transparent: false,
    positional: 1,
    positionalAccess: 'write',
    commandOptions: ['-c', '--command'],
    noCommand: 'shell',
  },
  chroot: {
    spec: { short: '', long: ['--userspec', '--groups'] },
    transparent: false,
    positional: 1,
    noCommand: 'shell',
  },
  strace: {
    spec: {
      short: 'eopPsuEabIOSXU',
      long: ['--output', '--trace-path', '--attach', '--user', '--env', '--string-limit'],
      files: { '-o': 'write', '--output': 'write' },
    },
    transparent: false,
  },
  ltrace: {
    spec: {
      short: 'eopsunlaADFxL',
      long: ['--output', '--library'],
      files: { '-o': 'write', '--output': 'write' },
    },
    transparent: false,
  },
  unshare: {
    spec: {
      short: 'SGRwl',
      long: [
        '--setuid',
        '--setgid',
        '--root',
        '--wd',
        '--map-user',
        '--map-group',
        '--map-users',
        '--map-groups',
        '--propagation',
        '--setgroups',
      ],
    },
    transparent: false,
  },
  nsenter: {
    spec: { short: 'tSGrw', long: ['--target', '--setuid', '--setgid', '--root', '--wd'] },
    transparent: false,
  },
  setpriv: {
    spec: {
      short: '',
      long: [
        '--reuid',
        '--regid',
        '--ruid',
        '--euid',
        '--rgid',
        '--egid',
        '--groups',
        '--inh-caps',
        '--ambient-caps',
        '--bounding-set',
        '--securebits',
        '--pdeathsig',
        '--selinux-label',
        '--apparmor-profile',
        '--landlock-access',
        '--landlock-rule',
        '--seccomp-filter',
      ],
    },
    transparent: false,
  },
  prlimit: { spec: { short: 'po', long: ['--pid', '--output'] }, transparent: false },
  fakeroot: {
    spec: { short: 'lsib', long: ['--lib', '--faked'], files: { '-s': 'write', '-i': 'read' } },
    transparent: false,
  },
  fakechroot: {
    spec: { short: 'lsed', long: ['--lib', '--environment', '--config-dir'] },
    transparent: false,
  },
  proot: {
    spec: { short: 'rbwqk', long: ['--rootfs', '--bind', '--mount', '--cwd', '--qemu', '--kernel-release'] },
    transparent: false,
  },
  firejail: { spec: NO_OPTIONS, transparent: false },
  eatmydata: { spec: NO_OPTIONS, transparent: false },
  nocache: { spec: NO_OPTIONS, transparent: false },
  catchsegv: { spec: NO_OPTIONS, transparent: false },
  torsocks: {
    spec: { short: 'uapPd', long: ['--user', '--pass', '--address', '--port'] },
    transparent: false,
  },
  tsocks: { spec: NO_OPTIONS, transparent: false },
  proxychains: { spec: { short: 'f', long: [] }, transparent: false },
  proxychains4: { spec: { short: 'f', long: [] }, transparent: false },
  valgrind: { spec: NO_OPTIONS, transparent: false },
  'xvfb-run': {
    spec: {
      short: 'nsfepw',
      long: ['--server-num', '--server-args', '--auth-file', '--error-file', '--xauth-protocol', '--wait'],
    },
    transparent: false,
  },
  'dbus-run-session': { spec: NO_OPTIONS, transparent: false },
  caffeinate: { spec: { short: 'tw', long: [] }, transparent: false },
  faketime: { spec: { short: 'm', long: [] }, transparent: false, positional: 1 },
  numactl: {
    spec: {
      short: 'CNmipP',
      long: ['--cpunodebind', '--physcpubind', '--membind', '--interleave', '--preferred'],
    },
    transparent: false,
  },
  cpulimit: { spec: { short: 'lpe', long: ['--limit', '--pid', '--exe'] }, transparent: false },
  envdir: { spec: NO_OPTIONS, transparent: false, positional: 1 },
  setuidgid: { spec: NO_OPTIONS, transparent: false, positional: 1 },
  chpst: { spec: { short: 'uUbe/nlLmdofpcr', long: [] }, transparent: false },
  softlimit: { spec: { short: 'madslfcoptr', long: [] }, transparent: false },
  unbuffer: { spec: NO_OPTIONS, transparent: true },
  // moreutils: runs the command quietly unless it fails.
  chronic: { spec: { short: '', long: [] }, transparent: true },
};

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
  long: ['--arg-file', '--delimiter', '--eof', '--max-lines', '--max-args', '--max-procs', '--max-chars'],
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
    if (t === '-') out.changesEnvironment = true;
    else if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const given = eq < 0 ? t : t.slice(0, eq);
      const name = Object.keys(ENV_LONG).find((k) => k.startsWith(given));
      const kind = name ? ENV_LONG[name] : 'flag';
      if (kind === 'S' || kind === 'C' || kind === 'u' || kind === 'a') {
        const value = eq >= 0 ? { ...w, text: t.slice(eq + 1) } : words[++i];
        apply(kind, value);
      } else if (kind === 'i' || kind === 'optional') out.changesEnvironment = true;
    } else if (t.startsWith('-')) {
      for (let j = 1; j < t.length; j++) {
        const letter = t[j];
        if (ENV_VALUED.includes(letter)) {
          apply(letter, j < t.length - 1 ? { ...w, text: t.slice(j + 1) } : words[++i]);
          break;
        }
        if (letter === 'i') out.changesEnvironment = true;
      }
    } else if (isAssignmentWord(w)) {
      out.changesEnvironment = true;
      out.sets = [...(out.sets ?? []), w.text.slice(0, w.text.indexOf('='))];
    } else break;
    i++;
  }
  while (i < words.length && isAssignmentWord(words[i]) && !words[i].dynamic) {
    out.changesEnvironment = true;
    out.sets = [...(out.sets ?? []), words[i].text.slice(0, words[i].text.indexOf('='))];
    i++;
  }
  return i;
}

/** Follows a chain of wrappers (`sudo env FOO=1 timeout 5 rm -rf x` → `rm -rf x`). Never throws. */
export function unwrapCommand(words: readonly ShellWord[]): Unwrapped {
  const out: Unwrapped = {
    words: [...words],
    transparent: true,
    changesEnvironment: false,
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
      out.transparent = out.transparent && !out.changesEnvironment && !out.chdir && !out.splitString;
    } else if (name === 'command' && /^-[pvV]+$/.test(out.words[1]?.text ?? '')) {
      if (/[vV]/.test(out.words[1].text)) {
        out.lookup = true;
        out.words = [];
        break;
      }
      start = out.words[2]?.text === '--' && !out.words[2].dynamic ? 3 : 2;
    } else if (name === 'xargs') {
      start = skipOptions(out.words, 1, XARGS_SPEC, out.paths);
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
      const options = skipOptions(out.words, 1, wrapper.spec, out.paths);
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

/** Shells: `-c text` runs text; otherwise they run a script file or their standard input. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish']);

/**
 * What a shell invocation runs: the `-c` text, a script file, or standard input. Options before the
 * first operand are skipped (`bash -e -o pipefail -c '...'`).
 */
export function shellInvocation(
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
    return out;
  }
  if (interpreterCode(words) === 'file') {
    const file = words.slice(1).find((w) => !w.text.startsWith('-'));
    if (file) out.push(file);
  }
  return out;
}
