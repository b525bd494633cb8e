'use strict';
// fs over the worker's file mirror (binding.fs): the synchronous API does the work; the callback API
// runs it and calls back on a later tick; fs.promises (and fs/promises) return promises. Errors have
// Node's shape (code, errno, syscall, path). Writes land in the sandbox as they happen. Paths may be
// strings, Buffers or file: URLs; relative paths are against process.cwd().

const binding = require('internal/binding');
const { Buffer } = require('buffer');

const constants = Object.freeze({
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
  O_RDONLY: 0,
  O_WRONLY: 1,
  O_RDWR: 2,
  O_CREAT: 64,
  O_EXCL: 128,
  O_TRUNC: 512,
  O_APPEND: 1024,
  O_SYNC: 1052672,
  S_IFMT: 61440,
  S_IFREG: 32768,
  S_IFDIR: 16384,
  S_IFLNK: 40960,
  COPYFILE_EXCL: 1,
  COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE_FORCE: 4,
  UV_FS_COPYFILE_EXCL: 1,
});

function invalidArg(name, expected, value) {
  const err = new TypeError(
    `The "${name}" argument must be ${expected}. Received ${value === null ? 'null' : value === undefined ? 'undefined' : `type ${typeof value} (${String(value).slice(0, 30)})`}`,
  );
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function toPath(path, name = 'path') {
  if (typeof path === 'string') {
    if (path.includes('\0')) {
      const err = new TypeError(
        `The argument '${name}' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(path)}`,
      );
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    return path;
  }
  if (path instanceof Uint8Array) return Buffer.from(path).toString('utf8');
  if (path && typeof path === 'object' && typeof path.href === 'string' && path.protocol === 'file:') {
    return decodeURIComponent(path.pathname);
  }
  throw invalidArg(name, 'of type string or an instance of Buffer or URL', path);
}

function fsError(result) {
  const err = new Error(result.message);
  err.errno = result.errno;
  err.code = result.code;
  err.syscall = result.syscall;
  if (result.path !== undefined) err.path = result.path;
  if (result.dest !== undefined) err.dest = result.dest;
  return err;
}

/** binding.fs(op, …) → value, throwing its error (with the caller's own stack). */
function call(op, a, b, c) {
  const result = binding.fs(op, a, b, c);
  if (result !== null && typeof result === 'object' && result.__error === true) {
    const err = fsError(result);
    Error.captureStackTrace?.(err, call);
    throw err;
  }
  return result;
}

function encodingOf(options, fallback) {
  if (typeof options === 'string') return options;
  if (options && typeof options === 'object' && options.encoding !== undefined) return options.encoding;
  return fallback;
}

class Stats {
  constructor(info) {
    this.dev = 2049;
    this.mode = info.mode;
    this.nlink = 1;
    this.uid = 1000;
    this.gid = 1000;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = info.ino;
    this.size = info.size;
    this.blocks = Math.ceil(info.size / 512);
    this.atimeMs = info.mtimeMs;
    this.mtimeMs = info.mtimeMs;
    this.ctimeMs = info.ctimeMs;
    this.birthtimeMs = info.birthtimeMs;
    this.atime = new Date(info.mtimeMs);
    this.mtime = new Date(info.mtimeMs);
    this.ctime = new Date(info.ctimeMs);
    this.birthtime = new Date(info.birthtimeMs);
    Object.defineProperty(this, '_type', { value: info.type, enumerable: false });
  }
  isFile() {
    return this._type === 'file';
  }
  isDirectory() {
    return this._type === 'dir';
  }
  isSymbolicLink() {
    return this._type === 'link';
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
}

class Dirent {
  constructor(name, type, parentPath) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    Object.defineProperty(this, '_type', { value: type, enumerable: false });
  }
  isFile() {
    return this._type === 'file';
  }
  isDirectory() {
    return this._type === 'dir';
  }
  isSymbolicLink() {
    return this._type === 'link';
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
}

function statSync(path, options) {
  try {
    return new Stats(JSON.parse(call('stat', toPath(path))));
  } catch (err) {
    if (options?.throwIfNoEntry === false && err.code === 'ENOENT') return undefined;
    throw err;
  }
}

function lstatSync(path, options) {
  try {
    return new Stats(JSON.parse(call('lstat', toPath(path))));
  } catch (err) {
    if (options?.throwIfNoEntry === false && err.code === 'ENOENT') return undefined;
    throw err;
  }
}

function existsSync(path) {
  try {
    return binding.fs('exists', toPath(path)) === true;
  } catch {
    return false;
  }
}

function accessSync(path, mode = constants.F_OK) {
  const p = toPath(path);
  call('stat', p);
  if (mode & constants.W_OK) {
    // The mirror grants writes under the workspace and /tmp only.
    const root = JSON.parse(binding.info()).root;
    const real = call('realpath', p);
    if (!(real === root || real.startsWith(`${root}/`) || real === '/tmp' || real.startsWith('/tmp/'))) {
      throw fsError({
        message: `EACCES: permission denied, access '${p}'`,
        code: 'EACCES',
        errno: -13,
        syscall: 'access',
        path: p,
      });
    }
  }
}

function readFileSync(path, options) {
  if (typeof path === 'number') return readFd(path, options);
  const p = toPath(path);
  const encoding = encodingOf(options, null);
  if (encoding === 'utf8' || encoding === 'utf-8') return call('readFileUtf8', p);
  const buf = Buffer.from(call('readFile', p));
  return encoding ? buf.toString(encoding) : buf;
}

function dataOf(data, encoding) {
  if (typeof data === 'string') {
    if (!encoding || encoding === 'utf8' || encoding === 'utf-8') return data;
    const buf = Buffer.from(data, encoding);
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  }
  if (ArrayBuffer.isView(data)) return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  throw invalidArg('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function writeFileSync(path, data, options) {
  if (typeof path === 'number') return writeFd(path, data, options);
  const encoding = encodingOf(options, 'utf8');
  const flag = (options && typeof options === 'object' && options.flag) || 'w';
  const mode = options && typeof options === 'object' ? options.mode : undefined;
  call('writeFile', toPath(path), dataOf(data, encoding), JSON.stringify({ flag, mode }));
}

function appendFileSync(path, data, options) {
  const opts = typeof options === 'string' ? { encoding: options } : { ...(options ?? {}) };
  writeFileSync(path, data, { ...opts, flag: opts.flag ?? 'a' });
}

function mkdirSync(path, options) {
  const opts =
    typeof options === 'number' || typeof options === 'string' ? { mode: Number(options) } : (options ?? {});
  const first = call(
    'mkdir',
    toPath(path),
    JSON.stringify({ recursive: opts.recursive === true, mode: opts.mode }),
  );
  return opts.recursive ? first : undefined;
}

function readdirSync(path, options) {
  const p = toPath(path);
  const opts = typeof options === 'string' ? { encoding: options } : (options ?? {});
  const out = [];
  const list = (dir, prefix) => {
    const entries = JSON.parse(call('readdir', dir));
    for (const e of entries) {
      const name = prefix ? `${prefix}/${e.name}` : e.name;
      if (opts.withFileTypes) out.push(new Dirent(e.name, e.type, dir));
      else out.push(opts.encoding === 'buffer' ? Buffer.from(name) : name);
      if (opts.recursive && e.type === 'dir') list(`${dir}/${e.name}`, name);
    }
  };
  list(p, '');
  return out;
}

function rmSync(path, options = {}) {
  call(
    'rm',
    toPath(path),
    JSON.stringify({ recursive: options.recursive === true, force: options.force === true, kind: 'rm' }),
  );
}

function rmdirSync(path, options = {}) {
  call('rm', toPath(path), JSON.stringify({ recursive: options.recursive === true, kind: 'rmdir' }));
}

function unlinkSync(path) {
  call('rm', toPath(path), JSON.stringify({ kind: 'unlink' }));
}

function renameSync(from, to) {
  call('rename', toPath(from, 'oldPath'), toPath(to, 'newPath'));
}

function copyFileSync(from, to, mode = 0) {
  call('copyFile', toPath(from, 'src'), toPath(to, 'dest'), (mode & constants.COPYFILE_EXCL) !== 0);
}

function cpSync(from, to, options = {}) {
  const src = toPath(from, 'src');
  const dest = toPath(to, 'dest');
  const st = statSync(src);
  if (st.isDirectory()) {
    if (!options.recursive) {
      const err = new Error(`Recursive option is required to copy a directory: ${src}`);
      err.code = 'ERR_FS_EISDIR';
      throw err;
    }
    mkdirSync(dest, { recursive: true });
    for (const name of readdirSync(src)) cpSync(`${src}/${name}`, `${dest}/${name}`, options);
  } else {
    if (options.errorOnExist && options.force === false && existsSync(dest)) {
      const err = new Error(`Target already exists: cp returned EEXIST (${dest} already exists)`);
      err.code = 'ERR_FS_CP_EEXIST';
      throw err;
    }
    if (options.force === false && existsSync(dest)) return;
    copyFileSync(src, dest);
  }
}

function symlinkSync(target, path) {
  call('symlink', toPath(target, 'target'), toPath(path));
}

function readlinkSync(path, options) {
  const target = call('readlink', toPath(path));
  return encodingOf(options, 'utf8') === 'buffer' ? Buffer.from(target) : target;
}

function realpathSync(path, options) {
  const real = call('realpath', toPath(path));
  return encodingOf(options, 'utf8') === 'buffer' ? Buffer.from(real) : real;
}
realpathSync.native = realpathSync;

function utimesSync(path, _atime, mtime) {
  const ms =
    mtime instanceof Date
      ? mtime.getTime()
      : typeof mtime === 'string'
        ? Date.parse(mtime)
        : Number(mtime) * 1000;
  call('utimes', toPath(path), ms);
}

function chmodSync(path, mode) {
  call('chmod', toPath(path), typeof mode === 'string' ? Number.parseInt(mode, 8) : mode);
}

function truncateSync(path, len = 0) {
  call('truncate', toPath(path), len);
}

let tmpSeq = 0;
function mkdtempSync(prefix) {
  for (;;) {
    const suffix = (Date.now().toString(36) + (tmpSeq++).toString(36)).slice(-6).padStart(6, '0');
    const path = `${toPath(prefix, 'prefix')}${suffix}`;
    if (!existsSync(path)) {
      mkdirSync(path);
      return path;
    }
  }
}

// ---- file descriptors (a small table over whole-file reads and writes)

const fds = new Map();
let nextFd = 10;

function openSync(path, flags = 'r', mode) {
  const p = toPath(path);
  const f = typeof flags === 'number' ? numericFlags(flags) : String(flags);
  if (!['r', 'r+', 'rs+', 'w', 'wx', 'w+', 'wx+', 'a', 'ax', 'a+', 'ax+', 'as', 'as+'].includes(f)) {
    const err = new TypeError(`The value "${flags}" is invalid for option "flags"`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  if (f.startsWith('r')) call('stat', p);
  else if (f.includes('x') && existsSync(p)) {
    throw fsError({
      message: `EEXIST: file already exists, open '${p}'`,
      code: 'EEXIST',
      errno: -17,
      syscall: 'open',
      path: p,
    });
  }
  if (f.startsWith('w')) call('writeFile', p, '', JSON.stringify({ flag: 'w', mode }));
  else if (f.startsWith('a') && !existsSync(p)) call('writeFile', p, '', JSON.stringify({ flag: 'w', mode }));
  const fd = nextFd++;
  fds.set(fd, { path: p, flags: f, position: 0 });
  return fd;
}

function numericFlags(n) {
  const acc = n & 3;
  const append = n & constants.O_APPEND;
  const creat = n & constants.O_CREAT;
  const excl = n & constants.O_EXCL;
  if (acc === 0) return 'r';
  if (append) return excl ? 'ax' : acc === 2 ? 'a+' : 'a';
  if (creat) return excl ? (acc === 2 ? 'wx+' : 'wx') : acc === 2 ? 'w+' : 'w';
  return 'r+';
}

function fdEntry(fd) {
  const entry = fds.get(fd);
  if (!entry)
    throw fsError({
      message: `EBADF: bad file descriptor, ${fd}`,
      code: 'EBADF',
      errno: -9,
      syscall: 'read',
    });
  return entry;
}

function closeSync(fd) {
  if (fd === 0 || fd === 1 || fd === 2) return;
  fdEntry(fd);
  fds.delete(fd);
}

function readSync(fd, buffer, offsetOrOptions, length, position) {
  let offset = offsetOrOptions;
  if (offsetOrOptions && typeof offsetOrOptions === 'object') {
    ({ offset = 0, length = buffer.byteLength - offset, position = null } = offsetOrOptions);
  }
  offset ??= 0;
  length ??= buffer.byteLength - offset;
  if (fd === 0) {
    const data = new Uint8Array(binding.stdin());
    const start = fdStdinPos;
    const n = Math.min(length, data.length - start);
    buffer.set(data.subarray(start, start + n), offset);
    fdStdinPos += n;
    return n;
  }
  const entry = fdEntry(fd);
  const data = new Uint8Array(call('readFile', entry.path));
  const pos = position === null || position === undefined || position < 0 ? entry.position : Number(position);
  const n = Math.max(0, Math.min(length, data.length - pos));
  buffer.set(data.subarray(pos, pos + n), offset);
  if (position === null || position === undefined || position < 0) entry.position += n;
  return n;
}
let fdStdinPos = 0;

function writeSync(fd, data, offsetOrPosition, lengthOrEncoding, position) {
  let bytes;
  if (typeof data === 'string') {
    bytes = Buffer.from(data, typeof lengthOrEncoding === 'string' ? lengthOrEncoding : 'utf8');
    position = offsetOrPosition;
  } else {
    const offset = offsetOrPosition ?? 0;
    const length = typeof lengthOrEncoding === 'number' ? lengthOrEncoding : data.byteLength - offset;
    bytes = Buffer.from(data.buffer, data.byteOffset + offset, length);
  }
  if (fd === 1 || fd === 2) {
    binding.write(fd, bytes.toString('utf8'));
    return bytes.length;
  }
  const entry = fdEntry(fd);
  if (entry.flags.startsWith('a')) {
    call('writeFile', entry.path, dataOf(bytes), JSON.stringify({ flag: 'a' }));
    return bytes.length;
  }
  const current = new Uint8Array(call('readFile', entry.path));
  const pos = position === null || position === undefined ? entry.position : Number(position);
  const next = new Uint8Array(Math.max(current.length, pos + bytes.length));
  next.set(current);
  next.set(bytes, pos);
  call('writeFile', entry.path, next.buffer, JSON.stringify({ flag: 'w' }));
  if (position === null || position === undefined) entry.position = pos + bytes.length;
  return bytes.length;
}

function readFd(fd, options) {
  const encoding = encodingOf(options, null);
  let buf;
  if (fd === 0) buf = Buffer.from(binding.stdin());
  else buf = Buffer.from(call('readFile', fdEntry(fd).path));
  return encoding ? buf.toString(encoding) : buf;
}

function writeFd(fd, data, options) {
  writeSync(fd, typeof data === 'string' ? Buffer.from(data, encodingOf(options, 'utf8')) : data);
}

function fstatSync(fd) {
  if (fd === 0 || fd === 1 || fd === 2)
    return new Stats({
      type: 'file',
      size: 0,
      mode: 0o20620,
      mtimeMs: Date.now(),
      ctimeMs: Date.now(),
      birthtimeMs: Date.now(),
      ino: fd,
    });
  return statSync(fdEntry(fd).path);
}

function ftruncateSync(fd, len = 0) {
  truncateSync(fdEntry(fd).path, len);
}

function fsyncSync(fd) {
  fdEntry(fd);
}

// ---- callbacks and promises

const SYNC = {
  access: accessSync,
  appendFile: appendFileSync,
  chmod: chmodSync,
  close: closeSync,
  copyFile: copyFileSync,
  cp: cpSync,
  fstat: fstatSync,
  fsync: fsyncSync,
  ftruncate: ftruncateSync,
  lstat: lstatSync,
  mkdir: mkdirSync,
  mkdtemp: mkdtempSync,
  open: openSync,
  readdir: readdirSync,
  readFile: readFileSync,
  readlink: readlinkSync,
  realpath: realpathSync,
  rename: renameSync,
  rm: rmSync,
  rmdir: rmdirSync,
  stat: statSync,
  symlink: symlinkSync,
  truncate: truncateSync,
  unlink: unlinkSync,
  utimes: utimesSync,
  writeFile: writeFileSync,
  lchmod: chmodSync,
  lutimes: utimesSync,
  chown: () => {},
  lchown: () => {},
  fchown: () => {},
  fchmod: () => {},
  fdatasync: fsyncSync,
};

function callbackify(name, fn) {
  return {
    [name](...args) {
      const cb = args.pop();
      if (typeof cb !== 'function') throw invalidArg('cb', 'of type function', cb);
      let result;
      try {
        result = fn(...args);
      } catch (err) {
        process.nextTick(cb, err);
        return;
      }
      process.nextTick(cb, null, result);
    },
  }[name];
}

const callbacks = {};
for (const [name, fn] of Object.entries(SYNC)) callbacks[name] = callbackify(name, fn);
callbacks.exists = (path, cb) => process.nextTick(cb, existsSync(path));
callbacks.read = (fd, buffer, offset, length, position, cb) => {
  if (typeof buffer === 'function') [cb, buffer] = [buffer, Buffer.alloc(16384)];
  else if (typeof offset === 'function') [cb, offset] = [offset, 0];
  else if (typeof length === 'function') cb = length;
  else if (typeof position === 'function') cb = position;
  try {
    const n = readSync(
      fd,
      buffer,
      typeof offset === 'number' ? offset : 0,
      typeof length === 'number' ? length : undefined,
      typeof position === 'number' ? position : null,
    );
    process.nextTick(cb, null, n, buffer);
  } catch (err) {
    process.nextTick(cb, err);
  }
};
callbacks.write = (fd, data, ...rest) => {
  const cb = rest.pop();
  try {
    const n = writeSync(fd, data, ...rest);
    process.nextTick(cb, null, n, data);
  } catch (err) {
    process.nextTick(cb, err);
  }
};

function promisified(fn) {
  return (...args) =>
    new Promise((resolve, reject) => {
      try {
        resolve(fn(...args));
      } catch (err) {
        Error.captureStackTrace?.(err);
        reject(err);
      }
    });
}

class FileHandle {
  constructor(fd) {
    this.fd = fd;
  }
  readFile(options) {
    return promisified(readFd)(this.fd, options);
  }
  writeFile(data, options) {
    return promisified(writeFd)(this.fd, data, options);
  }
  appendFile(data, options) {
    return promisified(writeFd)(this.fd, data, options);
  }
  write(data, ...rest) {
    return promisified(() => ({ bytesWritten: writeSync(this.fd, data, ...rest), buffer: data }))();
  }
  read(buffer = Buffer.alloc(16384), offset = 0, length, position = null) {
    return promisified(() => ({ bytesRead: readSync(this.fd, buffer, offset, length, position), buffer }))();
  }
  stat() {
    return promisified(fstatSync)(this.fd);
  }
  truncate(len) {
    return promisified(ftruncateSync)(this.fd, len);
  }
  sync() {
    return Promise.resolve();
  }
  close() {
    return promisified(closeSync)(this.fd);
  }
  [Symbol.asyncDispose]() {
    return this.close();
  }
}

const promises = { constants };
for (const [name, fn] of Object.entries(SYNC)) {
  if (['close', 'fstat', 'fsync', 'ftruncate', 'fchown', 'fchmod', 'fdatasync'].includes(name)) continue;
  promises[name] = promisified(fn);
}
promises.open = promisified((path, flags, mode) => new FileHandle(openSync(path, flags, mode)));
promises.opendir = promisified((path) => opendirSync(path));
promises.watch = () => unsupportedWatch();

function opendirSync(path) {
  const p = toPath(path);
  const entries = readdirSync(p, { withFileTypes: true });
  let i = 0;
  return {
    path: p,
    readSync: () => entries[i++] ?? null,
    read: (cb) => {
      const v = entries[i++] ?? null;
      if (cb) process.nextTick(cb, null, v);
      else return Promise.resolve(v);
    },
    closeSync: () => {},
    close: (cb) => (cb ? process.nextTick(cb, null) : Promise.resolve()),
    async *[Symbol.asyncIterator]() {
      while (i < entries.length) yield entries[i++];
    },
    *[Symbol.iterator]() {
      while (i < entries.length) yield entries[i++];
    },
  };
}

function unsupportedWatch() {
  const err = new Error(
    "fs.watch is not available in tabcode's built-in sandbox: files change only when a command or tool changes them.",
  );
  err.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
  throw err;
}

function createReadStream(path, options) {
  const { Readable } = require('node:stream');
  const opts = typeof options === 'string' ? { encoding: options } : (options ?? {});
  const p = path === null && opts.fd !== undefined ? null : toPath(path);
  let done = false;
  const stream = new Readable({
    highWaterMark: opts.highWaterMark ?? 64 * 1024,
    encoding: opts.encoding,
    read() {
      if (done) return;
      done = true;
      try {
        let data = p === null ? readFd(opts.fd) : readFileSync(p);
        if (opts.start !== undefined || opts.end !== undefined) {
          data = data.subarray(opts.start ?? 0, opts.end === undefined ? undefined : opts.end + 1);
        }
        const size = this.readableHighWaterMark;
        for (let i = 0; i < data.length; i += size) this.push(data.subarray(i, i + size));
        this.push(null);
      } catch (err) {
        this.destroy(err);
      }
    },
  });
  stream.path = p;
  stream.bytesRead = 0;
  queueMicrotask(() => stream.emit('open', 3));
  queueMicrotask(() => stream.emit('ready'));
  return stream;
}

function createWriteStream(path, options) {
  const { Writable } = require('node:stream');
  const opts = typeof options === 'string' ? { encoding: options } : (options ?? {});
  const p = toPath(path);
  let started = false;
  const stream = new Writable({
    write(chunk, encoding, cb) {
      try {
        const flag = started || (opts.flags ?? 'w').startsWith('a') ? 'a' : 'w';
        started = true;
        writeFileSync(p, chunk, { flag, encoding });
        stream.bytesWritten += typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.length;
        cb();
      } catch (err) {
        cb(err);
      }
    },
    final(cb) {
      try {
        if (!started && !(opts.flags ?? 'w').startsWith('a')) writeFileSync(p, '');
        cb();
      } catch (err) {
        cb(err);
      }
    },
  });
  stream.path = p;
  stream.bytesWritten = 0;
  queueMicrotask(() => stream.emit('open', 3));
  queueMicrotask(() => stream.emit('ready'));
  return stream;
}

module.exports = {
  ...callbacks,
  constants,
  ...constants,
  Stats,
  Dirent,
  promises,
  accessSync,
  appendFileSync,
  chmodSync,
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  opendirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  lutimesSync: utimesSync,
  writeFileSync,
  writeSync,
  chownSync: () => {},
  lchownSync: () => {},
  lchmodSync: chmodSync,
  fchmodSync: () => {},
  fchownSync: () => {},
  fdatasyncSync: fsyncSync,
  opendir: callbackify('opendir', opendirSync),
  createReadStream,
  createWriteStream,
  watch: unsupportedWatch,
  watchFile: unsupportedWatch,
  unwatchFile: () => {},
  _toPath: toPath,
};
