'use strict';
// The seam between the engine's `node --test` and node:test.
//
//   const { run } = require('internal/test/runner');
//   const { success, counters } = await run({
//     files: ['/home/user/project/test/a.test.js', ...], // absolute paths, in the order to run them
//     load: (file) => engineLoadsTheFile(file),          // required: runs one file as a main module
//                                                        // (require or import); may return a promise
//     cwd: process.cwd(),                                // failure locations are shown relative to it
//     only: false,                                       // --test-only
//     timeout: Infinity,                                 // --test-timeout (ms), the default per test
//     namePatterns: [],                                  // --test-name-pattern values (strings or RegExps)
//   });
//
// The engine finds the files (Node's default patterns), then calls run() once, before loading any of
// them. For each file in turn run() calls `load(file)`, waits for it, then runs the tests the file
// declared (one at a time, as Node does inside a file) before moving on; every file reports into the
// one reporter, and one summary is printed at the end. run() sets process.exitCode = 1 when a test
// failed and resolves with { success, counters }; it never rejects for a failing test or file.
//
// A file whose load() throws or rejects is reported as Node reports a test file that exited with an
// error: its error (util.inspect) on stderr, then a failing test named by the file's path ('test
// failed'). Tests it declared before failing do not run. A file whose loading never settles (the loop
// ran dry) is reported the same way.
//
// Each file gets its own root, so a file's top-level before/after/beforeEach/afterEach hooks apply to
// its own tests only, and its `after` hooks run once its tests are done, as in Node's process per
// file. The files do share one realm: the engine should load each as a fresh main module; globals a
// file leaves behind stay visible to the next.
const U = require('internal/test/utils');
const { harness } = require('internal/test/harness');

function validate(options) {
  if (options === null || typeof options !== 'object') throw U.invalidArgType('options', 'Object', options);
  const { files, load } = options;
  if (!Array.isArray(files) || files.some((f) => typeof f !== 'string')) {
    throw U.invalidArgType('options.files', 'Array', files);
  }
  if (typeof load !== 'function') throw U.invalidArgType('options.load', 'Function', load);
}

/** Waits for `promise`, or for the loop to run dry while waiting (a load that can never finish). */
function loadOrStall(promise) {
  return new Promise((resolve, reject) => {
    harness.onLoadStalled = () =>
      reject(new Error('the test file never finished loading (unsettled top-level await)'));
    promise.then(resolve, reject);
  }).finally(() => {
    harness.onLoadStalled = null;
  });
}

async function run(options) {
  validate(options);
  const cwd = options.cwd ?? (globalThis.process && typeof process.cwd === 'function' ? process.cwd() : '/');
  harness.startRunner({
    only: options.only,
    timeout: options.timeout,
    namePatterns: options.namePatterns,
    cwd,
  });
  for (const file of options.files) {
    const root = harness.createRoot();
    const startTime = U.now();
    try {
      await loadOrStall(Promise.resolve().then(() => options.load(file)));
    } catch (err) {
      harness.flush();
      globalThis.process.stderr.write(`${U.inspect(err)}\n`);
      harness.fileFailed(file, startTime);
    }
    await harness.whenIdle();
    await harness.closeRoot(root);
    harness.flush(); // a file's report is out before the next file's own output
  }
  return harness.finalize();
}

module.exports = { run };
