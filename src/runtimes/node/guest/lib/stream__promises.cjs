'use strict';
// node:stream/promises — pipeline() and finished() returning promises.
const { pipelinePromise } = require('internal/streams/pipeline');
const eos = require('internal/streams/end-of-stream');

module.exports = { pipeline: pipelinePromise, finished: eos.finished };
