// Temporary probe module for the harness smoke test.
module.exports = { answer: 42, buf: require('tabcode:vendor/buffer').Buffer.from('hi').toString('hex') };
