'use strict';
// v8: heap figures are approximate; serialize/deserialize use structuredClone-compatible JSON.
module.exports = {
  getHeapStatistics: () => ({
    total_heap_size: 20_000_000,
    used_heap_size: 10_000_000,
    heap_size_limit: 268_435_456,
    total_available_size: 250_000_000,
    malloced_memory: 0,
    peak_malloced_memory: 0,
    number_of_native_contexts: 1,
    number_of_detached_contexts: 0,
  }),
  getHeapSpaceStatistics: () => [],
  setFlagsFromString: () => {},
  cachedDataVersionTag: () => 0,
  serialize: (v) => require('buffer').Buffer.from(JSON.stringify(v)),
  deserialize: (b) => JSON.parse(String(b)),
};
