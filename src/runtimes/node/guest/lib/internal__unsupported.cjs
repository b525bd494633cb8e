'use strict';
// Modules a program may require but whose features the browser sandbox cannot give (sockets, servers,
// threads, an inspector). Requiring one works, as many packages do it at the top; using it throws an
// ERR_NOT_SUPPORTED error that names the call and says why, so a program (or the model) can adapt.

const REASONS = {
  network: 'programs in the browser sandbox have no network or sockets',
  threads: 'the browser sandbox runs one thread per program',
  inspector: 'there is no inspector in the browser sandbox',
  compression: 'compression is not available in the built-in sandbox',
};

function unsupportedError(what, reason) {
  const err = new Error(
    `${what} is not available in tabcode's built-in sandbox: ${REASONS[reason] ?? reason}.`,
  );
  err.code = 'ERR_NOT_SUPPORTED';
  return err;
}

/** A function that throws the error for `module.name`. */
function fn(moduleName, name, reason) {
  return {
    [name]() {
      throw unsupportedError(`${moduleName}.${name}()`, reason);
    },
  }[name];
}

/** A class whose constructor throws. */
function cls(moduleName, name, reason) {
  return {
    [name]: class {
      constructor() {
        throw unsupportedError(`new ${moduleName}.${name}()`, reason);
      }
    },
  }[name];
}

/** A module object: `fns` and `classes` throw when used; `extra` is copied as is. */
function unsupportedModule(moduleName, reason, fns, classes = [], extra = {}) {
  const out = { ...extra };
  for (const name of fns) out[name] = fn(moduleName, name, reason);
  for (const name of classes) out[name] = cls(moduleName, name, reason);
  return out;
}

module.exports = { unsupportedModule, unsupportedError };
