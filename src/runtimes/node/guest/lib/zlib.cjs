'use strict';
// zlib: not in this runtime yet; constants are there so code that only reads them loads.
const { unsupportedModule } = require('internal/unsupported');
const names = [
  'gzip',
  'gzipSync',
  'gunzip',
  'gunzipSync',
  'deflate',
  'deflateSync',
  'inflate',
  'inflateSync',
  'deflateRaw',
  'deflateRawSync',
  'inflateRaw',
  'inflateRawSync',
  'unzip',
  'unzipSync',
  'brotliCompress',
  'brotliCompressSync',
  'brotliDecompress',
  'brotliDecompressSync',
  'createGzip',
  'createGunzip',
  'createDeflate',
  'createInflate',
  'createDeflateRaw',
  'createInflateRaw',
  'createUnzip',
  'createBrotliCompress',
  'createBrotliDecompress',
  'crc32',
];
module.exports = unsupportedModule('zlib', 'compression', names, [], {
  constants: {
    Z_NO_FLUSH: 0,
    Z_SYNC_FLUSH: 2,
    Z_FULL_FLUSH: 3,
    Z_FINISH: 4,
    Z_BEST_SPEED: 1,
    Z_BEST_COMPRESSION: 9,
    Z_DEFAULT_COMPRESSION: -1,
  },
});
