'use strict';
// URL and URLSearchParams (WHATWG), with Node's errors (ERR_INVALID_URL with `input`, ERR_MISSING_ARGS,
// ERR_INVALID_TUPLE, ERR_INVALID_THIS) and Node's util.inspect output. A URL's searchParams are live:
// changing either side updates the other.

const { codes } = require('internal/errors');
const parser = require('internal/url/parser');
const { percentDecodeBytes } = require('internal/url/host');
const { utf8Encode, utf8Decode } = require('internal/encoding');

const { FAILURE, STATES, basicParse, serialize, hasOpaquePath } = parser;
const customInspect = Symbol.for('nodejs.util.inspect.custom');
const kRecord = Symbol('kRecord');
const kUpdate = Symbol('kUpdate');
const kList = Symbol('kList');
const kLink = Symbol('kLink');

function invalidUrl(input, base) {
  const err = codes.ERR_INVALID_URL();
  err.input = input;
  if (base !== undefined) err.base = base;
  return err;
}

const toUSV = (value) => `${value}`.toWellFormed();

// ---- application/x-www-form-urlencoded ----
const FORM_SAFE = /[*\-._0-9A-Za-z]/;

function formEncode(text) {
  let out = '';
  for (const byte of utf8Encode(text)) {
    if (byte === 0x20) out += '+';
    else if (byte < 0x80 && FORM_SAFE.test(String.fromCharCode(byte))) out += String.fromCharCode(byte);
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function formDecode(text) {
  return utf8Decode(percentDecodeBytes(text.replaceAll('+', ' ')))[0];
}

function parseForm(query) {
  const list = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    list.push([formDecode(name), formDecode(value)]);
  }
  return list;
}

function serializeForm(list) {
  return list.map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`).join('&');
}

class URLSearchParams {
  constructor(init = undefined) {
    Object.defineProperty(this, kList, { value: [], writable: true, enumerable: false });
    Object.defineProperty(this, kLink, { value: null, writable: true, enumerable: false });
    if (init === undefined || init === null) return;
    if (typeof init === 'object' || typeof init === 'function') {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          if (
            (typeof pair !== 'object' && typeof pair !== 'function') ||
            pair === null ||
            typeof pair[Symbol.iterator] !== 'function'
          ) {
            throw codes.ERR_INVALID_TUPLE('Each query pair', '[name, value]');
          }
          const items = [...pair];
          if (items.length !== 2) throw codes.ERR_INVALID_TUPLE('Each query pair', '[name, value]');
          this[kList].push([toUSV(items[0]), toUSV(items[1])]);
        }
      } else {
        for (const key of Reflect.ownKeys(init)) {
          if (typeof key !== 'string' || !Object.prototype.propertyIsEnumerable.call(init, key)) continue;
          this[kList].push([toUSV(key), toUSV(init[key])]);
        }
      }
      return;
    }
    const text = toUSV(init);
    this[kList] = parseForm(text.startsWith('?') ? text.slice(1) : text);
  }

  [kUpdate]() {
    const url = this[kLink];
    if (url === null) return;
    const serialized = serializeForm(this[kList]);
    url[kRecord].query = serialized === '' ? null : serialized;
  }

  get size() {
    return this[kList].length;
  }

  append(...args) {
    if (args.length < 2) throw codes.ERR_MISSING_ARGS('name', 'value');
    this[kList].push([toUSV(args[0]), toUSV(args[1])]);
    this[kUpdate]();
  }

  delete(...args) {
    if (args.length < 1) throw codes.ERR_MISSING_ARGS('name');
    const name = toUSV(args[0]);
    const value = args[1] === undefined ? undefined : toUSV(args[1]);
    this[kList] = this[kList].filter(([n, v]) => !(n === name && (value === undefined || v === value)));
    this[kUpdate]();
  }

  get(...args) {
    if (args.length < 1) throw codes.ERR_MISSING_ARGS('name');
    const name = toUSV(args[0]);
    return this[kList].find(([n]) => n === name)?.[1] ?? null;
  }

  getAll(...args) {
    if (args.length < 1) throw codes.ERR_MISSING_ARGS('name');
    const name = toUSV(args[0]);
    return this[kList].filter(([n]) => n === name).map(([, v]) => v);
  }

  has(...args) {
    if (args.length < 1) throw codes.ERR_MISSING_ARGS('name');
    const name = toUSV(args[0]);
    const value = args[1] === undefined ? undefined : toUSV(args[1]);
    return this[kList].some(([n, v]) => n === name && (value === undefined || v === value));
  }

  set(...args) {
    if (args.length < 2) throw codes.ERR_MISSING_ARGS('name', 'value');
    const name = toUSV(args[0]);
    const value = toUSV(args[1]);
    const index = this[kList].findIndex(([n]) => n === name);
    if (index === -1) this[kList].push([name, value]);
    else {
      this[kList][index][1] = value;
      this[kList] = this[kList].filter(([n], i) => i <= index || n !== name);
    }
    this[kUpdate]();
  }

  sort() {
    // Stable, by UTF-16 code units of the names.
    this[kList] = this[kList]
      .map((pair, i) => [pair, i])
      .sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
      .map(([pair]) => pair);
    this[kUpdate]();
  }

  forEach(callback, thisArg = undefined) {
    if (typeof callback !== 'function') throw codes.ERR_INVALID_ARG_TYPE('callback', 'Function', callback);
    for (let i = 0; i < this[kList].length; i++) {
      const [name, value] = this[kList][i];
      callback.call(thisArg, value, name, this);
    }
  }

  *entries() {
    for (let i = 0; i < this[kList].length; i++) yield [...this[kList][i]];
  }

  *keys() {
    for (const [name] of this.entries()) yield name;
  }

  *values() {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  toString() {
    return serializeForm(this[kList]);
  }

  [customInspect](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return options.stylize('[Object]', 'special');
    const inner = { ...options, depth: depth === null ? null : depth - 1 };
    const output = this[kList].map(([n, v]) => `${inspect(n, inner)} => ${inspect(v, inner)}`);
    const length = output.reduce((sum, item) => sum + item.length + 2, -2);
    if (length > options.breakLength) return `${this.constructor.name} {\n  ${output.join(',\n  ')} }`;
    if (output.length > 0) return `${this.constructor.name} { ${output.join(', ')} }`;
    return `${this.constructor.name} {}`;
  }
}
Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, {
  value: 'URLSearchParams',
  configurable: true,
});

function cannotHaveCredentialsOrPort(record) {
  return record.host === null || record.host === '' || record.scheme === 'file';
}

class URL {
  #searchParams;

  constructor(...args) {
    if (args.length === 0) throw codes.ERR_MISSING_ARGS('url');
    const input = toUSV(args[0]);
    let baseRecord = null;
    const base = args[1];
    if (base !== undefined) {
      baseRecord = basicParse(toUSV(base));
      if (baseRecord === FAILURE) throw invalidUrl(input, toUSV(base));
    }
    const record = basicParse(input, baseRecord);
    if (record === FAILURE) throw invalidUrl(input, base === undefined ? undefined : toUSV(base));
    Object.defineProperty(this, kRecord, { value: record, writable: true, enumerable: false });
    this.#searchParams = new URLSearchParams(record.query ?? '');
    this.#searchParams[kLink] = this;
  }

  static canParse(...args) {
    if (args.length === 0) throw codes.ERR_MISSING_ARGS('url');
    try {
      new URL(...args);
      return true;
    } catch {
      return false;
    }
  }

  static parse(...args) {
    if (args.length === 0) throw codes.ERR_MISSING_ARGS('url');
    try {
      return new URL(...args);
    } catch {
      return null;
    }
  }

  static createObjectURL() {
    throw codes.ERR_NOT_SUPPORTED_IN_TABCODE('URL.createObjectURL()');
  }

  static revokeObjectURL() {}

  #syncSearchParams() {
    this.#searchParams[kList] = this[kRecord].query === null ? [] : parseForm(this[kRecord].query);
  }

  get href() {
    return serialize(this[kRecord]);
  }
  set href(value) {
    const record = basicParse(toUSV(value));
    if (record === FAILURE) throw invalidUrl(toUSV(value));
    this[kRecord] = record;
    this.#syncSearchParams();
  }

  get origin() {
    return parser.origin(this[kRecord]);
  }

  get protocol() {
    return `${this[kRecord].scheme}:`;
  }
  set protocol(value) {
    basicParse(`${toUSV(value)}:`, null, this[kRecord], STATES.SCHEME_START);
  }

  get username() {
    return this[kRecord].username;
  }
  set username(value) {
    if (cannotHaveCredentialsOrPort(this[kRecord])) return;
    this[kRecord].username = parser.percentEncodeString(toUSV(value), parser.USERINFO_SET);
  }

  get password() {
    return this[kRecord].password;
  }
  set password(value) {
    if (cannotHaveCredentialsOrPort(this[kRecord])) return;
    this[kRecord].password = parser.percentEncodeString(toUSV(value), parser.USERINFO_SET);
  }

  get host() {
    const { host, port } = this[kRecord];
    if (host === null) return '';
    return port === null ? host : `${host}:${port}`;
  }
  set host(value) {
    if (hasOpaquePath(this[kRecord])) return;
    this.#withCopy((copy) => basicParse(toUSV(value), null, copy, STATES.HOST));
  }

  get hostname() {
    return this[kRecord].host ?? '';
  }
  set hostname(value) {
    if (hasOpaquePath(this[kRecord])) return;
    this.#withCopy((copy) => basicParse(toUSV(value), null, copy, STATES.HOSTNAME));
  }

  get port() {
    return this[kRecord].port === null ? '' : String(this[kRecord].port);
  }
  set port(value) {
    if (cannotHaveCredentialsOrPort(this[kRecord])) return;
    const text = toUSV(value);
    if (text === '') this[kRecord].port = null;
    else this.#withCopy((copy) => basicParse(text, null, copy, STATES.PORT));
  }

  get pathname() {
    return parser.serializePath(this[kRecord]);
  }
  set pathname(value) {
    if (hasOpaquePath(this[kRecord])) return;
    this.#withCopy((copy) => {
      copy.path = [];
      return basicParse(toUSV(value), null, copy, STATES.PATH_START);
    });
  }

  get search() {
    const { query } = this[kRecord];
    return query === null || query === '' ? '' : `?${query}`;
  }
  set search(value) {
    const text = toUSV(value);
    if (text === '') {
      this[kRecord].query = null;
      this.#searchParams[kList] = [];
      return;
    }
    const input = text.startsWith('?') ? text.slice(1) : text;
    this[kRecord].query = '';
    basicParse(input, null, this[kRecord], STATES.QUERY);
    this.#syncSearchParams();
  }

  get searchParams() {
    return this.#searchParams;
  }

  get hash() {
    const { fragment } = this[kRecord];
    return fragment === null || fragment === '' ? '' : `#${fragment}`;
  }
  set hash(value) {
    const text = toUSV(value);
    if (text === '') {
      this[kRecord].fragment = null;
      return;
    }
    this[kRecord].fragment = '';
    basicParse(text.startsWith('#') ? text.slice(1) : text, null, this[kRecord], STATES.FRAGMENT);
  }

  /** Runs a setter's parse on a copy so that a failure leaves the URL as it was. */
  #withCopy(change) {
    const copy = structuredCloneRecord(this[kRecord]);
    const result = change(copy);
    if (result !== FAILURE && result !== undefined) this[kRecord] = copy;
  }

  toString() {
    return this.href;
  }

  toJSON() {
    return this.href;
  }

  [customInspect](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const shown = {
      href: this.href,
      origin: this.origin,
      protocol: this.protocol,
      username: this.username,
      password: this.password,
      host: this.host,
      hostname: this.hostname,
      port: this.port,
      pathname: this.pathname,
      search: this.search,
      searchParams: this.searchParams,
      hash: this.hash,
    };
    return `${this.constructor.name} ${inspect(shown, options)}`;
  }
}
Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });
for (const name of [
  'href',
  'origin',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'searchParams',
  'hash',
  'toString',
  'toJSON',
]) {
  const desc = Object.getOwnPropertyDescriptor(URL.prototype, name);
  Object.defineProperty(URL.prototype, name, { ...desc, enumerable: true });
}

function structuredCloneRecord(record) {
  return { ...record, path: typeof record.path === 'string' ? record.path : [...record.path] };
}

function isURL(value) {
  return (
    value instanceof URL ||
    (value != null &&
      typeof value.href === 'string' &&
      typeof value.protocol === 'string' &&
      value.auth === undefined &&
      value.path === undefined)
  );
}

module.exports = { URL, URLSearchParams, isURL, invalidUrl };
