'use strict';
// node:url: the WHATWG URL and URLSearchParams, file URL conversion (POSIX), domainToASCII/Unicode,
// urlToHttpOptions, and the legacy parse/format/resolve API.

const { URL, URLSearchParams, isURL } = require('internal/url');
const { Url, urlParse, urlResolve } = require('internal/url/legacy');
const host = require('internal/url/host');
const { codes } = require('internal/errors');
const path = require('node:path');

function fileURLToPath(input, options = undefined) {
  let url = input;
  if (typeof url === 'string') url = new URL(url);
  else if (!isURL(url)) throw codes.ERR_INVALID_ARG_TYPE('path', ['string', 'URL'], input);
  if (url.protocol !== 'file:') throw codes.ERR_INVALID_URL_SCHEME('file');
  if (options?.windows) {
    const pathname = url.pathname.replaceAll('/', '\\');
    return decodeURIComponent(pathname.replace(/^\\([A-Za-z]:)/, '$1'));
  }
  if (url.hostname !== '') throw codes.ERR_INVALID_FILE_URL_HOST('linux');
  const pathname = url.pathname;
  if (/%2f/i.test(pathname)) throw codes.ERR_INVALID_FILE_URL_PATH('must not include encoded / characters');
  return decodeURIComponent(pathname);
}

function encodePathChars(filepath) {
  return filepath
    .replaceAll('%', '%25')
    .replaceAll('\\', '%5C')
    .replaceAll('\n', '%0A')
    .replaceAll('\r', '%0D')
    .replaceAll('\t', '%09');
}

function pathToFileURL(filepath, options = undefined) {
  if (typeof filepath !== 'string') throw codes.ERR_INVALID_ARG_TYPE('path', 'string', filepath);
  if (options?.windows) {
    const outURL = new URL('file://');
    outURL.pathname = `/${filepath.replaceAll('\\', '/')}`;
    return outURL;
  }
  let resolved = path.resolve(filepath);
  if (filepath.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
  const outURL = new URL('file://');
  // The pathname setter percent-encodes the rest ('?', '#', spaces, non-ASCII).
  outURL.pathname = encodePathChars(resolved);
  return outURL;
}

function urlToHttpOptions(url) {
  const options = {
    __proto__: null,
    ...url,
    protocol: url.protocol,
    hostname:
      typeof url.hostname === 'string' && url.hostname.startsWith('[')
        ? url.hostname.slice(1, -1)
        : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) {
    options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  }
  return options;
}

function urlFormat(urlObject, options = undefined) {
  let object = urlObject;
  if (typeof object === 'string') {
    object = urlParse(object);
  } else if (typeof object !== 'object' || object === null) {
    throw codes.ERR_INVALID_ARG_TYPE('urlObject', ['Object', 'string'], urlObject);
  } else if (object instanceof URL) {
    if (options != null && typeof options !== 'object')
      throw codes.ERR_INVALID_ARG_TYPE('options', 'Object', options);
    const { auth = true, fragment = true, search = true, unicode = false } = options ?? {};
    let out = object.protocol;
    if (object.host !== '' || object.protocol === 'file:') {
      out += '//';
      if (auth && (object.username || object.password)) {
        out += object.username;
        if (object.password) out += `:${object.password}`;
        out += '@';
      }
      out += unicode ? host.domainToUnicode(object.hostname) : object.hostname;
      if (object.port) out += `:${object.port}`;
    }
    out += object.pathname;
    if (search) out += object.search;
    if (fragment) out += object.hash;
    return out;
  }
  return Url.prototype.format.call(object);
}

function domainToASCII(...args) {
  if (args.length === 0) throw codes.ERR_MISSING_ARGS('domain');
  const [domain] = args;
  const parsed = host.parseHost(`${domain}`, false);
  return parsed === null ? '' : parsed;
}

function domainToUnicode(...args) {
  if (args.length === 0) throw codes.ERR_MISSING_ARGS('domain');
  const [domain] = args;
  const parsed = host.parseHost(`${domain}`, false);
  return parsed === null ? '' : host.domainToUnicode(parsed);
}

function resolveObject(source, relative) {
  if (!source) return relative;
  return urlParse(
    urlResolve(
      typeof source === 'string' ? source : source.format(),
      typeof relative === 'string' ? relative : relative.format(),
    ),
    false,
    true,
  );
}

module.exports = {
  Url,
  parse: urlParse,
  resolve: urlResolve,
  resolveObject,
  format: urlFormat,
  URL,
  URLSearchParams,
  domainToASCII,
  domainToUnicode,
  pathToFileURL,
  fileURLToPath,
  urlToHttpOptions,
};
