'use strict';
// cluster: one process per program here.
const { unsupportedModule } = require('internal/unsupported');
const EventEmitter = require('node:events');
module.exports = Object.assign(
  new EventEmitter(),
  unsupportedModule('cluster', 'threads', ['fork', 'setupPrimary', 'setupMaster', 'disconnect']),
  { isPrimary: true, isMaster: true, isWorker: false, workers: {}, settings: {} },
);
