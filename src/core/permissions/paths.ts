/**
 * Path helpers of the permission engine (POSIX paths, no file system access), file rule matching with
 * gitignore semantics (the `ignore` package), and the safety paths that always ask before a write.
 */
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

/**
 * Normalizes an absolute POSIX path (`.`, `..`, duplicate and trailing slashes): the sandbox's own
 * function, so rules and the file system always agree on what a path is.
 */
export { normalizePath as normalizeAbsolute } from '../../sandbox/sandbox.ts';

import { normalizePath as normalizeAbsolute } from '../../sandbox/sandbox.ts';
import { foldName, GLOB_CHARS } from '../../shell/index.ts';

/**
 * Resolves a path as a shell or a tool would: `~` and `~/...` from `home`, absolute as is, anything else
 * from `cwd`. Never throws.
 */
export function resolvePath(cwd: string, path: string, home: string): string {
  if (path === '~' || path.startsWith('~/')) return normalizeAbsolute(`${home}/${path.slice(1)}`);
  return normalizeAbsolute(path.startsWith('/') ? path : `${cwd}/${path}`);
}

/** True when `abs` is `dir` or inside it. */
export function isInside(dir: string, abs: string): boolean {
  const d = normalizeAbsolute(dir);
  return abs === d || abs.startsWith(d === '/' ? '/' : `${d}/`);
}

/** `abs` relative to `dir` ('' for dir itself), or null when it is outside. */
export function relativeInside(dir: string, abs: string): string | null {
  const d = normalizeAbsolute(dir);
  if (abs === d) return '';
  if (d === '/') return abs.slice(1);
  return abs.startsWith(`${d}/`) ? abs.slice(d.length + 1) : null;
}

// ---------------------------------------------------------------------------------------------------
// File rules

/**
 * Where a file rule's pattern is rooted: `//path` at the file system root, `~/path` at home, `/path` and
 * `./path` at the workspace root (anchored), anything else at the workspace root with gitignore's
 * matching at any depth (`.env` matches `a/b/.env`).
 */
export function ruleBase(content: string, root: string, home: string): { base: string; pattern: string } {
  if (content.startsWith('//')) return { base: '/', pattern: content.slice(1) };
  if (content.startsWith('~/')) return { base: home, pattern: content.slice(1) };
  if (content.startsWith('./')) return { base: root, pattern: content.slice(1) };
  return { base: root, pattern: content };
}

const matchers = new Map<string, Ignore>();

function matcherFor(pattern: string, ignoreCase: boolean): Ignore {
  const key = `${ignoreCase ? 'i' : 's'}:${pattern}`;
  let m = matchers.get(key);
  if (!m) {
    m = ignore({ ignorecase: ignoreCase }).add(pattern);
    if (matchers.size > 500) matchers.clear();
    matchers.set(key, m);
  }
  return m;
}

/** A name no real file has: probing `dir/<it>` asks whether a rule covers what is inside `dir`. */
const CHILD_PROBE = '\u2063tabcode-probe';

export interface FileRuleMatchOptions {
  root: string;
  home: string;
  /** Deny and ask rules match case-insensitively (the safe side); allow rules exactly. */
  ignoreCase: boolean;
  /** The path is a directory searched recursively: a rule about anything inside it matches too. */
  directory?: boolean;
}

/** True when a file rule's content matches the absolute path `abs`. Never throws. */
export function fileRuleMatches(content: string, abs: string, opts: FileRuleMatchOptions): boolean {
  const { base, pattern } = ruleBase(content, opts.root, opts.home);
  const rel = relativeInside(base, abs);
  if (rel === null) return false;
  const m = matcherFor(pattern, opts.ignoreCase);
  try {
    if (rel === '') return opts.directory === true && m.ignores(CHILD_PROBE);
    if (m.ignores(rel)) return true;
    if (!opts.directory) return false;
    return m.ignores(`${rel}/`) || m.ignores(`${rel}/${CHILD_PROBE}`);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Safety paths

const SAFETY_DIRS = new Set(['.git', '.tabcode']);

/** Files a shell reads at start-up, plus git's own config files: writing them changes later commands. */
const SAFETY_FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
  '.envrc',
  '.gitconfig',
  '.gitmodules',
  // /etc/gitconfig, git's system configuration.
  'gitconfig',
]);

export { foldLookalikes, foldName } from '../../shell/index.ts';

/**
 * Why writing `abs` always needs the user's approval (even in bypassPermissions mode), or null: it is
 * under a `.git/` or `.tabcode/` directory, or a shell start-up file. Compared case-insensitively.
 */
export function safetyPathReason(abs: string): string | null {
  const segs = abs.split('/').filter(Boolean).map(foldName);
  const dir = segs.find((s) => SAFETY_DIRS.has(s));
  if (dir) return `${abs} is inside a ${dir}/ directory`;
  // git's user configuration, attributes and ignores: `~/.config/git/` (HOME is the workspace here).
  const xdg = segs.findIndex((s, k) => s === '.config' && segs[k + 1] === 'git');
  if (xdg >= 0 && segs.length > xdg + 2) return `${abs} is git's own configuration`;
  const base = segs[segs.length - 1];
  if (base && SAFETY_FILES.has(base)) return `${abs} is a shell start-up or git config file`;
  return null;
}

/**
 * Why writing `abs` may change a protected path although it names none itself, or null: a glob that
 * may expand to one (`.gi?/config`, `.*rc`), or a whole tree written (`rm -rf .`) that holds the
 * workspace's own `.git` and `.tabcode`. Compared case-insensitively.
 */
export function safetyReachReason(
  abs: string,
  root: string,
  opts: { glob: boolean; recursive: boolean },
): string | null {
  if (opts.recursive && isInside(abs, normalizeAbsolute(root))) {
    return `${abs} holds the workspace's .git and .tabcode directories`;
  }
  if (!opts.glob) return null;
  const segs = abs.split('/').filter(Boolean);
  for (const [k, seg] of segs.entries()) {
    if (!GLOB_CHARS.test(seg)) continue;
    let match: (name: string) => boolean;
    try {
      // Leading dots too: `shopt -s dotglob` (or any GLOBIGNORE) lets `?git` and `*` expand to `.git`.
      match = picomatch(seg, { dot: true, nocase: true });
    } catch {
      return `${abs} is a pattern that could name a protected path`;
    }
    const names = k === segs.length - 1 ? [...SAFETY_DIRS, ...SAFETY_FILES] : [...SAFETY_DIRS];
    const hit = names.find((n) => match(n));
    if (hit) return `${abs} may expand to ${hit}`;
  }
  return null;
}
