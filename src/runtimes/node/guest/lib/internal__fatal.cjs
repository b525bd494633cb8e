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

function report(err) {
  const lines = [];
  const where = topFrame(err);
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
  try {
    const text = binding.fs('readFileUtf8', path);
    if (typeof text !== 'string') return undefined;
    const l = text.split('\n')[line - 1];
    return l === undefined ? undefined : l.replace(/\r$/, '');
  } catch {
    return undefined;
  }
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
