'use strict';
// node:assert/strict: assert in strict mode (equal is strictEqual, deepEqual is deepStrictEqual, ...).
module.exports = require('node:assert').strict;
