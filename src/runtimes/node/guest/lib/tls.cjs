'use strict';
// tls: see net.
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule(
  'tls',
  'network',
  ['createServer', 'connect', 'createSecureContext', 'getCiphers'],
  ['TLSSocket', 'Server'],
  { DEFAULT_MIN_VERSION: 'TLSv1.2', DEFAULT_MAX_VERSION: 'TLSv1.3', rootCertificates: [] },
);
