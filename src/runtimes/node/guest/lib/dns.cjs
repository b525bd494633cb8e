'use strict';
// dns: no name resolution without a network.
const { unsupportedModule } = require('internal/unsupported');
const api = [
  'lookup',
  'lookupService',
  'resolve',
  'resolve4',
  'resolve6',
  'resolveAny',
  'resolveCname',
  'resolveMx',
  'resolveNs',
  'resolveTxt',
  'resolveSrv',
  'reverse',
  'setServers',
];
module.exports = unsupportedModule('dns', 'network', api, ['Resolver'], {
  getServers: () => [],
  promises: unsupportedModule('dns.promises', 'network', api, ['Resolver']),
});
