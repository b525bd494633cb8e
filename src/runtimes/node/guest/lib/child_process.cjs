'use strict';
// child_process routed to the sandbox shell: exec/execFile/spawn/fork run the command in the sandbox
// (just-bash, where `node` is this runtime again) and report when it finishes; the output arrives whole
// at the end. The synchronous forms (execSync, spawnSync…) cannot wait inside a browser worker without
// shared memory, so they throw an error that says to use the asynchronous ones.

const binding = require('internal/binding');
const EventEmitter = require('node:events');
const { Buffer } = require('buffer');

let nextId = 1;
const pending = new Map();

function quote(arg) {
  const s = String(arg);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

function start(command, options, onDone) {
  const id = nextId++;
  pending.set(id, onDone);
  const env = options.env
    ? Object.fromEntries(Object.entries(options.env).map(([k, v]) => [k, String(v)]))
    : undefined;
  binding.exec(
    id,
    command,
    JSON.stringify({
      cwd: options.cwd ? String(options.cwd) : undefined,
      env,
      stdin: options.input === undefined ? '' : String(options.input),
    }),
  );
  return id;
}

/** The engine: command `id` finished. */
function _done(id, exitCode, stdout, stderr) {
  const cb = pending.get(id);
  pending.delete(id);
  cb?.(exitCode, stdout, stderr);
}

function decode(text, encoding) {
  return encoding === 'buffer' || encoding === null ? Buffer.from(text) : text;
}

class ChildProcess extends EventEmitter {
  constructor() {
    super();
    this.pid = 1000 + nextId;
    this.exitCode = null;
    this.signalCode = null;
    this.killed = false;
    this.spawnfile = '';
    this.spawnargs = [];
    this.connected = false;
    let Readable;
    let Writable;
    try {
      ({ Readable, Writable } = require('node:stream'));
    } catch {
      Readable = undefined;
    }
    this.stdout = Readable ? new Readable({ read() {} }) : new EventEmitter();
    this.stderr = Readable ? new Readable({ read() {} }) : new EventEmitter();
    this._input = [];
    this.stdin = Writable
      ? new Writable({
          write: (chunk, _enc, cb) => {
            this._input.push(String(chunk));
            cb();
          },
        })
      : null;
  }
  kill() {
    // The command already runs to its end in the sandbox; a kill only marks it.
    this.killed = true;
    return false;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
  disconnect() {}
  send() {
    return false;
  }
}

function exec(command, options, callback) {
  if (typeof options === 'function') [callback, options] = [options, {}];
  options = options ?? {};
  const child = new ChildProcess();
  child.spawnfile = '/bin/sh';
  child.spawnargs = ['/bin/sh', '-c', command];
  start(command, options, (code, stdout, stderr) =>
    finish(child, code, stdout, stderr, options, callback, command),
  );
  return child;
}

function execFile(file, args, options, callback) {
  if (typeof args === 'function') [callback, args, options] = [args, [], {}];
  else if (!Array.isArray(args)) [callback, options, args] = [options, args, []];
  if (typeof options === 'function') [callback, options] = [options, {}];
  options = options ?? {};
  const command = [file, ...(args ?? [])].map(quote).join(' ');
  const child = new ChildProcess();
  child.spawnfile = file;
  child.spawnargs = [file, ...(args ?? [])];
  start(command, options, (code, stdout, stderr) =>
    finish(child, code, stdout, stderr, options, callback, command),
  );
  return child;
}

function finish(child, code, stdout, stderr, options, callback, command) {
  child.exitCode = code;
  if (stdout) child.stdout.push ? child.stdout.push(stdout) : child.stdout.emit('data', stdout);
  if (stderr) child.stderr.push ? child.stderr.push(stderr) : child.stderr.emit('data', stderr);
  if (child.stdout.push) {
    child.stdout.push(null);
    child.stderr.push(null);
  } else {
    child.stdout.emit('end');
    child.stderr.emit('end');
  }
  setTimeout(() => {
    child.emit('exit', code, null);
    child.emit('close', code, null);
  }, 0);
  if (callback) {
    const enc = options.encoding === undefined ? 'utf8' : options.encoding;
    let err = null;
    if (code !== 0) {
      err = new Error(`Command failed: ${command}\n${stderr}`);
      err.code = code;
      err.killed = false;
      err.signal = null;
      err.cmd = command;
      err.stdout = decode(stdout, enc);
      err.stderr = decode(stderr, enc);
    }
    callback(err, decode(stdout, enc), decode(stderr, enc));
  }
}

function spawn(file, args, options) {
  if (!Array.isArray(args)) [options, args] = [args, []];
  options = options ?? {};
  const command = options.shell ? [file, ...args].join(' ') : [file, ...args].map(quote).join(' ');
  const child = new ChildProcess();
  child.spawnfile = file;
  child.spawnargs = [file, ...args];
  // Input written to child.stdin before the next tick is given to the command whole.
  setTimeout(() => {
    const input = child._input.join('');
    start(command, { ...options, input }, (code, stdout, stderr) => {
      child.exitCode = code;
      const inherit =
        options.stdio === 'inherit' || (Array.isArray(options.stdio) && options.stdio[1] === 'inherit');
      if (inherit) {
        if (stdout) process.stdout.write(stdout);
        if (stderr) process.stderr.write(stderr);
      }
      finish(child, code, inherit ? '' : stdout, inherit ? '' : stderr, {}, null, command);
    });
    child.emit('spawn');
  }, 0);
  return child;
}

function fork(modulePath, args, options) {
  if (!Array.isArray(args)) [options, args] = [args, []];
  return spawn('node', [String(modulePath), ...(args ?? [])], { ...(options ?? {}), stdio: 'inherit' });
}

function noSync(name) {
  return () => {
    const err = new Error(
      `child_process.${name} is not available in tabcode's built-in sandbox: a worker in the browser cannot wait for another command. Use the asynchronous child_process.${name.replace(/Sync$/, '')} (or util.promisify(exec)) instead.`,
    );
    err.code = 'ERR_NOT_SUPPORTED';
    throw err;
  };
}

module.exports = {
  ChildProcess,
  exec,
  execFile,
  spawn,
  fork,
  execSync: noSync('execSync'),
  execFileSync: noSync('execFileSync'),
  spawnSync: noSync('spawnSync'),
  _done,
};
Object.defineProperty(exec, Symbol.for('nodejs.util.promisify.custom'), {
  value: (command, options) =>
    new Promise((resolve, reject) => {
      exec(command, options, (err, stdout, stderr) => (err ? reject(err) : resolve({ stdout, stderr })));
    }),
});
Object.defineProperty(execFile, Symbol.for('nodejs.util.promisify.custom'), {
  value: (file, args, options) =>
    new Promise((resolve, reject) => {
      execFile(file, args, options, (err, stdout, stderr) =>
        err ? reject(err) : resolve({ stdout, stderr }),
      );
    }),
});
