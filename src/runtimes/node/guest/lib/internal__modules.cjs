'use strict';
// CommonJS for user files, the way Node's Module does it: `require` resolves through the host's
// resolver (node_modules, package.json main/exports), caches by real path, wraps each file in the
// module function, handles JSON, and loads ES modules with `require(esm)` as Node 22 does (a module
// with top-level await cannot be required). `module.exports` of a file imported from an ES module is
// the same object `require` returns.

const binding = require('internal/binding');
const requireBuiltin = require('internal/require-builtin');

const cache = Object.create(null);

function hostError(result, fallbackCode) {
  const err = new Error(result.message);
  if (result.code || fallbackCode) err.code = result.code || fallbackCode;
  for (const key of ['errno', 'syscall', 'path', 'dest'])
    if (result[key] !== undefined) err[key] = result[key];
  return err;
}

function isHostError(value) {
  return value !== null && typeof value === 'object' && value.__error === true;
}

function dirname(path) {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

class Module {
  constructor(id = '', parent = null) {
    this.id = id;
    this.path = dirname(id);
    this.exports = {};
    this.filename = id;
    this.loaded = false;
    this.children = [];
    this.paths = nodeModulePaths(this.path);
    this.parent = parent;
    if (parent) parent.children.push(this);
  }

  require(id) {
    if (typeof id !== 'string' || id === '') {
      const err = new TypeError(
        `The "id" argument must be of type string. Received ${id === '' ? "''" : typeof id}`,
      );
      err.code = id === '' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    return Module._load(id, this);
  }

  _compile(source, filename) {
    const fn = binding.compile(source, filename);
    const require = makeRequire(this);
    return fn.call(this.exports, this.exports, require, this, filename, dirname(filename));
  }

  static _resolveFilename(request, parent) {
    const from = parent?.filename || `${binding.cwd()}/[eval]`;
    const result = binding.resolve(request, from, 'require');
    if (isHostError(result)) {
      const err = hostError(result, 'MODULE_NOT_FOUND');
      if (err.code === 'MODULE_NOT_FOUND') err.requireStack = parent?.filename ? [parent.filename] : [];
      throw err;
    }
    return JSON.parse(result);
  }

  static _load(request, parent, isMain = false) {
    const resolved = Module._resolveFilename(request, parent);
    if (resolved.format === 'builtin') return requireBuiltin(resolved.path);
    return loadResolved(resolved, parent, isMain);
  }
}

Module._cache = cache;
Module._extensions = { '.js': true, '.json': true, '.cjs': true, '.mjs': true };
Module.builtinModules = [];
Module.wrap = (script) => `(function (exports, require, module, __filename, __dirname) { ${script}\n});`;
Module.Module = Module;

function loadResolved(resolved, parent, isMain) {
  const filename = resolved.path;
  const cached = cache[filename];
  if (cached) {
    if (parent && !parent.children.includes(cached)) parent.children.push(cached);
    return cached.exports;
  }
  const module = new Module(filename, parent);
  if (isMain) {
    process.mainModule = module;
    module.id = '.';
    mainModule = module;
  }
  cache[filename] = module;
  let ok = false;
  try {
    if (resolved.format === 'json') {
      const text = source(filename, false);
      try {
        module.exports = JSON.parse(text);
      } catch (err) {
        err.message = `${filename}: ${err.message}`;
        throw err;
      }
    } else if (resolved.format === 'module') {
      module.exports = requireEsm(filename);
    } else {
      const text = source(filename, resolved.typescript === true);
      try {
        module._compile(text, filename);
      } catch (err) {
        // Node 22 runs a .js file with module syntax and no "type" as an ES module.
        if (
          err instanceof SyntaxError &&
          !filename.endsWith('.cjs') &&
          /^\s*(import\s*[\w{*'"]|export\s)/m.test(text)
        ) {
          module.exports = requireEsm(filename);
        } else throw err;
      }
    }
    ok = true;
  } finally {
    if (!ok) delete cache[filename];
  }
  module.loaded = true;
  return module.exports;
}

function source(filename, typescript) {
  const text = binding.loadSource(filename, typescript);
  if (isHostError(text)) throw hostError(text);
  return text;
}

let esmSeq = 0;

/** require() of an ES module: its namespace, when it finishes without waiting (no top-level await). */
function requireEsm(filename) {
  const url = pathToFileUrl(filename);
  const slot = `__tabcode_require_esm_${++esmSeq}`;
  const result = binding.evalModule(
    `import * as ns from ${JSON.stringify(url)}; globalThis[${JSON.stringify(slot)}] = ns;`,
    `node:internal/require-esm-${esmSeq}`,
  );
  const ns = globalThis[slot];
  delete globalThis[slot];
  if (ns === undefined) {
    const state = result && typeof result.then === 'function' ? binding.promiseState(result) : null;
    if (state && state[0] === 'rejected') throw state[1];
    const err = new Error(
      `require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n  From ${filename}`,
    );
    err.code = 'ERR_REQUIRE_ASYNC_MODULE';
    throw err;
  }
  return ns;
}

function pathToFileUrl(path) {
  return `file://${path
    .split('/')
    .map((p) => encodeURIComponent(p))
    .join('/')}`;
}

function nodeModulePaths(from) {
  const out = [];
  let dir = from;
  for (;;) {
    if (!dir.endsWith('/node_modules')) out.push(`${dir === '/' ? '' : dir}/node_modules`);
    if (dir === '/') break;
    dir = dirname(dir);
  }
  return out;
}

let mainModule;

function makeRequire(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => {
    if (options?.paths) {
      for (const base of options.paths) {
        try {
          return resolveOnly(request, { filename: `${base}/[resolve]` });
        } catch {
          // try the next
        }
      }
    }
    return resolveOnly(request, module);
  };
  require.resolve.paths = (request) =>
    request.startsWith('.') || request.startsWith('/') ? null : module.paths;
  require.cache = cache;
  require.main = mainModule;
  require.extensions = Module._extensions;
  return require;
}

function resolveOnly(request, parent) {
  const resolved = Module._resolveFilename(request, parent);
  return resolved.format === 'builtin'
    ? request.startsWith('node:')
      ? request
      : resolved.path.slice(5)
    : resolved.path;
}

/** require() of a file by absolute path (ESM importing CommonJS goes through here). */
function requireFile(path) {
  const resolved = Module._resolveFilename(path, null);
  if (resolved.format === 'builtin') return requireBuiltin(resolved.path);
  return loadResolved(resolved, null, false);
}

/** import.meta.resolve */
function resolveUrl(specifier, url) {
  const from = url.startsWith('file://') ? decodeURIComponent(url.slice(7)) : url;
  const result = binding.resolve(specifier, from, 'import');
  if (isHostError(result)) throw hostError(result);
  const resolved = JSON.parse(result);
  return resolved.format === 'builtin' ? resolved.path : pathToFileUrl(resolved.path);
}

/** A `require` for code that is not a file (node -e / -p, module.createRequire). */
function createRequire(filename) {
  const path =
    typeof filename === 'string' && filename.startsWith('file://')
      ? decodeURIComponent(filename.slice(7))
      : String(filename);
  const module = new Module(path, null);
  module.filename = path;
  return makeRequire(module);
}

module.exports = { Module, requireFile, resolveUrl, createRequire, pathToFileUrl, isHostError, hostError };
