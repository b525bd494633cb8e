'use strict';
// The WHATWG URL parser (the "basic URL parser" state machine), URL records and their serialization.
// A record is { scheme, username, password, host, port, path, query, fragment }: host is null or a
// serialized host, port null or a number, path an array of segments or (for opaque paths such as
// "mailto:x") a string. Setters reuse the machine with a state override, as the standard does.

const { parseHost, percentEncode, percentEncodeString } = require('internal/url/host');

const SPECIAL_PORTS = {
  __proto__: null,
  'ftp:': 21,
  'file:': null,
  'http:': 80,
  'https:': 443,
  'ws:': 80,
  'wss:': 443,
};
const isSpecialScheme = (scheme) => `${scheme}:` in SPECIAL_PORTS;
const defaultPort = (scheme) => SPECIAL_PORTS[`${scheme}:`];

// Percent-encode sets, as predicates on code points.
const C0_CONTROL = (c) => c < 0x20 || c > 0x7e;
const FRAGMENT_SET = (c) =>
  C0_CONTROL(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
const QUERY_SET = (c) => C0_CONTROL(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
const SPECIAL_QUERY_SET = (c) => QUERY_SET(c) || c === 0x27;
const PATH_SET = (c) => QUERY_SET(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
const USERINFO_SET = (c) =>
  PATH_SET(c) ||
  c === 0x2f ||
  c === 0x3a ||
  c === 0x3b ||
  c === 0x3d ||
  c === 0x40 ||
  (c >= 0x5b && c <= 0x5e) ||
  c === 0x7c;

const STATES = [
  'SCHEME_START', 'SCHEME', 'NO_SCHEME', 'SPECIAL_RELATIVE_OR_AUTHORITY', 'PATH_OR_AUTHORITY', 'RELATIVE',
  'RELATIVE_SLASH', 'SPECIAL_AUTHORITY_SLASHES', 'SPECIAL_AUTHORITY_IGNORE_SLASHES', 'AUTHORITY', 'HOST',
  'HOSTNAME', 'PORT', 'FILE', 'FILE_SLASH', 'FILE_HOST', 'PATH_START', 'PATH', 'OPAQUE_PATH', 'QUERY', 'FRAGMENT',
]; // biome-ignore format: a table
const S = Object.fromEntries(STATES.map((name) => [name, name]));

const FAILURE = Symbol('failure');

function newRecord() {
  return {
    scheme: '',
    username: '',
    password: '',
    host: null,
    port: null,
    path: [],
    query: null,
    fragment: null,
  };
}

const isAlpha = (c) => c !== undefined && /^[A-Za-z]$/.test(c);
const isAlnum = (c) => c !== undefined && /^[A-Za-z0-9]$/.test(c);
const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
const isWindowsDriveLetter = (s) => s.length === 2 && isAlpha(s[0]) && (s[1] === ':' || s[1] === '|');
const isNormalizedDriveLetter = (s) => s.length === 2 && isAlpha(s[0]) && s[1] === ':';
const isSingleDot = (s) => s === '.' || s.toLowerCase() === '%2e';
const isDoubleDot = (s) => ['..', '.%2e', '%2e.', '%2e%2e'].includes(s.toLowerCase());

function startsWithDriveLetter(points, pointer) {
  if (points.length - pointer < 2) return false;
  if (!isWindowsDriveLetter(points[pointer] + points[pointer + 1])) return false;
  if (points.length - pointer === 2) return true;
  return ['/', '\\', '?', '#'].includes(points[pointer + 2]);
}

const hasOpaquePath = (url) => typeof url.path === 'string';
const includesCredentials = (url) => url.username !== '' || url.password !== '';

function shortenPath(url) {
  if (url.scheme === 'file' && url.path.length === 1 && isNormalizedDriveLetter(url.path[0])) return;
  url.path.pop();
}

/**
 * The basic URL parser. Returns a record (or `url`, changed in place, with a state override), or
 * FAILURE. With an override, returns undefined when the change is refused.
 */
function basicParse(rawInput, base = null, url = null, override = null) {
  let input = rawInput;
  let record = url;
  if (record === null) {
    record = newRecord();
    // Leading and trailing C0 controls and spaces are dropped.
    let start = 0;
    let end = input.length;
    while (start < end && input.charCodeAt(start) <= 0x20) start++;
    while (end > start && input.charCodeAt(end - 1) <= 0x20) end--;
    input = input.slice(start, end);
  }
  input = input.replace(/[\t\n\r]/g, '');
  const points = Array.from(input);
  let state = override ?? S.SCHEME_START;
  let buffer = '';
  let atSignSeen = false;
  let insideBrackets = false;
  let passwordTokenSeen = false;
  const special = () => isSpecialScheme(record.scheme);

  for (let pointer = 0; pointer <= points.length; pointer++) {
    const c = points[pointer];
    switch (state) {
      case S.SCHEME_START:
        if (isAlpha(c)) {
          buffer += c.toLowerCase();
          state = S.SCHEME;
        } else if (!override) {
          state = S.NO_SCHEME;
          pointer--;
        } else return FAILURE;
        break;
      case S.SCHEME:
        if (isAlnum(c) || c === '+' || c === '-' || c === '.') {
          buffer += c.toLowerCase();
        } else if (c === ':') {
          if (override) {
            if (isSpecialScheme(record.scheme) !== isSpecialScheme(buffer)) return undefined;
            if ((includesCredentials(record) || record.port !== null) && buffer === 'file') return undefined;
            if (record.scheme === 'file' && record.host === '') return undefined;
          }
          record.scheme = buffer;
          if (override) {
            if (record.port === defaultPort(record.scheme)) record.port = null;
            return record;
          }
          buffer = '';
          if (record.scheme === 'file') {
            state = S.FILE;
          } else if (special() && base !== null && base.scheme === record.scheme) {
            state = S.SPECIAL_RELATIVE_OR_AUTHORITY;
          } else if (special()) {
            state = S.SPECIAL_AUTHORITY_SLASHES;
          } else if (points[pointer + 1] === '/') {
            state = S.PATH_OR_AUTHORITY;
            pointer++;
          } else {
            record.path = '';
            state = S.OPAQUE_PATH;
          }
        } else if (!override) {
          buffer = '';
          state = S.NO_SCHEME;
          pointer = -1;
        } else return FAILURE;
        break;
      case S.NO_SCHEME:
        if (base === null || (hasOpaquePath(base) && c !== '#')) return FAILURE;
        if (hasOpaquePath(base) && c === '#') {
          record.scheme = base.scheme;
          record.path = base.path;
          record.query = base.query;
          record.fragment = '';
          state = S.FRAGMENT;
        } else {
          state = base.scheme !== 'file' ? S.RELATIVE : S.FILE;
          pointer--;
        }
        break;
      case S.SPECIAL_RELATIVE_OR_AUTHORITY:
        if (c === '/' && points[pointer + 1] === '/') {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          pointer++;
        } else {
          state = S.RELATIVE;
          pointer--;
        }
        break;
      case S.PATH_OR_AUTHORITY:
        if (c === '/') state = S.AUTHORITY;
        else {
          state = S.PATH;
          pointer--;
        }
        break;
      case S.RELATIVE:
        record.scheme = base.scheme;
        if (c === '/' || (special() && c === '\\')) {
          state = S.RELATIVE_SLASH;
        } else {
          record.username = base.username;
          record.password = base.password;
          record.host = base.host;
          record.port = base.port;
          record.path = [...base.path];
          record.query = base.query;
          if (c === '?') {
            record.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            record.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            record.query = null;
            shortenPath(record);
            state = S.PATH;
            pointer--;
          }
        }
        break;
      case S.RELATIVE_SLASH:
        if (special() && (c === '/' || c === '\\')) state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        else if (c === '/') state = S.AUTHORITY;
        else {
          record.username = base.username;
          record.password = base.password;
          record.host = base.host;
          record.port = base.port;
          state = S.PATH;
          pointer--;
        }
        break;
      case S.SPECIAL_AUTHORITY_SLASHES:
        state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        if (c === '/' && points[pointer + 1] === '/') pointer++;
        else pointer--;
        break;
      case S.SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== '/' && c !== '\\') {
          state = S.AUTHORITY;
          pointer--;
        }
        break;
      case S.AUTHORITY:
        if (c === '@') {
          if (atSignSeen) buffer = `%40${buffer}`;
          atSignSeen = true;
          for (const point of buffer) {
            if (point === ':' && !passwordTokenSeen) {
              passwordTokenSeen = true;
              continue;
            }
            const encoded = percentEncode(point, USERINFO_SET);
            if (passwordTokenSeen) record.password += encoded;
            else record.username += encoded;
          }
          buffer = '';
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\')) {
          if (atSignSeen && buffer === '') return FAILURE;
          pointer -= Array.from(buffer).length + 1;
          buffer = '';
          state = S.HOST;
        } else {
          buffer += c;
        }
        break;
      case S.HOST:
      case S.HOSTNAME:
        if (override && record.scheme === 'file') {
          pointer--;
          state = S.FILE_HOST;
        } else if (c === ':' && !insideBrackets) {
          if (buffer === '') return FAILURE;
          if (override === S.HOSTNAME) return undefined;
          const host = parseHost(buffer, !special());
          if (host === null) return FAILURE;
          record.host = host;
          buffer = '';
          state = S.PORT;
        } else if (c === undefined || c === '/' || c === '?' || c === '#' || (special() && c === '\\')) {
          pointer--;
          if (special() && buffer === '') return FAILURE;
          if (override && buffer === '' && (includesCredentials(record) || record.port !== null))
            return undefined;
          const host = parseHost(buffer, !special());
          if (host === null) return FAILURE;
          record.host = host;
          buffer = '';
          state = S.PATH_START;
          if (override) return record;
        } else {
          if (c === '[') insideBrackets = true;
          if (c === ']') insideBrackets = false;
          buffer += c;
        }
        break;
      case S.PORT:
        if (isDigit(c)) {
          buffer += c;
        } else if (
          c === undefined ||
          c === '/' ||
          c === '?' ||
          c === '#' ||
          (special() && c === '\\') ||
          override
        ) {
          if (buffer !== '') {
            const port = Number.parseInt(buffer, 10);
            if (port > 65535) return FAILURE;
            record.port = port === defaultPort(record.scheme) ? null : port;
            buffer = '';
          }
          if (override) return record;
          state = S.PATH_START;
          pointer--;
        } else return FAILURE;
        break;
      case S.FILE:
        record.scheme = 'file';
        record.host = '';
        if (c === '/' || c === '\\') {
          state = S.FILE_SLASH;
        } else if (base !== null && base.scheme === 'file') {
          record.host = base.host;
          record.path = [...base.path];
          record.query = base.query;
          if (c === '?') {
            record.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            record.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            record.query = null;
            if (!startsWithDriveLetter(points, pointer)) shortenPath(record);
            else record.path = [];
            state = S.PATH;
            pointer--;
          }
        } else {
          state = S.PATH;
          pointer--;
        }
        break;
      case S.FILE_SLASH:
        if (c === '/' || c === '\\') {
          state = S.FILE_HOST;
        } else {
          if (base !== null && base.scheme === 'file') {
            record.host = base.host;
            if (!startsWithDriveLetter(points, pointer) && isNormalizedDriveLetter(base.path[0] ?? '')) {
              record.path.push(base.path[0]);
            }
          }
          state = S.PATH;
          pointer--;
        }
        break;
      case S.FILE_HOST:
        if (c === undefined || c === '/' || c === '\\' || c === '?' || c === '#') {
          pointer--;
          if (!override && isWindowsDriveLetter(buffer)) {
            state = S.PATH;
          } else if (buffer === '') {
            record.host = '';
            if (override) return record;
            state = S.PATH_START;
          } else {
            let host = parseHost(buffer, !special());
            if (host === null) return FAILURE;
            if (host === 'localhost') host = '';
            record.host = host;
            if (override) return record;
            buffer = '';
            state = S.PATH_START;
          }
        } else {
          buffer += c;
        }
        break;
      case S.PATH_START:
        if (special()) {
          state = S.PATH;
          if (c !== '/' && c !== '\\') pointer--;
        } else if (!override && c === '?') {
          record.query = '';
          state = S.QUERY;
        } else if (!override && c === '#') {
          record.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          state = S.PATH;
          if (c !== '/') pointer--;
        } else if (override && record.host === null) {
          record.path.push('');
        }
        break;
      case S.PATH:
        if (
          c === undefined ||
          c === '/' ||
          (special() && c === '\\') ||
          (!override && (c === '?' || c === '#'))
        ) {
          const slash = c === '/' || (special() && c === '\\');
          if (isDoubleDot(buffer)) {
            shortenPath(record);
            if (!slash) record.path.push('');
          } else if (isSingleDot(buffer) && !slash) {
            record.path.push('');
          } else if (!isSingleDot(buffer)) {
            if (record.scheme === 'file' && record.path.length === 0 && isWindowsDriveLetter(buffer)) {
              buffer = `${buffer[0]}:`;
            }
            record.path.push(buffer);
          }
          buffer = '';
          if (c === '?') {
            record.query = '';
            state = S.QUERY;
          }
          if (c === '#') {
            record.fragment = '';
            state = S.FRAGMENT;
          }
        } else {
          buffer += percentEncode(c, PATH_SET);
        }
        break;
      case S.OPAQUE_PATH:
        if (c === '?') {
          record.query = '';
          state = S.QUERY;
        } else if (c === '#') {
          record.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          record.path += percentEncode(c, C0_CONTROL);
        }
        break;
      case S.QUERY:
        if ((!override && c === '#') || c === undefined) {
          record.query += percentEncodeString(buffer, special() ? SPECIAL_QUERY_SET : QUERY_SET);
          buffer = '';
          if (c === '#') {
            record.fragment = '';
            state = S.FRAGMENT;
          }
        } else {
          buffer += c;
        }
        break;
      case S.FRAGMENT:
        if (c !== undefined) record.fragment += percentEncode(c, FRAGMENT_SET);
        break;
      default:
        throw new Error(`URL parser reached an unknown state ${state}`);
    }
  }
  return record;
}

function serializePath(url) {
  if (hasOpaquePath(url)) return url.path;
  let out = '';
  for (const segment of url.path) out += `/${segment}`;
  return out;
}

/** The href of a record. */
function serialize(url, excludeFragment = false) {
  let out = `${url.scheme}:`;
  if (url.host !== null) {
    out += '//';
    if (includesCredentials(url)) {
      out += url.username;
      if (url.password !== '') out += `:${url.password}`;
      out += '@';
    }
    out += url.host;
    if (url.port !== null) out += `:${url.port}`;
  }
  if (url.host === null && !hasOpaquePath(url) && url.path.length > 1 && url.path[0] === '') out += '/.';
  out += serializePath(url);
  if (url.query !== null) out += `?${url.query}`;
  if (!excludeFragment && url.fragment !== null) out += `#${url.fragment}`;
  return out;
}

function origin(url) {
  switch (url.scheme) {
    case 'blob': {
      if (hasOpaquePath(url) || url.path.length > 0) {
        const inner = basicParse(serializePath(url));
        if (inner !== FAILURE && (inner.scheme === 'http' || inner.scheme === 'https')) return origin(inner);
      }
      return 'null';
    }
    case 'ftp':
    case 'http':
    case 'https':
    case 'ws':
    case 'wss':
      return `${url.scheme}://${url.host}${url.port === null ? '' : `:${url.port}`}`;
    default:
      return 'null';
  }
}

module.exports = {
  FAILURE,
  STATES: S,
  basicParse,
  serialize,
  serializePath,
  origin,
  hasOpaquePath,
  isSpecialScheme,
  includesCredentials,
  USERINFO_SET,
  percentEncodeString,
};
