/**
 * The wrapper table: programs that run the rest of their words as a command (`nice`, `timeout`, `sudo`,
 * `flock`, `su`, `strace`...), how to skip their options, which of their words are files, and whether
 * they leave what runs unchanged. Read by the unwrapping in wrappers.ts.
 */
import type { PathAccess } from './types.ts';

export interface OptionSpec {
  /** Short options that take a value (the rest of the cluster, or the next word). */
  short: string;
  /** Long options that take a value in the next word when written without `=`. */
  long: readonly string[];
  /** Options whose value is a file, and how it is used. */
  files?: Record<string, PathAccess>;
}

const NO_OPTIONS: OptionSpec = { short: '', long: [] };

export interface Wrapper {
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
  /**
   * It gives the command an environment of its own (a login's, a reset one, variables read from files
   * or options: `sudo`, `su`, `envdir`, `strace -E`): any variable, HOME and PATH among them, may change.
   */
  assigns?: 'any';
  /** `NAME=value` words after the options are variables set for the command (`sudo HOME=x cmd`). */
  takesAssignments?: true;
}

/**
 * Wrappers that run the rest of their words as a command, and how to skip their options. Those that
 * change the user, the root, the limits or the tracing of what runs are not transparent: an allow rule
 * must name them.
 */
export const WRAPPERS: Record<string, Wrapper> = {
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
    assigns: 'any',
    takesAssignments: true,
  },
  doas: { spec: { short: 'uC', long: [] }, transparent: false, assigns: 'any' },
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
    assigns: 'any',
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
    assigns: 'any',
    commandOptions: ['-c', '--command', '--session-command'],
    noCommand: 'shell',
  },
  sg: {
    spec: { short: 'c', long: [] },
    transparent: false,
    assigns: 'any',
    positional: 1,
    commandOptions: ['-c'],
    noCommand: 'shell',
  },
  pkexec: { spec: { short: '', long: ['--user'] }, transparent: false, noCommand: 'shell', assigns: 'any' },
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
    assigns: 'any',
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
    assigns: 'any',
  },
  prlimit: { spec: { short: 'po', long: ['--pid', '--output'] }, transparent: false },
  fakeroot: {
    spec: { short: 'lsib', long: ['--lib', '--faked'], files: { '-s': 'write', '-i': 'read' } },
    transparent: false,
  },
  fakechroot: {
    spec: { short: 'lsed', long: ['--lib', '--environment', '--config-dir'] },
    transparent: false,
    assigns: 'any',
  },
  proot: {
    spec: { short: 'rbwqk', long: ['--rootfs', '--bind', '--mount', '--cwd', '--qemu', '--kernel-release'] },
    transparent: false,
  },
  firejail: { spec: NO_OPTIONS, transparent: false, assigns: 'any' },
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
  envdir: { spec: NO_OPTIONS, transparent: false, positional: 1, assigns: 'any' },
  setuidgid: { spec: NO_OPTIONS, transparent: false, positional: 1 },
  chpst: { spec: { short: 'uUbe/nlLmdofpcr', long: [] }, transparent: false, assigns: 'any' },
  softlimit: { spec: { short: 'madslfcoptr', long: [] }, transparent: false },
  unbuffer: { spec: NO_OPTIONS, transparent: true },
  // moreutils: runs the command quietly unless it fails.
  chronic: { spec: { short: '', long: [] }, transparent: true },
};
