/**
 * Making `node_modules` match the ideal tree, all or nothing:
 * 1. plan what to add, replace and remove (compared with what is installed);
 * 2. download, verify and unpack every package that must be written, in memory;
 * 3. only then commit: folders that go away are first moved into a trash folder, new packages and
 *    `.bin` shims are written, then package.json and the lock. If any write fails, everything written is
 *    removed and the trash moved back, so the tree is as it was. An abort that arrives during the commit
 *    (which takes milliseconds) lets it finish: stopping halfway is what would break node_modules.
 */

import { messageOf } from '../../core/errors.ts';
import type { InstalledPackage } from './actual.ts';
import { FETCH_CONCURRENCY } from './constants.ts';
import { checkAbort, NpmError } from './errors.ts';
import type { NpmFs } from './host.ts';
import { normalizeBin } from './lockfile.ts';
import { dirname, join, normalize } from './paths.ts';
import { type Registry, RegistryStatusError } from './registry.ts';
import { shQuote } from './scripts.ts';
import { pickManifest } from './spec.ts';
import { type UnpackedPackage, unpackTarball } from './tarball.ts';
import { describeNode, httpError, type IdealTree, type TreeNode } from './tree.ts';

export interface ReifyPlan {
  /** Packages to write, parents first. */
  write: TreeNode[];
  /** Installed folders (lock-style locations) to move away before writing: removed or replaced ones. */
  moveAway: string[];
  added: number;
  changed: number;
  removed: number;
  /** The root and every package kept or written: each one's `node_modules/.bin` is rebuilt. */
  binParents: TreeNode[];
  /** Ideal packages left out (`--omit`). */
  omitted: Set<TreeNode>;
}

const TRASH_PREFIX = '.tabcode-trash-';

/**
 * Compares the ideal tree with what is installed. With `clean` (npm ci) everything installed goes and
 * everything ideal is written.
 */
export function planReify(
  ideal: IdealTree,
  installed: Map<string, InstalledPackage>,
  omit: (node: TreeNode) => boolean,
  clean: boolean,
): ReifyPlan {
  const omitted = new Set(ideal.nodes.filter((n) => n.inert || omit(n)));
  const wanted = new Map<string, TreeNode>();
  for (const node of ideal.nodes) if (!omitted.has(node)) wanted.set(node.location, node);
  const replaced = new Set<string>();
  const write: TreeNode[] = [];
  let added = 0;
  let changed = 0;
  const byDepth = [...wanted.values()].sort(
    (a, b) =>
      a.location.split('/').length - b.location.split('/').length || a.location.localeCompare(b.location),
  );
  const underReplaced = (location: string) => {
    for (const r of replaced) if (location.startsWith(`${r}/`)) return true;
    return false;
  };
  for (const node of byDepth) {
    const have = clean ? undefined : installed.get(node.location);
    if (!have) {
      added++;
      write.push(node);
    } else if (have.version !== node.version || have.packageName !== node.packageName) {
      changed++;
      replaced.add(node.location);
      write.push(node);
    } else if (underReplaced(node.location)) {
      write.push(node);
    }
  }
  let removed = 0;
  const moveAway: string[] = [];
  for (const location of installed.keys()) {
    const gone = clean || !wanted.has(location);
    // npm ci starts from an empty node_modules: it reports only what it added.
    if (gone && !clean) removed++;
    if (!gone && !replaced.has(location)) continue;
    if (moveAway.some((m) => location.startsWith(`${m}/`))) continue;
    moveAway.push(location);
  }
  const binParents = [ideal.root, ...wanted.values()];
  return { write, moveAway, added, changed, removed, binParents, omitted };
}

/** Runs `task` on every item, at most `limit` at a time; after the first failure no new one starts. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failed && next < items.length) {
      try {
        await task(items[next++]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  });
  await Promise.all(workers);
}

/**
 * Downloads (or takes from the cache), verifies and unpacks every package of the plan. Sets each
 * node's `integrity` (and `resolved` when the lock had none). Throws on the first failure.
 */
export async function fetchPackages(
  nodes: TreeNode[],
  registry: Registry,
  signal: AbortSignal | undefined,
): Promise<{ unpacked: Map<TreeNode, UnpackedPackage>; fromCache: number }> {
  const unpacked = new Map<TreeNode, UnpackedPackage>();
  let fromCache = 0;
  const downloads = new Map<string, Promise<{ files: UnpackedPackage; integrity: string }>>();
  const download = async (node: TreeNode, label: string) => {
    let got: Awaited<ReturnType<Registry['tarball']>>;
    try {
      got = await registry.tarball(node.resolved!, node.integrity, node.shasum, label);
    } catch (err) {
      if (err instanceof RegistryStatusError) {
        if (err.status !== 404) throw httpError(err);
        throw new NpmError('E404', [
          'code E404',
          `404 Not Found - GET ${err.url}`,
          '404',
          `404  The tarball of '${label}' (required by ${describeNode(node.parent!)}) is not in this registry.`,
        ]);
      }
      throw err;
    }
    if (got.fromCache) fromCache++;
    checkAbort(signal);
    return { files: await unpackTarball(got.bytes, label), integrity: got.integrity };
  };
  await pool(nodes, FETCH_CONCURRENCY, async (node) => {
    checkAbort(signal);
    const label = `${node.packageName}@${node.version}`;
    if (!node.resolved) {
      // Old lock files may lack `resolved`: the packument has the tarball URL.
      try {
        const m = pickManifest(await registry.packument(node.packageName), {
          kind: 'version',
          name: node.packageName,
          fetchSpec: node.version,
          raw: node.version,
        });
        node.resolved = m.dist?.tarball;
        node.integrity ??= m.dist?.integrity;
        node.shasum ??= m.dist?.shasum;
      } catch (err) {
        if (err instanceof RegistryStatusError) throw httpError(err);
        throw err;
      }
      if (!node.resolved) {
        throw new NpmError('EBADMANIFEST', [
          'code EBADMANIFEST',
          `The registry lists no tarball for ${label}.`,
        ]);
      }
    }
    // The same version nested in several places is downloaded and unpacked once.
    const key = `${node.resolved}\0${node.integrity ?? ''}`;
    let task = downloads.get(key);
    if (!task) {
      task = download(node, label);
      task.catch(() => {});
      downloads.set(key, task);
    }
    const { files, integrity } = await task;
    node.integrity = integrity;
    checkAbort(signal);
    if (files.files.has('binding.gyp')) node.hasInstallScript = true;
    unpacked.set(node, files);
  });
  checkAbort(signal);
  return { unpacked, fromCache };
}

/** The program a bin file's `#!` line asks for; `node` unless it names a shell or Python. */
function interpreterFor(head: string): string {
  const first = head.startsWith('#!') ? head.slice(2, head.indexOf('\n') >>> 0).trim() : '';
  const words = first.split(/\s+/).filter(Boolean);
  const program =
    (words[0]?.endsWith('/env') ? words.find((w, i) => i > 0 && !w.startsWith('-')) : words[0]) ?? '';
  const base = program.slice(program.lastIndexOf('/') + 1);
  if (base === 'sh' || base === 'bash' || base === 'dash') return 'bash';
  if (base.startsWith('python')) return 'python3';
  return 'node';
}

/**
 * The `.bin` shim: just-bash runs a PATH file as a shell script (it ignores `#!`), so the shim names
 * the interpreter and the absolute path of the package's file.
 */
export function binShim(command: string, node: TreeNode, target: string, head: string): string {
  return [
    '#!/bin/sh',
    `# tabcode npm: the "${command}" command of ${node.packageName}@${node.version}`,
    `exec ${interpreterFor(head)} ${shQuote(target)} "$@"`,
    '',
  ].join('\n');
}

/** Text files npm writes beside node_modules: new content, or undefined to delete. */
export interface FileWrite {
  path: string;
  content: string;
}

export interface CommitInput {
  fs: NpmFs;
  root: string;
  plan: ReifyPlan;
  unpacked: Map<TreeNode, UnpackedPackage>;
  /** package.json / package-lock.json to write once the packages are in place. */
  files: FileWrite[];
  /** npm ci: every entry of node_modules goes (the plan's installed list may miss stray folders). */
  clean: boolean;
}

/** Writes the plan. On failure, restores the tree and rethrows. */
export async function commit(input: CommitInput): Promise<void> {
  const { fs, root, plan, unpacked } = input;
  const nm = join(root, 'node_modules');
  const trash = join(
    nm,
    `${TRASH_PREFIX}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
  );
  const moved: { from: string; to: string }[] = [];
  const created: string[] = [];
  const restored: { path: string; before: string | undefined }[] = [];
  const known = new Set<string>();
  const mkdirp = async (dir: string) => {
    const missing: string[] = [];
    for (let d = dir; !known.has(d) && d !== '/' && !(await fs.exists(d)); d = dirname(d)) missing.push(d);
    for (const d of missing.reverse()) {
      await fs.mkdir(d, { recursive: true });
      created.push(d);
      known.add(d);
    }
    known.add(dir);
  };
  const moveToTrash = async (path: string) => {
    if (!(await fs.exists(path)) && !(await isLink(fs, path))) return;
    await mkdirp(trash);
    const to = join(trash, String(moved.length));
    await fs.mv(path, to);
    moved.push({ from: path, to });
  };
  try {
    await mkdirp(nm);
    // Trash left by an interrupted earlier run.
    for (const name of await fs.readdir(nm)) {
      if (name.startsWith(TRASH_PREFIX)) await fs.rm(join(nm, name), { recursive: true, force: true });
    }
    if (input.clean) {
      for (const name of await fs.readdir(nm))
        if (!name.startsWith(TRASH_PREFIX)) await moveToTrash(join(nm, name));
    } else {
      for (const location of plan.moveAway) await moveToTrash(join(root, location));
      // Every .bin is rebuilt from the ideal tree (stale commands go with the old one).
      for (const parent of plan.binParents)
        await moveToTrash(join(root, parent.location, 'node_modules/.bin'));
    }
    for (const node of plan.write) {
      const dir = join(root, node.location);
      const pkg = unpacked.get(node)!;
      await mkdirp(dir);
      for (const d of [...pkg.dirs].sort()) await mkdirp(join(dir, d));
      for (const [path, file] of pkg.files) {
        const target = join(dir, path);
        await mkdirp(dirname(target));
        await fs.writeFile(target, file.data);
        if (file.executable) await fs.chmod(target, 0o755);
      }
    }
    await writeBins(fs, root, plan, unpacked, mkdirp);
    for (const file of input.files) {
      const before = (await fs.exists(file.path)) ? await fs.readFile(file.path) : undefined;
      restored.push({ path: file.path, before });
      await fs.writeFile(file.path, file.content);
    }
  } catch (err) {
    for (const { path, before } of restored.reverse()) {
      await (before === undefined ? fs.rm(path, { force: true }) : fs.writeFile(path, before)).catch(
        () => {},
      );
    }
    // The trash (and node_modules around it) goes last: it holds what is moved back.
    const holdsTrash = (dir: string) => dir === trash || trash.startsWith(`${dir}/`);
    for (const dir of created.reverse()) {
      if (!holdsTrash(dir)) await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
    for (const { from, to } of moved.reverse()) await fs.mv(to, from).catch(() => {});
    for (const dir of created.filter(holdsTrash).sort((a, b) => b.length - a.length)) {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
    }
    await fs.rm(trash, { recursive: true, force: true }).catch(() => {});
    throw new NpmError('EWRITE', [
      'code EWRITE',
      `Writing node_modules failed: ${messageOf(err)}`,
      'Every change was undone; node_modules is as it was.',
    ]);
  }
  await fs.rm(trash, { recursive: true, force: true }).catch(() => {});
}

async function isLink(fs: NpmFs, path: string): Promise<boolean> {
  try {
    return (await fs.lstat(path)).isSymbolicLink;
  } catch {
    return false;
  }
}

async function readHead(fs: NpmFs, path: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(path)).slice(0, 200);
  } catch {
    return undefined;
  }
}

async function writeBins(
  fs: NpmFs,
  root: string,
  plan: ReifyPlan,
  unpacked: Map<TreeNode, UnpackedPackage>,
  mkdirp: (dir: string) => Promise<void>,
): Promise<void> {
  const decoder = new TextDecoder();
  for (const parent of plan.binParents) {
    const binDir = join(root, parent.location, 'node_modules/.bin');
    const children = [...parent.children.values()]
      .filter((c) => !plan.omitted.has(c))
      .sort((a, b) => a.name.localeCompare(b.name, 'en'));
    for (const child of children) {
      const bins = normalizeBin(child.packageName, child.manifest.bin);
      if (!bins) continue;
      for (const [command, file] of Object.entries(bins)) {
        const target = join(root, child.location, file);
        const fresh = unpacked.get(child)?.files.get(normalize(file));
        const head = fresh ? decoder.decode(fresh.data.subarray(0, 200)) : await readHead(fs, target);
        if (head === undefined) continue; // npm skips a bin whose file is missing
        await mkdirp(binDir);
        const shim = join(binDir, command);
        await fs.writeFile(shim, binShim(command, child, target, head));
        await fs.chmod(shim, 0o755);
        await fs.chmod(target, 0o755);
      }
    }
  }
}
