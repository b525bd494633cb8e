/** POSIX path helpers for the sandbox's absolute paths (this module runs in a browser: no node:path). */

/** Resolves `.` and `..` and repeated slashes; the result is absolute when `path` is. */
export function normalize(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined || '.';
}

export function join(...parts: string[]): string {
  return normalize(parts.filter(Boolean).join('/'));
}

/** `path` made absolute against `base` (itself absolute). */
export function resolve(base: string, path: string): string {
  return normalize(path.startsWith('/') ? path : `${base}/${path}`);
}

export function dirname(path: string): string {
  const p = normalize(path);
  if (p === '/') return '/';
  const i = p.lastIndexOf('/');
  return i <= 0 ? (p.startsWith('/') ? '/' : '.') : p.slice(0, i);
}

export function basename(path: string): string {
  const p = normalize(path);
  return p.slice(p.lastIndexOf('/') + 1);
}

/** Every folder from `path` up to `/`, nearest first. */
export function ancestors(path: string): string[] {
  const out: string[] = [];
  let p = normalize(path);
  for (;;) {
    out.push(p);
    if (p === '/') return out;
    p = dirname(p);
  }
}
