/**
 * The guest's built-in modules: JavaScript that runs inside the QuickJS engine (never on the page).
 *
 * Each file `lib/<name>.cjs` is one CommonJS module, evaluated by the guest's module system wrapped as
 * `(function (exports, require, module, __filename, __dirname) { ... })`. Its builtin name is the file
 * name with `__` read as `/`: `lib/path.cjs` is `path` (and `node:path`), `lib/assert__strict.cjs` is
 * `assert/strict`, `lib/internal__globals.cjs` is `internal/globals`. Names under `internal/` are for the
 * runtime itself: a user's `require('internal/…')` fails as it does in Node.
 *
 * Third-party code that runs in the guest (the `buffer` package and its two dependencies) is listed
 * under `tabcode:vendor/<name>`; inside those modules a bare `require('base64-js')` resolves through
 * VENDOR_ALIASES.
 */
import base64Js from 'base64-js/index.js?raw';
import bufferPkg from 'buffer/index.js?raw';
import ieee754 from 'ieee754/index.js?raw';

const files = import.meta.glob<string>('./lib/*.cjs', { query: '?raw', import: 'default', eager: true });

/** Builtin name → CommonJS source. */
export const GUEST_SOURCES: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(
    Object.entries(files).map(([path, source]) => [
      path
        .replace(/^\.\/lib\//, '')
        .replace(/\.cjs$/, '')
        .replaceAll('__', '/'),
      source,
    ]),
  ),
  'tabcode:vendor/buffer': bufferPkg,
  'tabcode:vendor/base64-js': base64Js,
  'tabcode:vendor/ieee754': ieee754,
});

/** Bare names vendor code requires, and the internal module each one means. */
export const VENDOR_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'base64-js': 'tabcode:vendor/base64-js',
  ieee754: 'tabcode:vendor/ieee754',
});

/** Builtins a user may require (everything but `internal/…` and `tabcode:…`). */
export function publicBuiltins(): string[] {
  return Object.keys(GUEST_SOURCES)
    .filter((name) => !name.startsWith('internal/') && !name.startsWith('tabcode:'))
    .sort();
}
