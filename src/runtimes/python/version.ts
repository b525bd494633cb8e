/**
 * The Python that tabcode's `python3` is: CPython as the `pyodide` npm package builds it. The host
 * answers `python3 --version` from these without loading anything; a test checks them against the
 * package and the interpreter, so an upgrade of the package that forgets them fails.
 */

/** `sys.version_info` of the interpreter in the pyodide package. */
export const PYTHON_VERSION = '3.14.2';
/** The pyodide npm package (its files are served from our own origin, in a folder named after it). */
export const PYODIDE_VERSION = '314.0.7';
/** The folder, next to the python worker's own script, that holds Pyodide's files in a build. */
export const PYODIDE_DIR = `pyodide-${PYODIDE_VERSION}`;
/**
 * Pyodide's files the worker loads: the loader, the emscripten module, the interpreter and the standard
 * library. The package lock file is not among them: the worker passes an empty one (no packages can be
 * installed; nothing is fetched from a CDN).
 */
export const PYODIDE_FILES = [
  'pyodide.mjs',
  'pyodide.asm.mjs',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
] as const;
/**
 * The `info` block of the package's pyodide-lock.json (Pyodide checks its ABI when loading). The worker
 * passes it with no packages instead of fetching the 120 KB lock file.
 */
export const PYODIDE_LOCK_INFO = {
  abi_version: '2026_0',
  arch: 'wasm32',
  platform: 'emscripten_5_0_3',
  python: PYTHON_VERSION,
} as const;
