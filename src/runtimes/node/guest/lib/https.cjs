'use strict';
// https: see http.
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule(
  'https',
  'network',
  ['createServer', 'request', 'get'],
  ['Server', 'Agent'],
  { globalAgent: undefined },
);
