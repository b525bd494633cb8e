'use strict';
// node:os for the sandbox: a Linux machine named "tabcode" with one user, one CPU (the engine runs one
// thread) and 4 GiB of memory. The figures are fixed and plausible; none describes the real device.

const { codes } = require('internal/errors');

const env = () => globalThis.process?.env ?? {};
const BOOT_TIME = Date.now() - 60_000;
const GIB = 1024 ** 3;

const signals = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8,
  SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17,
  SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24,
  SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
}; // biome-ignore format: a table

const errno = {
  E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAFNOSUPPORT: 97, EAGAIN: 11, EALREADY: 114,
  EBADF: 9, EBADMSG: 74, EBUSY: 16, ECANCELED: 125, ECHILD: 10, ECONNABORTED: 103, ECONNREFUSED: 111,
  ECONNRESET: 104, EDEADLK: 35, EDESTADDRREQ: 89, EDOM: 33, EDQUOT: 122, EEXIST: 17, EFAULT: 14, EFBIG: 27,
  EHOSTUNREACH: 113, EIDRM: 43, EILSEQ: 84, EINPROGRESS: 115, EINTR: 4, EINVAL: 22, EIO: 5, EISCONN: 106,
  EISDIR: 21, ELOOP: 40, EMFILE: 24, EMLINK: 31, EMSGSIZE: 90, EMULTIHOP: 72, ENAMETOOLONG: 36,
  ENETDOWN: 100, ENETRESET: 102, ENETUNREACH: 101, ENFILE: 23, ENOBUFS: 105, ENODATA: 61, ENODEV: 19,
  ENOENT: 2, ENOEXEC: 8, ENOLCK: 37, ENOLINK: 67, ENOMEM: 12, ENOMSG: 42, ENOPROTOOPT: 92, ENOSPC: 28,
  ENOSR: 63, ENOSTR: 60, ENOSYS: 38, ENOTCONN: 107, ENOTDIR: 20, ENOTEMPTY: 39, ENOTSOCK: 88, ENOTSUP: 95,
  ENOTTY: 25, ENXIO: 6, EOPNOTSUPP: 95, EOVERFLOW: 75, EPERM: 1, EPIPE: 32, EPROTO: 71,
  EPROTONOSUPPORT: 93, EPROTOTYPE: 91, ERANGE: 34, EROFS: 30, ESPIPE: 29, ESRCH: 3, ESTALE: 116, ETIME: 62,
  ETIMEDOUT: 110, ETXTBSY: 26, EWOULDBLOCK: 11, EXDEV: 18,
}; // biome-ignore format: a table

const constants = Object.freeze({
  UV_UDP_REUSEADDR: 4,
  dlopen: Object.freeze({ RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 }),
  errno: Object.freeze(errno),
  signals: Object.freeze(signals),
  priority: Object.freeze({
    PRIORITY_LOW: 19,
    PRIORITY_BELOW_NORMAL: 10,
    PRIORITY_NORMAL: 0,
    PRIORITY_ABOVE_NORMAL: -7,
    PRIORITY_HIGH: -14,
    PRIORITY_HIGHEST: -20,
  }),
});

/** Virtual CPUs: one, as the engine runs JavaScript on a single thread. */
const CPU_COUNT = 1;
const TOTAL_MEMORY = 4 * GIB;

function cpus() {
  const count = CPU_COUNT;
  const uptimeMs = Date.now() - BOOT_TIME;
  return Array.from({ length: count }, () => ({
    model: 'tabcode virtual CPU',
    speed: 2400,
    times: {
      user: Math.floor(uptimeMs / 4),
      nice: 0,
      sys: Math.floor(uptimeMs / 20),
      idle: Math.floor(uptimeMs / 2),
      irq: 0,
    },
  }));
}

function homedir() {
  return env().HOME || '/home/user';
}

function tmpdir() {
  let dir = env().TMPDIR || env().TMP || env().TEMP || '/tmp';
  if (dir.length > 1 && dir.endsWith('/')) dir = dir.slice(0, -1);
  return dir;
}

function totalmem() {
  return TOTAL_MEMORY;
}

function freemem() {
  return Math.floor(totalmem() / 2);
}

function userInfo(options = undefined) {
  if (options != null && typeof options !== 'object')
    throw codes.ERR_INVALID_ARG_TYPE('options', 'object', options);
  const info = {
    uid: 1000,
    gid: 1000,
    username: env().USER || env().LOGNAME || 'user',
    homedir: homedir(),
    shell: env().SHELL || '/bin/bash',
  };
  if (options?.encoding === 'buffer') {
    const { Buffer } = require('node:buffer');
    for (const key of ['username', 'homedir', 'shell']) info[key] = Buffer.from(info[key]);
  }
  return info;
}

function networkInterfaces() {
  return {
    lo: [
      {
        address: '127.0.0.1',
        netmask: '255.0.0.0',
        family: 'IPv4',
        mac: '00:00:00:00:00:00',
        internal: true,
        cidr: '127.0.0.1/8',
      },
      {
        address: '::1',
        netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
        family: 'IPv6',
        mac: '00:00:00:00:00:00',
        internal: true,
        cidr: '::1/128',
        scopeid: 0,
      },
    ],
  };
}

function validatePid(pid) {
  if (pid !== undefined && !Number.isInteger(pid)) throw codes.ERR_INVALID_ARG_TYPE('pid', 'number', pid);
}

const priorities = new Map();

module.exports = {
  arch: () => globalThis.process?.arch ?? 'x64',
  availableParallelism: () => cpus().length,
  cpus,
  endianness: () => 'LE',
  freemem,
  getPriority(pid = 0) {
    validatePid(pid);
    return priorities.get(pid) ?? 0;
  },
  homedir,
  hostname: () => 'tabcode',
  loadavg: () => [0, 0, 0],
  networkInterfaces,
  platform: () => 'linux',
  release: () => '6.8.0-tabcode',
  setPriority(pid, priority) {
    if (priority === undefined) {
      priorities.set(0, pid);
      return;
    }
    validatePid(pid);
    priorities.set(pid, priority);
  },
  tmpdir,
  totalmem,
  type: () => 'Linux',
  userInfo,
  uptime: () => Math.floor((Date.now() - BOOT_TIME) / 1000),
  version: () => '#1 SMP tabcode',
  machine: () => 'x86_64',
  constants,
  EOL: '\n',
  devNull: '/dev/null',
};
