'use strict';
// The `process` object: argv, env, cwd/chdir, exit and exitCode, stdout/stderr, stdin (the command's
// piped input), nextTick, hrtime, memoryUsage, emitWarning, and the 'beforeExit'/'exit' events the
// engine's loop triggers. There is one process per run; pid and the like are stable made-up values.

const binding = require('internal/binding');
const EventEmitter = require('node:events');

// The engine loads this module once, before any program (the boot snapshot); what belongs to a run
// (argv, env, execArgv, the start time) is filled in by _configure() when the run starts.
let plan = { mode: 'stdin', scriptArgs: [], execArgv: [], noWarnings: false };
const VERSION = 'v22.12.0';
let startedAt = binding.hrtime();

const process = new EventEmitter();
const argv = ['/usr/local/bin/node'];

/** process.env: strings only (Node turns assigned values into strings). */
const envTarget = Object.create(null);
const env = new Proxy(envTarget, {
  set(target, key, value) {
    target[key] = String(value);
    return true;
  },
  defineProperty(target, key, desc) {
    target[key] = String(desc.value);
    return true;
  },
});

let exitCode;
let exiting = false;

function validExitCode(code) {
  if (code === undefined || code === null) return undefined;
  const n = typeof code === 'string' && /^-?\d+$/.test(code) ? Number(code) : code;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    const err = new TypeError(`The "code" argument must be of type number. Received ${typeof code}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  return n & 0xff;
}

function makeWriteStream(fd) {
  const stream = new EventEmitter();
  stream.fd = fd;
  stream.isTTY = false;
  stream.writable = true;
  stream._isStdio = true;
  stream.write = (chunk, encoding, cb) => {
    if (typeof encoding === 'function') cb = encoding;
    if (typeof chunk === 'string') binding.write(fd, chunk);
    else if (chunk instanceof Uint8Array)
      binding.write(fd, chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
    else {
      const err = new TypeError(
        `The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${chunk === null ? 'null' : typeof chunk}`,
      );
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (typeof cb === 'function') queueMicrotask(cb);
    return true;
  };
  stream.end = (chunk, encoding, cb) => {
    if (typeof chunk === 'function') cb = chunk;
    else if (chunk !== undefined && chunk !== null) stream.write(chunk, encoding);
    if (typeof cb === 'function') queueMicrotask(cb);
    return stream;
  };
  stream.cork = () => {};
  stream.uncork = () => {};
  stream.setDefaultEncoding = () => stream;
  stream.getColorDepth = () => 1;
  stream.hasColors = () => false;
  stream.writableLength = 0;
  stream.writableHighWaterMark = 16384;
  return stream;
}

let stdin;
function getStdin() {
  if (stdin) return stdin;
  const bytes = new Uint8Array(binding.stdin());
  let sent = false;
  try {
    const { Readable } = require('node:stream');
    const { Buffer } = require('buffer');
    stdin = new Readable({
      read() {
        if (sent) return;
        sent = true;
        if (bytes.length) this.push(Buffer.from(bytes));
        // The end comes on a later turn, as from a pipe (readline sees its lines before 'close').
        setImmediate(() => this.push(null));
      },
    });
  } catch {
    // Without the stream module (it should be there): a minimal emitter of one 'data' and 'end'.
    stdin = new EventEmitter();
    queueMicrotask(() => {
      if (bytes.length) stdin.emit('data', bytes);
      stdin.emit('end');
    });
  }
  stdin.fd = 0;
  stdin.isTTY = false;
  stdin.setRawMode = () => stdin;
  return stdin;
}

// nextTick callbacks run before promise reactions: the engine drains this queue (dispatch 'ticks')
// ahead of its promise jobs whenever binding.ticksPending() was called.
const tickQueue = [];
function runTicks() {
  while (tickQueue.length) {
    const [fn, args] = tickQueue.shift();
    try {
      fn(...args);
    } catch (err) {
      require('internal/fatal').uncaught(err);
    }
  }
}

/** Ends the program now: nothing after this line runs (the engine interrupts it, uncatchably). */
function stopNow(code) {
  binding.exit(code);
  for (;;) {
    // Spins until the engine's interrupt check unwinds the program.
  }
}

function hrtime(prev) {
  const ms = binding.hrtime();
  let sec = Math.floor(ms / 1000);
  let nsec = Math.floor((ms % 1000) * 1e6);
  if (prev) {
    sec -= prev[0];
    nsec -= prev[1];
    if (nsec < 0) {
      sec--;
      nsec += 1e9;
    }
  }
  return [sec, nsec];
}
hrtime.bigint = () => BigInt(Math.floor(binding.hrtime() * 1e6));

const warned = new Set();

Object.assign(process, {
  title: 'node',
  version: VERSION,
  versions: {
    node: VERSION.slice(1),
    quickjs: 'ng',
    modules: '127',
    uv: '1.49.1',
    v8: '12.4.254.21-node.21',
    tabcode: '1',
  },
  release: { name: 'node', lts: 'Jod' },
  platform: 'linux',
  arch: 'x64',
  pid: 42,
  ppid: 1,
  execPath: '/usr/local/bin/node',
  argv0: 'node',
  argv,
  execArgv: [],
  env,
  features: { inspector: false, ipv6: false, tls: false, typescript: 'strip' },
  config: { variables: {} },
  stdout: makeWriteStream(1),
  stderr: makeWriteStream(2),
  cwd: () => binding.cwd(),
  chdir(dir) {
    const result = binding.chdir(String(dir));
    if (result?.__error) {
      const err = new Error(
        `${result.code}: ${String(result.message)
          .replace(/^\w+: /, '')
          .replace(/, \w+ '.*'$/, '')}, chdir ${binding.cwd()} -> '${dir}'`,
      );
      err.code = result.code;
      err.errno = result.errno;
      err.syscall = 'chdir';
      err.path = binding.cwd();
      err.dest = String(dir);
      throw err;
    }
  },
  exit(code) {
    if (code !== undefined) exitCode = validExitCode(code);
    if (!exiting) {
      exiting = true;
      process.emit('exit', exitCode ?? 0);
    }
    stopNow(exitCode ?? 0);
  },
  abort() {
    binding.write(2, 'Aborted (core dumped)\n');
    stopNow(134);
  },
  nextTick(fn, ...args) {
    if (typeof fn !== 'function') {
      const err = new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (tickQueue.length === 0) binding.ticksPending();
    tickQueue.push([fn, args]);
  },
  hrtime,
  uptime: () => (binding.hrtime() - startedAt) / 1000,
  memoryUsage: Object.assign(
    () => ({
      rss: 50_000_000,
      heapTotal: 20_000_000,
      heapUsed: 10_000_000,
      external: 1_000_000,
      arrayBuffers: 100_000,
    }),
    { rss: () => 50_000_000 },
  ),
  cpuUsage: () => {
    const us = Math.floor((binding.hrtime() - startedAt) * 1000);
    return { user: us, system: 0 };
  },
  resourceUsage: () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 50_000 }),
  emitWarning(warning, type, code) {
    if (plan.noWarnings) return;
    const options = type;
    if (typeof options === 'object' && options !== null) {
      type = options.type;
      code = options.code;
    }
    const name = warning instanceof Error ? warning.name : typeof type === 'string' ? type : 'Warning';
    const message = warning instanceof Error ? warning.message : String(warning);
    if (name === 'DeprecationWarning' && code && warned.has(code)) return;
    if (code) warned.add(code);
    const w = warning instanceof Error ? warning : Object.assign(new Error(message), { name });
    if (code) w.code = code;
    process.emit('warning', w);
    binding.write(
      2,
      `(node:42) ${code ? `[${code}] ` : ''}${name}: ${message}\n${warned.size === 1 && !code ? '(Use `node --trace-warnings ...` to show where the warning was created)\n' : ''}`,
    );
  },
  kill(pid, _signal) {
    if (pid === 42) {
      process.exit(128 + 15);
      return true;
    }
    const err = new Error('kill ESRCH');
    err.code = 'ESRCH';
    err.syscall = 'kill';
    throw err;
  },
  umask: () => 0o022,
  getuid: () => 1000,
  geteuid: () => 1000,
  getgid: () => 1000,
  getegid: () => 1000,
  getgroups: () => [1000],
  binding() {
    throw new Error('No such module');
  },
  _getActiveHandles: () => [],
  _getActiveRequests: () => [],
  /** The engine: nothing keeps the loop alive. */
  _beforeExit() {
    const main = require('internal/main');
    if (main.unsettled()) {
      binding.write(2, 'Warning: Detected unsettled top-level await\n');
      exitCode = 13;
      process._naturalExit();
      return;
    }
    process.emit('beforeExit', exitCode ?? 0);
  },
  /** The engine: the loop is done. */
  _naturalExit() {
    if (!exiting) {
      exiting = true;
      process.emit('exit', exitCode ?? 0);
    }
    binding.exit(exitCode ?? 0);
  },
  /** An uncaught exception (internal/fatal). */
  _fatalExit(code) {
    exitCode = code;
    if (!exiting) {
      exiting = true;
      try {
        process.emit('exit', code);
      } catch {
        // The error is already reported.
      }
    }
    stopNow(code);
  },
  _runTicks: runTicks,
  /** The engine: a run starts (its command line and environment). */
  _configure() {
    const info = JSON.parse(binding.info());
    plan = info.plan;
    startedAt = binding.hrtime();
    argv.length = 1;
    if (plan.mode === 'script' || plan.mode === 'check') argv.push(plan.script);
    argv.push(...plan.scriptArgs);
    process.execArgv = [...plan.execArgv];
    for (const key of Object.keys(envTarget)) delete envTarget[key];
    Object.assign(envTarget, info.env);
  },
  /** The engine: a rejection nobody handled by the end of the microtask queue (Node's default: throw). */
  _unhandledRejection(reason, promise) {
    if (process.listenerCount('unhandledRejection') > 0) {
      process.emit('unhandledRejection', reason, promise);
      return;
    }
    let err = reason;
    if (!(reason instanceof Error)) {
      let shown;
      try {
        shown = require('node:util').inspect(reason);
      } catch {
        shown = String(reason);
      }
      err = new Error(
        `This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${shown}".`,
      );
      err.name = 'UnhandledPromiseRejection';
      err.code = 'ERR_UNHANDLED_REJECTION';
      err.stack = `[UnhandledPromiseRejection: ${err.message}]`;
    }
    require('internal/fatal').uncaught(err);
  },
});

Object.defineProperty(process, 'exitCode', {
  get: () => exitCode,
  set: (code) => {
    exitCode = validExitCode(code);
  },
  enumerable: true,
  configurable: false,
});
Object.defineProperty(process, 'stdin', { get: getStdin, enumerable: true, configurable: true });
Object.defineProperty(process, Symbol.toStringTag, { value: 'process', configurable: true });

module.exports = process;
