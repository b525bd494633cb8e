'use strict';
// vm: code runs in the program's own global (runInThisContext, Script); separate contexts are not
// available in this runtime and say so.
const { unsupportedError } = require('internal/unsupported');
// biome-ignore lint/security/noGlobalEval: vm.runInThisContext is evaluation of the program's own code by definition
const indirectEval = eval;
class Script {
  constructor(code, options = {}) {
    this.code = String(code);
    this.filename = typeof options === 'string' ? options : options.filename;
  }
  runInThisContext() {
    return indirectEval(this.code);
  }
  runInContext() {
    throw unsupportedError('vm.Script.runInContext()', 'separate contexts are not available');
  }
  runInNewContext() {
    throw unsupportedError('vm.Script.runInNewContext()', 'separate contexts are not available');
  }
}
module.exports = {
  Script,
  runInThisContext: (code) => indirectEval(String(code)),
  runInContext: () => {
    throw unsupportedError('vm.runInContext()', 'separate contexts are not available');
  },
  runInNewContext: () => {
    throw unsupportedError('vm.runInNewContext()', 'separate contexts are not available');
  },
  createContext: (o = {}) => o,
  isContext: () => false,
  compileFunction: (code, params = []) => new Function(...params, code),
};
