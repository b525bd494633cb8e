'use strict';
// dgram: see net.
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule('dgram', 'network', ['createSocket'], ['Socket']);
