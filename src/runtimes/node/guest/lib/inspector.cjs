'use strict';
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule(
  'inspector',
  'inspector',
  ['open', 'close', 'waitForDebugger'],
  ['Session'],
  { url: () => undefined, console: globalThis.console },
);
