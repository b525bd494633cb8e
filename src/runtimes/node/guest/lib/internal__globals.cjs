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

function define(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, enumerable: false, configurable: true });
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

const globals = {
  TextEncoder,
  TextDecoder,
  URL,
  URLSearchParams,
  atob,
  btoa,
  Buffer,
  AbortController,
  AbortSignal,
  Event,
  EventTarget,
  CustomEvent,
  structuredClone,
};
for (const [name, value] of Object.entries(globals)) define(name, value);
if (!('global' in globalThis)) define('global', globalThis);
// The page's navigator is not visible in the engine; this is Node's own (Node 21+).
Object.defineProperty(globalThis, 'navigator', {
  value: new Navigator(),
  writable: false,
  enumerable: false,
  configurable: true,
});

module.exports = { installed: [...Object.keys(globals), 'global', 'navigator'] };
