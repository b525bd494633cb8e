'use strict';
// Installs on globalThis what Node has and QuickJS lacks, for everything that needs no host access:
// TextEncoder/TextDecoder, URL/URLSearchParams, atob/btoa, Buffer, AbortController/AbortSignal, Event,
// EventTarget, CustomEvent, structuredClone, `global`, and Node 21+'s `navigator`. Non-enumerable,
// writable and configurable, as Node defines its globals. Runs before `process` exists (the engine
// loads it first), so nothing here reads process at load time.

const { TextEncoder, TextDecoder } = require('internal/encoding');
const { Event, EventTarget, CustomEvent } = require('internal/web/event-target');
const { AbortController, AbortSignal } = require('internal/web/abort');
const { structuredClone } = require('internal/web/structured-clone');
const { atob, btoa } = require('internal/web/base64');
const { URL, URLSearchParams } = require('internal/url');
const { Buffer } = require('node:buffer');

function define(name, value, enumerable = false) {
  Object.defineProperty(globalThis, name, { value, writable: true, enumerable, configurable: true });
}

/** Node's lazily loaded globals are accessors; assigning one replaces it with a plain value. */
function defineAccessor(name, value, enumerable = false) {
  Object.defineProperty(globalThis, name, {
    get: () => value,
    set(replacement) {
      Object.defineProperty(globalThis, name, {
        value: replacement,
        writable: true,
        enumerable,
        configurable: true,
      });
    },
    enumerable,
    configurable: true,
  });
}

class Navigator {
  get hardwareConcurrency() {
    return require('node:os').availableParallelism();
  }
  get language() {
    return 'en-US';
  }
  get languages() {
    return ['en-US'];
  }
  get platform() {
    return 'linux';
  }
  get userAgent() {
    const version = globalThis.process?.version ?? 'v22.12.0';
    return `Node.js/${version.slice(1).split('.')[0]}`;
  }
}
Object.defineProperty(Navigator.prototype, Symbol.toStringTag, { value: 'Navigator', configurable: true });

// [name, value, accessor (as Node defines it), enumerable (as Node defines it)]
const GLOBALS = [
  ['TextEncoder', TextEncoder, true, false],
  ['TextDecoder', TextDecoder, true, false],
  ['URL', URL, false, false],
  ['URLSearchParams', URLSearchParams, false, false],
  ['atob', atob, true, true],
  ['btoa', btoa, true, true],
  ['Buffer', Buffer, true, false],
  ['AbortController', AbortController, true, false],
  ['AbortSignal', AbortSignal, true, false],
  ['Event', Event, false, false],
  ['EventTarget', EventTarget, false, false],
  ['CustomEvent', CustomEvent, false, false],
  ['structuredClone', structuredClone, false, true],
  ['global', globalThis, false, true],
  ['DOMException', globalThis.DOMException, true, false],
  // The page's navigator is not visible in the engine; this is Node's own (Node 21+).
  ['navigator', new Navigator(), true, true],
];
for (const [name, value, accessor, enumerable] of GLOBALS) {
  if (accessor) defineAccessor(name, value, enumerable);
  else define(name, value, enumerable);
}

module.exports = { installed: GLOBALS.map(([name]) => name) };
