'use strict';
// fs/promises is fs.promises.
module.exports = require('node:fs').promises;
