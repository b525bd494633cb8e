'use strict';
// node:path, POSIX flavour (the sandbox is a POSIX file system). `path.posix` is this module.
// `path.win32` is approximate on purpose: it accepts both separators and drive letters for the
// common functions but does not implement UNC paths or per-drive working directories.

const { validateObject, validateString } = require('internal/errors');

function cwd() {
  const dir = globalThis.process?.cwd?.();
  return typeof dir === 'string' && dir.startsWith('/') ? dir : '/';
}

/** Segments of `path` with '.' and empty ones dropped and '..' applied; leading '..' kept if allowed. */
function normalizeSegments(path, allowAboveRoot) {
  const out = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length > 0 && out.at(-1) !== '..') out.pop();
      else if (allowAboveRoot) out.push('..');
    } else {
      out.push(segment);
    }
  }
  return out.join('/');
}

function normalize(path) {
  validateString(path, 'path');
  if (path.length === 0) return '.';
  const absolute = path[0] === '/';
  const trailing = path.at(-1) === '/';
  let result = normalizeSegments(path, !absolute);
  if (result.length === 0) {
    if (absolute) return '/';
    return trailing ? './' : '.';
  }
  if (trailing) result += '/';
  return absolute ? `/${result}` : result;
}

function join(...paths) {
  if (paths.length === 0) return '.';
  const parts = [];
  for (const part of paths) {
    validateString(part, 'path');
    if (part.length > 0) parts.push(part);
  }
  if (parts.length === 0) return '.';
  return normalize(parts.join('/'));
}

function resolve(...paths) {
  let resolved = '';
  let absolute = false;
  for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? paths[i] : cwd();
    if (i >= 0) validateString(path, `paths[${i}]`);
    if (path.length === 0) continue;
    resolved = `${path}/${resolved}`;
    absolute = path[0] === '/';
  }
  const normalized = normalizeSegments(resolved, !absolute);
  if (absolute) return `/${normalized}`;
  return normalized.length > 0 ? normalized : '.';
}

function isAbsolute(path) {
  validateString(path, 'path');
  return path.length > 0 && path[0] === '/';
}

function relative(from, to) {
  validateString(from, 'from');
  validateString(to, 'to');
  if (from === to) return '';
  const fromParts = resolve(from).split('/').filter(Boolean);
  const toParts = resolve(to).split('/').filter(Boolean);
  let common = 0;
  while (common < fromParts.length && common < toParts.length && fromParts[common] === toParts[common])
    common++;
  const up = fromParts.slice(common).map(() => '..');
  return [...up, ...toParts.slice(common)].join('/');
}

function toNamespacedPath(path) {
  return path;
}

function dirname(path) {
  validateString(path, 'path');
  if (path.length === 0) return '.';
  const hasRoot = path[0] === '/';
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] === '/') {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? '/' : '.';
  // Node keeps a leading double slash ("//a" → "//").
  if (hasRoot && end === 1) return '//';
  return path.slice(0, end);
}

/** [start, end] of the last segment of `path`, trailing slashes excluded; end is -1 if there is none. */
function lastSegment(path) {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  if (end === 0) return [0, -1];
  const start = path.lastIndexOf('/', end - 1) + 1;
  return [start, end];
}

function basename(path, suffix) {
  if (suffix !== undefined) validateString(suffix, 'suffix');
  validateString(path, 'path');
  if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
    return basenameWithSuffix(path, suffix);
  }
  const [start, end] = lastSegment(path);
  return end === -1 ? '' : path.slice(start, end);
}

/**
 * basename with a suffix, scanning from the end as Node does; this keeps Node's answers where the
 * suffix only partly matches ("../" with "..." gives "../", "//" with ".e" gives "//").
 */
function basenameWithSuffix(path, suffix) {
  if (suffix === path) return '';
  let start = 0;
  let end = -1;
  let segmentEnd = -1;
  let k = suffix.length - 1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i] === '/') {
      if (segmentEnd !== -1) {
        start = i + 1;
        break;
      }
      continue;
    }
    if (segmentEnd === -1) segmentEnd = i + 1;
    if (k >= 0) {
      if (path[i] === suffix[k]) {
        k--;
        if (k === -1) end = i;
      } else {
        k = -1;
        end = segmentEnd;
      }
    }
  }
  if (start === end) end = segmentEnd;
  else if (end === -1) end = path.length;
  return path.slice(start, end);
}

/** Index of the extension's dot in `segment`, or -1 (no dot, a leading dot only, or "..") . */
function extensionDot(segment) {
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || segment === '..') return -1;
  return dot;
}

function extname(path) {
  validateString(path, 'path');
  const [start, end] = lastSegment(path);
  if (end === -1) return '';
  const segment = path.slice(start, end);
  const dot = extensionDot(segment);
  return dot === -1 ? '' : segment.slice(dot);
}

function parse(path) {
  validateString(path, 'path');
  const result = { root: '', dir: '', base: '', ext: '', name: '' };
  if (path.length === 0) return result;
  const absolute = path[0] === '/';
  if (absolute) result.root = '/';
  const [start, end] = lastSegment(path);
  if (end !== -1) {
    result.base = path.slice(start, end);
    // Node reads "/.." as name "." and ext "." (its '..' test misses a segment at index 1).
    const dot = absolute && start === 1 && result.base === '..' ? 1 : extensionDot(result.base);
    result.name = dot === -1 ? result.base : result.base.slice(0, dot);
    result.ext = dot === -1 ? '' : result.base.slice(dot);
  }
  const segmentStart = end === -1 ? 0 : start;
  if (segmentStart > 0) result.dir = path.slice(0, segmentStart - 1) || '/';
  else if (absolute) result.dir = '/';
  return result;
}

function formatWith(sep, pathObject) {
  validateObject(pathObject, 'pathObject');
  const dir = pathObject.dir || pathObject.root;
  const ext = pathObject.ext ? `${pathObject.ext[0] === '.' ? '' : '.'}${pathObject.ext}` : '';
  const base = pathObject.base || `${pathObject.name || ''}${ext}`;
  if (!dir) return base;
  return dir === pathObject.root ? `${dir}${base}` : `${dir}${sep}${base}`;
}

const posix = {
  sep: '/',
  delimiter: ':',
  resolve,
  normalize,
  isAbsolute,
  join,
  relative,
  toNamespacedPath,
  dirname,
  basename,
  extname,
  format: (pathObject) => formatWith('/', pathObject),
  parse,
  _makeLong: toNamespacedPath,
};

// path.win32: the POSIX algorithms on paths with '\' read as '/', a drive letter kept as the root.
const DRIVE = /^[a-zA-Z]:/;
const toSlashes = (p) => p.replaceAll('\\', '/');
const toBackslashes = (p) => p.replaceAll('/', '\\');
function splitDrive(path) {
  const drive = DRIVE.test(path) ? path.slice(0, 2) : '';
  return [drive, toSlashes(path.slice(drive.length))];
}
function win32Apply(fn) {
  return (path) => {
    validateString(path, 'path');
    const [drive, rest] = splitDrive(path);
    return drive + toBackslashes(fn(rest));
  };
}
const win32 = {
  sep: '\\',
  delimiter: ';',
  normalize: win32Apply((rest) => (rest === '' ? '.' : normalize(rest))),
  join: (...paths) => {
    for (const p of paths) validateString(p, 'path');
    const [drive] = splitDrive(paths.find((p) => p.length > 0) ?? '');
    const joined = join(...paths.map((p, i) => (i === 0 ? splitDrive(p)[1] : toSlashes(p))));
    return drive + toBackslashes(joined);
  },
  resolve: (...paths) => {
    for (const [i, p] of paths.entries()) validateString(p, `paths[${i}]`);
    const last = [...paths].reverse().find((p) => DRIVE.test(p)) ?? '';
    const drive = last.slice(0, 2);
    return drive + toBackslashes(resolve('/', ...paths.map((p) => splitDrive(p)[1])));
  },
  isAbsolute: (path) => {
    validateString(path, 'path');
    return /^([a-zA-Z]:)?[\\/]/.test(path);
  },
  relative: (from, to) => toBackslashes(relative(splitDrive(from)[1], splitDrive(to)[1])),
  toNamespacedPath,
  dirname: win32Apply(dirname),
  basename: (path, suffix) => basename(toSlashes(splitDrive(path)[1]), suffix),
  extname: (path) => extname(toSlashes(path)),
  format: (pathObject) => formatWith('\\', pathObject),
  parse: (path) => {
    validateString(path, 'path');
    const [drive, rest] = splitDrive(path);
    const parsed = parse(rest);
    parsed.root = drive + toBackslashes(parsed.root);
    parsed.dir = parsed.dir === '' && drive ? drive : drive + toBackslashes(parsed.dir);
    return parsed;
  },
  _makeLong: toNamespacedPath,
};

posix.posix = posix;
posix.win32 = win32;
win32.posix = posix;
win32.win32 = win32;

module.exports = posix;
