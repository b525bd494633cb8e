'use strict';
// Uncaught exceptions, printed as Node prints them: the file and line, the source line with a caret,
// a blank line, the stack (or the thrown value), then "Node.js vX". Then the process exits 1, unless a
// process.on('uncaughtException') listener takes the error.

const binding = require('internal/binding');

let handling = false;

function uncaught(err) {
  const process = globalThis.process;
  if (err && err.name === 'InternalError' && /out of memory/.test(String(err.message))) {
    // The engine prints Node's heap message; nothing more can be allocated here.
    binding.outOfMemory();
    for (;;) {
      // Interrupted by the engine.
    }
  }
  if (handling) {
    // An error while reporting an error (or inside an uncaughtException listener): give up plainly.
    binding.write(2, `${describeValue(err)}\n`);
    binding.exit(7);
    return;
  }
  if (process?.listenerCount && process.listenerCount('uncaughtException') > 0) {
    handling = true;
    try {
      process.emit('uncaughtException', err, 'uncaughtException');
    } finally {
      handling = false;
    }
    return;
  }
  handling = true;
  try {
    binding.write(2, report(err));
  } catch {
    binding.write(2, `Uncaught exception\n`);
  }
  if (process && typeof process._fatalExit === 'function') process._fatalExit(1);
  else binding.exit(1);
}

/** CommonJS names used in an ES module: Node's message says why and what to do. */
const CJS_ONLY = /^(require|module|exports|__filename|__dirname) is not defined$/;

function report(err) {
  const lines = [];
  const where = topFrame(err);
  // QuickJS places a ReferenceError for an undeclared name at the start of the enclosing function;
  // point at the name itself, as V8 does.
  const undeclared = err instanceof ReferenceError && /^([\w$]+) is not defined/.exec(String(err.message));
  if (where && undeclared) relocate(err, where, undeclared[1]);
  if (err instanceof ReferenceError && where?.file.startsWith('file://') && CJS_ONLY.test(err.message)) {
    const name = err.message.split(' ')[0];
    const hint =
      name === '__filename' || name === '__dirname'
        ? ', use import.meta.filename / import.meta.dirname instead'
        : name === 'require'
          ? ', you can use import instead'
          : '';
    err.message = `${name} is not defined in ES module scope${hint}\nThis file is being treated as an ES module because it has a '.js' file extension and the nearest package.json contains "type": "module" (or it uses import/export). To treat it as a CommonJS script, rename it to use the '.cjs' file extension.`;
    err.stack = `ReferenceError: ${err.message}\n${String(err.stack).split('\n').slice(1).join('\n')}`;
  }
  if (where) {
    lines.push(`${where.file}:${where.line}`);
    const text = sourceLine(where.path, where.line);
    if (text !== undefined) {
      lines.push(text, `${' '.repeat(Math.max(0, where.column - 1))}^`);
    }
    lines.push('');
  }
  if (err instanceof Error || (err && typeof err === 'object' && typeof err.stack === 'string')) {
    lines.push(withProperties(err));
  } else {
    lines.push(`Uncaught ${inspect(err)}`);
  }
  lines.push('', `Node.js ${globalThis.process?.version ?? 'v22'}`, '');
  return lines.join('\n');
}

/** The stack, then the error's own extra properties the way Node shows them ({ code: 'X' }). */
function withProperties(err) {
  const stack = typeof err.stack === 'string' && err.stack ? err.stack : `${err.name}: ${err.message}`;
  const extra = Object.keys(err).filter((k) => k !== 'stack' && k !== 'message');
  if (extra.length === 0) return stack;
  try {
    const util = require('node:util');
    const props = {};
    for (const k of extra) props[k] = err[k];
    return `${stack} ${util.inspect(props)}`;
  } catch {
    return stack;
  }
}

/** Moves `where` (and the stack's first frame) to the first use of `name` from there on. */
function relocate(err, where, name) {
  const text = readSource(where.path);
  if (text === undefined) return;
  const fileLines = text.split('\n');
  const word = new RegExp(`(^|[^\\w$.])(${name.replace(/\$/g, '\\$')})(?![\\w$])`);
  const find = (fromLine, fromCol) => {
    for (let i = fromLine; i < fileLines.length; i++) {
      const part = i === fromLine ? fileLines[i].slice(fromCol) : fileLines[i];
      const m = word.exec(part);
      if (m) return { line: i + 1, column: (i === fromLine ? fromCol : 0) + m.index + m[1].length + 1 };
    }
    return undefined;
  };
  const at = find(where.line - 1, Math.max(0, where.column - 1)) ?? find(0, 0);
  if (!at || (at.line === where.line && at.column === where.column)) return;
  const old = `${where.file}:${where.line}:${where.column}`;
  where.line = at.line;
  where.column = at.column;
  if (typeof err.stack === 'string')
    err.stack = err.stack.replace(old, `${where.file}:${at.line}:${at.column}`);
}

function readSource(path) {
  try {
    const text = binding.fs('readFileUtf8', path);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

function topFrame(err) {
  const stack = err && typeof err.stack === 'string' ? err.stack : '';
  for (const line of stack.split('\n')) {
    const m = /^\s+at (?:.*? \()?((?:file:\/\/)?\/[^():]*):(\d+):(\d+)\)?$/.exec(line);
    if (m) {
      const file = m[1];
      const path = file.startsWith('file://') ? decodeURIComponent(file.slice(7)) : file;
      return { file, path, line: Number(m[2]), column: Number(m[3]) };
    }
  }
  return undefined;
}

function sourceLine(path, line) {
  const text = readSource(path);
  const l = text?.split('\n')[line - 1];
  return l === undefined ? undefined : l.replace(/\r$/, '');
}

function inspect(value) {
  try {
    return require('node:util').inspect(value);
  } catch {
    return String(value);
  }
}

function describeValue(err) {
  try {
    return err?.stack ? String(err.stack) : String(err);
  } catch {
    return 'error';
  }
}

module.exports = { uncaught, report };
