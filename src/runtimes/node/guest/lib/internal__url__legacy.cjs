'use strict';
// The legacy url API: url.parse, url.format of a Url-shaped object, url.resolve, and the Url class.
// It follows Node's lenient parser (backslashes before the query read as '/', auth split at the last
// '@', characters RFC 2396 calls unwise escaped, host lower-cased and punycoded). url.resolve is
// computed with the WHATWG resolver, which agrees with Node's legacy one for ordinary inputs
// (absolute and relative bases, '..' segments, protocol-relative and query-only references).

const { codes, emitWarning, validateString } = require('internal/errors');

let warnedInvalidPort = false;
const { domainToASCII } = require('internal/url/host');

const PROTOCOL = /^[a-z0-9.+-]+:/i;
const PORT = /:[0-9]*$/;
const HOST_WITH_AUTH = /^\/\/[^@/]+@[^@/]+/;
const SIMPLE_PATH = /^(\/\/?(?!\/)[^?\s]*)(\?[^\s]*)?$/;
const HOSTNAME_MAX = 255;
const HOSTLESS = new Set(['javascript', 'javascript:']);
const SLASHED = new Set([
  'http',
  'http:',
  'https',
  'https:',
  'ftp',
  'ftp:',
  'gopher',
  'gopher:',
  'file',
  'file:',
  'ws',
  'ws:',
  'wss',
  'wss:',
]);
const NEVER_IN_HOST = new Set([
  '\t',
  '\n',
  '\r',
  ' ',
  '"',
  '%',
  "'",
  ';',
  '<',
  '>',
  '\\',
  '^',
  '`',
  '{',
  '|',
  '}',
]);
const AUTO_ESCAPE = {
  '\t': '%09',
  '\n': '%0A',
  '\r': '%0D',
  ' ': '%20',
  '"': '%22',
  "'": '%27',
  '<': '%3C',
  '>': '%3E',
  '\\': '%5C',
  '^': '%5E',
  '`': '%60',
  '{': '%7B',
  '|': '%7C',
  '}': '%7D',
};
const FORBIDDEN_HOST_CHARS = /[\0\t\n\r #%/:<>?@[\\\]^|]/;
const FORBIDDEN_IPV6_HOST_CHARS = /[\0\t\n\r #%/<>?@\\^|]/;
const AUTH_SAFE = /[A-Za-z0-9!'()*\-._~:]/;

let querystring;
const qs = () => {
  querystring ??= require('node:querystring');
  return querystring;
};

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

const isWhitespace = (code) => code < 33 || code === 0xa0 || code === 0xfeff;
const isIpv6Hostname = (hostname) => hostname.startsWith('[') && hostname.endsWith(']');

/** Trims whitespace and turns backslashes before the first '?' or '#' into '/'. */
function prepare(url) {
  let start = 0;
  let end = url.length;
  while (start < end && isWhitespace(url.charCodeAt(start))) start++;
  while (end > start && isWhitespace(url.charCodeAt(end - 1))) end--;
  let rest = '';
  let hasHash = false;
  let hasAt = false;
  let split = false;
  for (let i = start; i < end; i++) {
    const ch = url[i];
    if (!split) {
      if (ch === '@') hasAt = true;
      else if (ch === '#') {
        hasHash = true;
        split = true;
      } else if (ch === '?') split = true;
      rest += ch === '\\' ? '/' : ch;
    } else {
      if (ch === '#') hasHash = true;
      rest += ch;
    }
  }
  return { rest, hasHash, hasAt };
}

Url.prototype.parse = function parse(url, parseQueryString, slashesDenoteHost) {
  validateString(url, 'url');
  let { rest, hasHash, hasAt } = prepare(url);
  if (!slashesDenoteHost && !hasHash && !hasAt) {
    const simple = SIMPLE_PATH.exec(rest);
    if (simple) {
      this.path = rest;
      this.href = rest;
      this.pathname = simple[1];
      if (simple[2]) {
        this.search = simple[2];
        this.query = parseQueryString ? qs().parse(this.search.slice(1)) : this.search.slice(1);
      } else if (parseQueryString) {
        this.search = null;
        this.query = { __proto__: null };
      }
      return this;
    }
  }
  const proto = PROTOCOL.exec(rest)?.[0];
  let lowerProto;
  if (proto) {
    lowerProto = proto.toLowerCase();
    this.protocol = lowerProto;
    rest = rest.slice(proto.length);
  }
  let slashes;
  if (slashesDenoteHost || proto || HOST_WITH_AUTH.test(rest)) {
    slashes = rest.startsWith('//');
    if (slashes && !(proto && HOSTLESS.has(lowerProto))) {
      rest = rest.slice(2);
      this.slashes = true;
    }
  }
  if (!HOSTLESS.has(lowerProto) && (slashes || (proto && !SLASHED.has(proto)))) {
    rest = this.parseAuthority(rest, url);
  }
  if (lowerProto !== 'javascript' && lowerProto !== 'javascript:') {
    rest = [...rest].map((ch) => AUTO_ESCAPE[ch] ?? ch).join('');
  }
  const hashIdx = rest.indexOf('#');
  if (hashIdx !== -1) this.hash = rest.slice(hashIdx);
  const beforeHash = hashIdx === -1 ? rest : rest.slice(0, hashIdx);
  const questionIdx = beforeHash.indexOf('?');
  if (questionIdx !== -1) {
    this.search = beforeHash.slice(questionIdx);
    this.query = beforeHash.slice(questionIdx + 1);
    if (parseQueryString) this.query = qs().parse(this.query);
  } else if (parseQueryString) {
    this.search = null;
    this.query = { __proto__: null };
  }
  const firstIdx = questionIdx !== -1 ? questionIdx : hashIdx;
  if (firstIdx === -1) {
    if (rest.length > 0) this.pathname = rest;
  } else if (firstIdx > 0) {
    this.pathname = rest.slice(0, firstIdx);
  }
  if (SLASHED.has(lowerProto) && this.hostname && !this.pathname) this.pathname = '/';
  if (this.pathname || this.search) this.path = (this.pathname || '') + (this.search || '');
  this.href = this.format();
  return this;
};

/** Reads auth, host and port from the start of `rest`; returns what follows the host. */
Url.prototype.parseAuthority = function parseAuthority(input, url) {
  let rest = input;
  let hostEnd = -1;
  let atSign = -1;
  let nonHost = -1;
  for (let i = 0; i < rest.length && hostEnd === -1; i++) {
    const ch = rest[i];
    if (NEVER_IN_HOST.has(ch)) {
      if (nonHost === -1) nonHost = i;
    } else if (ch === '#' || ch === '/' || ch === '?') {
      if (nonHost === -1) nonHost = i;
      hostEnd = i;
    } else if (ch === '@') {
      atSign = i;
      nonHost = -1;
    }
  }
  let start = 0;
  if (atSign !== -1) {
    this.auth = decodeURIComponent(rest.slice(0, atSign));
    start = atSign + 1;
  }
  if (nonHost === -1) {
    this.host = rest.slice(start);
    rest = '';
  } else {
    this.host = rest.slice(start, nonHost);
    rest = rest.slice(nonHost);
  }
  this.parseHost();
  if (typeof this.hostname !== 'string') this.hostname = '';
  const ipv6 = isIpv6Hostname(this.hostname);
  if (!ipv6) {
    // A character that cannot be in a host moves the rest of the "host" into the path.
    const bad = this.hostname.search(/[/\\#?:]/);
    if (bad !== -1 && this.hostname[bad] === ':' && !warnedInvalidPort) {
      warnedInvalidPort = true;
      emitWarning(
        `The URL ${url} is invalid. Future versions of Node.js will throw an error.`,
        'DeprecationWarning',
        'DEP0170',
      );
    }
    if (bad !== -1) {
      rest = `/${this.hostname.slice(bad)}${rest}`;
      this.hostname = this.hostname.slice(0, bad);
    }
  }
  this.hostname = this.hostname.length > HOSTNAME_MAX ? '' : this.hostname.toLowerCase();
  if (this.hostname !== '') {
    if (ipv6) {
      if (FORBIDDEN_IPV6_HOST_CHARS.test(this.hostname)) throw invalid(url);
    } else {
      this.hostname = domainToASCII(this.hostname) ?? this.hostname;
      if (this.hostname === '' || FORBIDDEN_HOST_CHARS.test(this.hostname)) throw invalid(url);
    }
  }
  this.host = (this.hostname || '') + (this.port ? `:${this.port}` : '');
  if (ipv6) {
    this.hostname = this.hostname.slice(1, -1);
    if (rest[0] !== '/') rest = `/${rest}`;
  }
  return rest;
};

function invalid(url) {
  const err = codes.ERR_INVALID_URL();
  err.input = url;
  return err;
}

Url.prototype.parseHost = function parseHost() {
  let host = this.host;
  const port = PORT.exec(host)?.[0];
  if (port) {
    if (port !== ':') this.port = port.slice(1);
    host = host.slice(0, host.length - port.length);
  }
  if (host) this.hostname = host;
};

function encodeAuth(auth) {
  let out = '';
  for (const ch of auth) {
    if (ch.length === 1 && AUTH_SAFE.test(ch)) out += ch;
    else out += encodeURIComponent(ch);
  }
  return out;
}

Url.prototype.format = function format() {
  const auth = this.auth ? `${encodeAuth(this.auth)}@` : '';
  let protocol = this.protocol || '';
  let pathname = this.pathname || '';
  let hash = this.hash || '';
  let host = '';
  let query = '';
  if (this.host) {
    host = auth + this.host;
  } else if (this.hostname) {
    const hostname =
      this.hostname.includes(':') && !isIpv6Hostname(this.hostname) ? `[${this.hostname}]` : this.hostname;
    host = auth + hostname;
    if (this.port) host += `:${this.port}`;
  }
  if (this.query !== null && typeof this.query === 'object') query = qs().stringify(this.query);
  let search = this.search || (query && `?${query}`) || '';
  if (protocol && !protocol.endsWith(':')) protocol += ':';
  pathname = pathname.replaceAll('#', '%23').replaceAll('?', '%3F');
  if (this.slashes || SLASHED.has(protocol)) {
    if (this.slashes || host) {
      if (pathname && pathname[0] !== '/') pathname = `/${pathname}`;
      host = `//${host}`;
    } else if (protocol.startsWith('file')) {
      host = '//';
    }
  }
  search = search.replaceAll('#', '%23');
  if (hash && hash[0] !== '#') hash = `#${hash}`;
  if (search && search[0] !== '?') search = `?${search}`;
  return protocol + host + pathname + search + hash;
};

function urlParse(url, parseQueryString, slashesDenoteHost) {
  if (url instanceof Url) return url;
  const result = new Url();
  result.parse(url, parseQueryString, slashesDenoteHost);
  return result;
}

const RELATIVE_BASE = 'tabcode-relative://h';

/** url.resolve(from, to), through the WHATWG resolver (see the header for where it may differ). */
function urlResolve(from, to) {
  validateString(from, 'from');
  validateString(to, 'to');
  const { URL } = require('internal/url');
  const toParsed = urlParse(to, false, true);
  if (toParsed.protocol && toParsed.protocol !== urlParse(from, false, true).protocol)
    return toParsed.format();
  const fromParsed = urlParse(from, false, true);
  if (fromParsed.protocol && (fromParsed.slashes || fromParsed.host)) {
    try {
      const base = new URL(fromParsed.format());
      const resolved = new URL(to.replaceAll('\\', '/'), base);
      return urlParse(resolved.href).format();
    } catch {
      return fromParsed.format();
    }
  }
  // A relative or host-less base: resolve under a placeholder origin and take it off again.
  const prefix = fromParsed.protocol ?? '';
  const pathOnly = from.slice(prefix.length);
  const absolute = pathOnly.startsWith('/');
  const resolved = new URL(to, `${RELATIVE_BASE}${absolute ? '' : '/'}${pathOnly}`);
  let out = resolved.href.slice(RELATIVE_BASE.length);
  if (!absolute) out = out.slice(1);
  return prefix + out;
}

module.exports = { Url, urlParse, urlResolve };
