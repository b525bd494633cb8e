/**
 * Symlinks in the just-bash file system, resolved by the sandbox itself: where a path leads once its
 * links are followed (for paths that may not exist yet), and the check that an operation stays inside
 * the workspace.
 */
import { normalizePath, SandboxError } from './sandbox.ts';
import { baseName, isInside, outsideViaSymlink, parentOf } from './shared.ts';

/** Most symlinks followed when resolving one path (a loop guard). */
const MAX_LINK_DEPTH = 16;

/** The part of just-bash's file system the link walk reads. */
export interface LinkFs {
  realpath(path: string): Promise<string>;
  lstat(path: string): Promise<{ isSymbolicLink: boolean }>;
  readlink(path: string): Promise<string>;
}

/**
 * Where `p` (absolute, normalized) leads once every symlink on it is followed, for a path that may not
 * exist (yet): the longest existing prefix resolved, the rest appended. One walk from the root, each
 * link followed wherever it is on the path (at most MAX_LINK_DEPTH of them); linear in the depth.
 */
export async function realOf(fs: LinkFs, p: string): Promise<string> {
  try {
    return normalizePath(await fs.realpath(p));
  } catch {
    // Missing, or a dangling link on the way: walk it.
  }
  let rest = p.split('/').filter(Boolean);
  let resolved = '/';
  let links = 0;
  while (rest.length > 0) {
    const [part, ...tail] = rest;
    const next = resolved === '/' ? `/${part}` : `${resolved}/${part}`;
    let isLink = false;
    try {
      isLink = (await fs.lstat(next)).isSymbolicLink;
    } catch {
      // The rest does not exist: it would be created as written.
      return normalizePath([next, ...tail].join('/'));
    }
    if (isLink) {
      if (++links > MAX_LINK_DEPTH) throw new SandboxError('EINVAL', `Too many symbolic links in ${p}.`, p);
      const target = await fs.readlink(next);
      const base = target.startsWith('/') ? target : `${resolved}/${target}`;
      rest = [...normalizePath(base).split('/').filter(Boolean), ...tail];
      resolved = '/';
      continue;
    }
    resolved = next;
    rest = tail;
  }
  return resolved;
}

/**
 * Checks that following the symlinks of `abs` (absolute, normalized) stays inside `root`: the whole
 * path when `follow` (content operations), else only its parent (the entry itself may be a link:
 * stat, rm, rename act on the link). Returns the path to operate on with its links resolved
 * (just-bash's file system does not follow links in the middle of a path when it creates a file).
 */
export async function containedPath(fs: LinkFs, root: string, abs: string, follow: boolean): Promise<string> {
  if (abs === root) return abs;
  const real = await realOf(fs, follow ? abs : parentOf(abs));
  if (!isInside(root, real)) throw outsideViaSymlink(abs, root);
  if (follow) return real;
  return real === parentOf(abs) ? abs : `${real === '/' ? '' : real}/${baseName(abs)}`;
}

/** Whether anything (a file, a directory, a link) is at an absolute path, inside the workspace or not. */
export async function anythingAt(fs: Pick<LinkFs, 'lstat'>, path: string): Promise<boolean> {
  if (!path.startsWith('/') || path.includes('\0')) return false;
  try {
    await fs.lstat(normalizePath(path));
    return true;
  } catch {
    return false;
  }
}
