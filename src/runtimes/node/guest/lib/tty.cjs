'use strict';
// tty: output here is never a terminal (commands run on pipes), as Node reports for a pipe.
const { unsupportedModule } = require('internal/unsupported');
module.exports = unsupportedModule(
  'tty',
  'no terminal is attached to programs in the sandbox',
  [],
  ['ReadStream', 'WriteStream'],
  { isatty: () => false },
);
