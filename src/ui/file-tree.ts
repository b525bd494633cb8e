/** A directory tree from relative file paths (and folder paths). */

export interface TreeDir {
  name: string;
  /** Relative path of the directory ('' for the root). */
  path: string;
  dirs: TreeDir[];
  files: { name: string; path: string }[];
}

/** The tree of `paths` (files) and `dirs` (folders, so empty ones show too). */
export function buildTree(paths: readonly string[], dirs: readonly string[] = []): TreeDir {
  const root: TreeDir = { name: '', path: '', dirs: [], files: [] };
  const index = new Map<string, TreeDir>([['', root]]);
  const dirOf = (path: string): TreeDir => {
    const found = index.get(path);
    if (found) return found;
    const slash = path.lastIndexOf('/');
    const parent = dirOf(slash < 0 ? '' : path.slice(0, slash));
    const dir: TreeDir = { name: path.slice(slash + 1), path, dirs: [], files: [] };
    parent.dirs.push(dir);
    index.set(path, dir);
    return dir;
  };
  for (const d of dirs) dirOf(d);
  for (const p of paths) {
    const slash = p.lastIndexOf('/');
    dirOf(slash < 0 ? '' : p.slice(0, slash)).files.push({ name: p.slice(slash + 1), path: p });
  }
  const sort = (d: TreeDir) => {
    d.dirs.sort((a, b) => a.name.localeCompare(b.name));
    d.files.sort((a, b) => a.name.localeCompare(b.name));
    d.dirs.forEach(sort);
  };
  sort(root);
  return root;
}
