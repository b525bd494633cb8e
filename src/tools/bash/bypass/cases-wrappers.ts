/**
 * Cases: programs that run a command given after their own options and operands (multi-call binaries,
 * lock, user, root, limit and tracing wrappers): a denied program they run is denied, not only asked
 * about. And a container's own redirections (`bash -c '…' > FILE`) are writes like any command's.
 */
import type { BypassCase } from './harness.ts';

const APP = { removed: 'src/app.ts' };
const RM = 'rm -f src/app.ts';

/** None of these is in just-bash: the decisions alone are checked. */
const denied = (what: string, command: string): BypassCase => ({
  what,
  command,
  effect: APP,
  bypass: 'deny',
  bashOnly: true,
});

export const WRAPPED_PROGRAMS: BypassCase[] = [
  denied('busybox APPLET', `busybox ${RM}`),
  denied('busybox sh -c', `busybox sh -c '${RM}'`),
  denied('toybox APPLET', `toybox ${RM}`),
  denied('flock FILE COMMAND', `flock /tmp/lock ${RM}`),
  denied('flock -x -w N FILE COMMAND', `flock -x -w 5 /tmp/lock ${RM}`),
  denied('flock FILE -c LINE', `flock /tmp/lock -c '${RM}'`),
  denied('su -c LINE', `su -c '${RM}'`),
  denied('su USER -c LINE (option after the operand)', `su root -c '${RM}'`),
  denied('runuser -u USER COMMAND', `runuser -u root ${RM}`),
  denied('script -qc LINE FILE', `script -qc '${RM}' /dev/null`),
  denied('strace -o FILE COMMAND', `strace -f -o /tmp/trace ${RM}`),
  denied('chroot DIR COMMAND', `chroot / ${RM}`),
  denied('taskset MASK COMMAND', `taskset 1 ${RM}`),
  denied('chrt PRIORITY COMMAND', `chrt 5 ${RM}`),
  denied('unshare COMMAND', `unshare -r ${RM}`),
  denied('nsenter -t PID COMMAND', `nsenter -t 1 -m ${RM}`),
  denied('setpriv COMMAND', `setpriv --reuid=0 ${RM}`),
  denied('prlimit COMMAND', `prlimit --nofile=10 ${RM}`),
  denied('fakeroot COMMAND', `fakeroot ${RM}`),
  denied('eatmydata COMMAND', `eatmydata ${RM}`),
  {
    what: "flock's lock file is created",
    command: 'flock config/lock true',
    effect: { created: 'config/lock' },
    bypass: 'deny',
    bashOnly: true,
  },
];

/**
 * A shell or eval running a read-only command, its output redirected outside the workspace (where
 * acceptEdits does not write either): the file is written (just-bash).
 */
export const CONTAINER_REDIRECTS: BypassCase[] = [
  { what: 'bash -c LINE > FILE', command: "bash -c 'echo x' > /tmp/out", effect: { created: '/tmp/out' } },
  { what: 'eval LINE >> FILE', command: "eval 'echo x' >> /tmp/out", effect: { created: '/tmp/out' } },
  { what: 'sh -c LINE 2> FILE', command: "sh -c 'ls /nowhere' 2> /tmp/out", effect: { created: '/tmp/out' } },
];
