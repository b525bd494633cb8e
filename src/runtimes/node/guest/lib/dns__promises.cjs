'use strict';
module.exports = require('node:dns').promises;
