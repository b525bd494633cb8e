'use strict';
// worker_threads: the program is the only thread; the main-thread values are real.
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule(
  'worker_threads',
  'threads',
  [
    'receiveMessageOnPort',
    'moveMessagePortToContext',
    'markAsUntransferable',
    'getEnvironmentData',
    'setEnvironmentData',
  ],
  ['Worker', 'MessageChannel', 'MessagePort', 'BroadcastChannel'],
  {
    isMainThread: true,
    parentPort: null,
    workerData: null,
    threadId: 0,
    resourceLimits: {},
    SHARE_ENV: Symbol('SHARE_ENV'),
  },
);
