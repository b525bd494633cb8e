'use strict';
// Installs on globalThis what Node has and QuickJS lacks, for everything that needs no host access:
// TextEncoder/TextDecoder, URL/URLSearchParams, atob/btoa, Buffer, AbortController/AbortSignal, Event,
// EventTarget, CustomEvent, structuredClone, `global`, and Node 21+'s `navigator`. Writable and
// configurable, enumerable where Node's are (atob, btoa, structuredClone, global, navigator). Each
// loads its module on first use. Runs before `process` exists (the engine loads it first), so nothing
// here reads process at load time.

// Takes the engine's host hooks off globalThis before any user code can see them.
require('internal/host');

function define(name, value, enumerable = false) {
  Object.defineProperty(globalThis, name, { value, writable: true, enumerable, configurable: true });
}

/**
 * A global whose module loads on first use (most programs touch few of them, and each costs start-up
 * time in the engine). The first read, or an assignment, turns it into a plain writable property.
 */
function defineLazy(name, load, enumerable = false) {
  Object.defineProperty(globalThis, name, {
    get() {
      const value = load();
      define(name, value, enumerable);
      return value;
    },
    set(replacement) {
      define(name, replacement, enumerable);
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

// [name, loader, enumerable (as Node defines it)]
const GLOBALS = [
  ['TextEncoder', () => require('internal/encoding').TextEncoder, false],
  ['TextDecoder', () => require('internal/encoding').TextDecoder, false],
  ['URL', () => require('internal/url').URL, false],
  ['URLSearchParams', () => require('internal/url').URLSearchParams, false],
  ['atob', () => require('internal/web/base64').atob, true],
  ['btoa', () => require('internal/web/base64').btoa, true],
  ['Buffer', () => require('node:buffer').Buffer, false],
  ['AbortController', () => require('internal/web/abort').AbortController, false],
  ['AbortSignal', () => require('internal/web/abort').AbortSignal, false],
  ['Event', () => require('internal/web/event-target').Event, false],
  ['EventTarget', () => require('internal/web/event-target').EventTarget, false],
  ['CustomEvent', () => require('internal/web/event-target').CustomEvent, false],
  ['structuredClone', () => require('internal/web/structured-clone').structuredClone, true],
  // The page's navigator is not visible in the engine; this is Node's own (Node 21+).
  ['navigator', () => new Navigator(), true],
];
for (const [name, load, enumerable] of GLOBALS) defineLazy(name, load, enumerable);
define('global', globalThis, true);
const { DOMException } = globalThis;
define('DOMException', DOMException, false);

module.exports = { installed: [...GLOBALS.map(([name]) => name), 'global', 'DOMException'] };
