'use strict';
// module: createRequire, builtinModules, isBuiltin, and the Module class (Node's CommonJS loader).

const { Module, createRequire } = require('internal/modules');
const requireBuiltin = require('internal/require-builtin');

const PREFIX_ONLY = ['test', 'test/reporters', 'sqlite', 'sea'];
function builtinModules() {
  const names = JSON.parse(requireBuiltin('internal/binding').builtinNames?.() ?? '[]');
  return names.filter((n) => !PREFIX_ONLY.includes(n));
}

Module.builtinModules = builtinModules();
Module.createRequire = createRequire;
Module.isBuiltin = (name) => {
  const n = String(name);
  if (n.startsWith('node:'))
    return Module.builtinModules.includes(n.slice(5)) || PREFIX_ONLY.includes(n.slice(5));
  return Module.builtinModules.includes(n);
};
Module.register = () => {
  process.emitWarning('module.register() hooks are not supported in tabcode; the call was ignored.');
};
Module.syncBuiltinESMExports = () => {};
Module.findSourceMap = () => undefined;
Module.enableCompileCache = () => ({ status: 0 });
Module.constants = { compileCacheStatus: { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 } };

module.exports = Module;
