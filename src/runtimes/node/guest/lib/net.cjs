'use strict';
// net: no sockets in the browser sandbox. isIP and friends work.
const { unsupportedModule } = require('internal/unsupported');

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 =
  /^(([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|(([0-9a-f]{1,4}:){0,7}[0-9a-f]{0,4})?::(([0-9a-f]{1,4}:){0,7}[0-9a-f]{0,4})?)$/i;
const isIPv4 = (s) => IPV4.test(String(s));
const isIPv6 = (s) => IPV6.test(String(s));
const isIP = (s) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0);

module.exports = unsupportedModule(
  'net',
  'network',
  ['createServer', 'createConnection', 'connect'],
  ['Server', 'Socket', 'BlockList', 'SocketAddress'],
  { isIP, isIPv4, isIPv6 },
);
