/** The installed tree: what is in `node_modules` now, read from each package's package.json. */
import type { NpmFs } from './host.ts';
import { join } from './paths.ts';

export interface InstalledPackage {
  /** Lock-style key, e.g. `node_modules/a/node_modules/b`. */
  location: string;
  /** Folder name. */
  name: string;
  /** From its package.json ('' when unreadable). */
  packageName: string;
  version: string;
  /** Its package.json (empty when unreadable). */
  pkg: Record<string, unknown>;
}

async function isDir(fs: NpmFs, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Every package folder under `<root>/node_modules`, nested ones included, parents before children.
 * Dot-folders (`.bin`, npm's and tabcode's bookkeeping) are skipped. Never throws.
 */
export async function loadInstalled(fs: NpmFs, root: string): Promise<Map<string, InstalledPackage>> {
  const out = new Map<string, InstalledPackage>();
  const walk = async (dir: string, prefix: string) => {
    if (!(await isDir(fs, dir))) return;
    let names: string[];
    try {
      names = (await fs.readdir(dir)).sort();
    } catch {
      return;
    }
    const folders: string[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) {
        let scoped: string[] = [];
        try {
          scoped = (await fs.readdir(join(dir, name))).sort();
        } catch {}
        for (const inner of scoped) if (!inner.startsWith('.')) folders.push(`${name}/${inner}`);
      } else folders.push(name);
    }
    for (const name of folders) {
      const path = join(dir, name);
      if (!(await isDir(fs, path))) continue;
      let pkg: Record<string, unknown> = {};
      try {
        pkg = JSON.parse(await fs.readFile(join(path, 'package.json')));
      } catch {}
      const location = `${prefix}node_modules/${name}`;
      out.set(location, {
        location,
        name,
        packageName: typeof pkg.name === 'string' ? pkg.name : '',
        version: typeof pkg.version === 'string' ? pkg.version : '',
        pkg,
      });
      let linked = false;
      try {
        linked = (await fs.lstat(path)).isSymbolicLink;
      } catch {}
      if (!linked) await walk(join(path, 'node_modules'), `${location}/`);
    }
  };
  await walk(join(root, 'node_modules'), '');
  return out;
}
