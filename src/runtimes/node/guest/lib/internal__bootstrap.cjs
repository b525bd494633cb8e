'use strict';
// The first guest module of every run (engine.ts evaluates it with the host binding). It builds the
// builtin module system, V8-style stack traces, Node's globals, and the dispatcher through which the
// engine's run loop drives the program (main, timers, child_process replies, beforeExit, exit).
//
// The binding (host-binding.ts) is reachable afterwards only as require('internal/binding').

module.exports = function bootstrap(binding) {
  const builtinCache = Object.create(null);
  const ALIASES = { 'base64-js': 'tabcode:vendor/base64-js', ieee754: 'tabcode:vendor/ieee754' };
  builtinCache['internal/binding'] = { exports: binding, loaded: true };

  /** Loads a builtin by name ('fs', 'node:fs', 'internal/x', 'tabcode:vendor/x'); cached. */
  function requireBuiltin(name) {
    let key = name.startsWith('node:') ? name.slice(5) : name;
    if (ALIASES[key]) key = ALIASES[key];
    const cached = builtinCache[key];
    if (cached) return cached.exports;
    const source = binding.builtinSource(key);
    if (source === undefined) {
      const err = new Error(`No such built-in module: ${name}`);
      err.code = 'ERR_UNKNOWN_BUILTIN_MODULE';
      throw err;
    }
    const module = { exports: {}, id: key, loaded: false };
    builtinCache[key] = module;
    const fn = binding.compile(source, `node:${key}`);
    fn.call(module.exports, module.exports, requireBuiltin, module, `node:${key}`, '');
    module.loaded = true;
    return module.exports;
  }
  builtinCache['internal/require-builtin'] = { exports: requireBuiltin, loaded: true };

  // util.inspect reads promise states through this hook (see internal/host).
  globalThis.__tabcodeHost = { promiseState: (value) => binding.promiseState(value) };

  requireBuiltin('internal/error-compat');
  installStackTraces(binding);
  // The engine's own performance.now() is fixed and counts whole milliseconds; the host's is finer.
  const timeOrigin = globalThis.performance.timeOrigin;
  Object.defineProperty(globalThis, 'performance', {
    value: { now: () => binding.hrtime(), timeOrigin, toJSON: () => ({ timeOrigin }) },
    configurable: true,
    writable: true,
    enumerable: true,
  });
  const define = (name, value) =>
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  define('global', globalThis);
  tryRequire('internal/globals');
  const process = requireBuiltin('process');
  define('process', process);
  define('console', requireBuiltin('console'));
  const timers = requireBuiltin('timers');
  for (const name of [
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
  ]) {
    define(name, timers[name]);
  }
  if (typeof globalThis.Buffer !== 'function') {
    define('Buffer', (tryRequire('buffer') ?? requireBuiltin('tabcode:vendor/buffer')).Buffer);
  }
  define('queueMicrotask', globalThis.queueMicrotask);
  for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']) define(name, unavailable(name));

  const modules = requireBuiltin('internal/modules');
  const fatal = requireBuiltin('internal/fatal');
  // Errors a CommonJS module threw while an ES module imported it, kept until the import rethrows them.
  const loadErrors = new Map();
  let nextLoadError = 0;
  Object.defineProperty(globalThis, Symbol.for('tabcode.internal'), {
    value: Object.freeze({
      requireBuiltin,
      requireFile: (path) => modules.requireFile(path),
      resolveUrl: (specifier, url) => modules.resolveUrl(specifier, url),
      stashError: (err) => {
        loadErrors.set(++nextLoadError, err);
        return nextLoadError;
      },
      takeError: (id) => {
        const err = loadErrors.get(id);
        loadErrors.delete(id);
        return err;
      },
    }),
    enumerable: false,
  });

  // The engine keeps this function (a handle made at boot, kept in the snapshot) to drive the program.
  return function dispatch(kind, a, b, c, d) {
    try {
      switch (kind) {
        case 'main':
          return requireBuiltin('internal/main').run();
        case 'timer':
          return timers._fire(a);
        case 'immediate':
          return timers._fireImmediate(a);
        case 'exec':
          return requireBuiltin('child_process')._done(a, b, c, d);
        case 'ticks':
          return process._runTicks();
        case 'beforeExit':
          return process._beforeExit();
        case 'exit':
          return process._naturalExit();
        case 'fatal':
          return fatal.uncaught(a);
        case 'rejection':
          return process._unhandledRejection(a, b);
        default:
          return undefined;
      }
    } catch (err) {
      fatal.uncaught(err);
    }
  };

  function tryRequire(name) {
    try {
      return requireBuiltin(name);
    } catch (err) {
      if (err && err.code === 'ERR_UNKNOWN_BUILTIN_MODULE') return undefined;
      throw err;
    }
  }
};

/** A global the browser sandbox cannot offer: calling it throws an error that says why. */
function unavailable(name) {
  return function unavailableGlobal() {
    const err = new Error(
      `${name} is not available in tabcode's built-in sandbox: programs here have no network access.`,
    );
    err.code = 'ERR_NOT_SUPPORTED';
    throw err;
  };
}

/** Error.stack as V8 writes it ("Error: msg\n    at f (file:1:2)"), without the runtime's own frames. */
function installStackTraces(binding) {
  Error.stackTraceLimit = 10;
  Error.prepareStackTrace = (error, frames) => {
    let header;
    try {
      header =
        error instanceof Error || (error && typeof error === 'object' && 'message' in error)
          ? headerOf(error)
          : 'Error';
    } catch {
      header = 'Error';
    }
    const lines = [];
    for (const frame of frames) {
      const file = frame.getFileName?.() ?? '';
      // The runtime's own frames and native ones (Function.prototype.call) are not the program's.
      if (!file || file === '<anonymous>' || file.startsWith('node:internal/') || file.startsWith('tabcode:'))
        continue;
      let line = frame.getLineNumber?.();
      let col = frame.getColumnNumber?.();
      // ES modules get import.meta set up on a line of their own before the file's first line.
      if (line && file.startsWith('file://') && binding.lineOffset(file)) {
        line -= 1;
        // A position inside that added line (QuickJS puts some errors at the module's start).
        if (line === 0) [line, col] = [1, 1];
      }
      const where = file ? `${file}${line ? `:${line}` : ''}${col ? `:${col}` : ''}` : '<anonymous>';
      let name = frame.getFunctionName?.();
      if (name === '<eval>' || name === '<anonymous>') name = undefined;
      lines.push(name ? `    at ${name} (${where})` : `    at ${where}`);
    }
    return lines.length ? `${header}\n${lines.join('\n')}` : header;
  };
}

function headerOf(error) {
  const name = error.name === undefined ? 'Error' : String(error.name);
  const message = error.message === undefined ? '' : String(error.message);
  if (!name) return message;
  if (!message) return name;
  return `${name}: ${message}`;
}
