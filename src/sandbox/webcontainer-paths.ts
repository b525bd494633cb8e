/**
 * Path walks of the WebContainer backend over its symlink lookups (the API has no realpath and no
 * lstat-style link info, so links are found component by component), and whether anything is at a path.
 */
import { normalizePath, relativeTo, SandboxError } from './sandbox.ts';
import { isInside, outsideViaSymlink } from './shared.ts';

export interface LinkLookup {
  /** The workspace root (absolute, normalized). */
  root: string;
  /** The entry type at `abs`, or undefined when it does not exist. */
  typeOf(abs: string): Promise<'file' | 'directory' | 'symlink' | undefined>;
  /** Where the link at `abs` leads (absolute, resolved), or '' when unknown. */
  linkTarget(abs: string): Promise<string>;
}

/**
 * Returns `abs` after checking that no symlink on the way leads outside the workspace: every component
 * when `follow` (content operations), all but the last otherwise (stat, rm, rename act on a link).
 * Throws SandboxError('EOUTSIDE') for a link leading out.
 */
export async function containedPath(links: LinkLookup, abs: string, follow: boolean): Promise<string> {
  const rel = relativeTo(links.root, abs);
  if (!rel) return abs;
  const parts = rel.split('/');
  const last = follow ? parts.length : parts.length - 1;
  let cur = links.root;
  for (let i = 0; i < last; i++) {
    cur = `${cur}/${parts[i]}`;
    const type = await links.typeOf(cur).catch(() => undefined);
    if (type === undefined) return abs;
    if (type === 'symlink') {
      const target = await links.linkTarget(cur);
      if (!target || !isInside(links.root, target)) throw outsideViaSymlink(abs, links.root);
    }
  }
  return abs;
}

/** `abs` with every symlink on the way resolved; a missing component (or one outside) keeps the rest as written. */
export async function resolveRealPath(links: LinkLookup, abs: string): Promise<string> {
  const parts = relativeTo(links.root, abs).split('/').filter(Boolean);
  let cur = links.root;
  for (let i = 0; i < parts.length; i++) {
    const next = `${cur}/${parts[i]}`;
    const type = isInside(links.root, next) ? await links.typeOf(next).catch(() => undefined) : undefined;
    if (type === undefined) return normalizePath([next, ...parts.slice(i + 1)].join('/'));
    cur = type === 'symlink' ? (await links.linkTarget(next)) || next : next;
  }
  return cur;
}

/**
 * Whether anything (a file, a directory, a link, not followed) is at `path`, inside the workspace or not
 * (Sandbox.existsAnywhere). In the workspace the listings tell, as for `exists`; outside it (where the
 * workdir-scoped file API cannot reach) or through a link on the way, `probe` asks the VM. A path that is
 * not absolute, or holds a NUL, is nothing. Throws when the VM cannot tell: the caller must not take
 * that for "nothing there".
 */
export async function anythingAt(
  links: LinkLookup,
  path: string,
  probe: (abs: string) => Promise<boolean | null>,
): Promise<boolean> {
  if (!path.startsWith('/') || path.includes('\0')) return false;
  const abs = normalizePath(path);
  const listed = isInside(links.root, abs) ? await listedAt(links, abs) : undefined;
  if (listed !== undefined) return listed;
  const found = await probe(abs);
  if (found === null) throw new SandboxError('EIO', `Cannot tell whether anything is at ${abs}.`);
  return found;
}

/** What the workspace listings say is at `abs` (inside it): undefined through a link, or on an error. */
async function listedAt(links: LinkLookup, abs: string): Promise<boolean | undefined> {
  const parts = relativeTo(links.root, abs).split('/').filter(Boolean);
  let cur = links.root;
  for (let i = 0; i < parts.length; i++) {
    cur = `${cur}/${parts[i]}`;
    let type: Awaited<ReturnType<LinkLookup['typeOf']>>;
    try {
      type = await links.typeOf(cur);
    } catch (err) {
      // A file on the way (ENOTDIR): nothing can be under it.
      return err instanceof SandboxError && err.code === 'ENOTDIR' ? false : undefined;
    }
    if (type === undefined) return false;
    if (type === 'symlink' && i < parts.length - 1) return undefined;
  }
  return true;
}
