'use strict';
// http2: see http.
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule(
  'http2',
  'network',
  [
    'createServer',
    'createSecureServer',
    'connect',
    'getDefaultSettings',
    'getPackedSettings',
    'getUnpackedSettings',
  ],
  [],
  { constants: {} },
);
