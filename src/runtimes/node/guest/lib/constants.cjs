'use strict';
module.exports = { ...require('node:fs').constants, ...(require('node:os').constants?.signals ?? {}) };
