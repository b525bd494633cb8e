/**
 * `package-lock.json`, lockfileVersion 3 (the `packages` map keyed by folder, `""` being the project),
 * read and written as npm 7+ does.
 */
import { NpmError } from './errors.ts';
import type { NpmFs } from './host.ts';
import { join } from './paths.ts';
import type { Manifest } from './registry.ts';
import type { TreeNode } from './tree.ts';

export const LOCKFILE = 'package-lock.json';

export interface LockEntry {
  /** Only when it differs from the folder name (an alias), as npm writes it. */
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  hasInstallScript?: boolean;
  deprecated?: string;
  license?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  funding?: unknown;
  bundleDependencies?: string[];
}

export interface Lockfile {
  name?: string;
  version?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** The folder name a lock key ends with: `node_modules/a/node_modules/@s/b` → `@s/b`. */
export function nameFromLocation(location: string): string {
  const i = location.lastIndexOf('node_modules/');
  return location.slice(i + 'node_modules/'.length);
}

/**
 * Reads `<root>/package-lock.json`. Resolves undefined when there is none; throws NpmError when it is
 * not valid JSON, or too old to have a `packages` map (lockfileVersion 1).
 */
export async function readLockfile(
  fs: NpmFs,
  root: string,
): Promise<{ lock: Lockfile; text: string } | undefined> {
  const path = join(root, LOCKFILE);
  if (!(await fs.exists(path))) return undefined;
  const text = await fs.readFile(path);
  let lock: Lockfile;
  try {
    lock = JSON.parse(text) as Lockfile;
  } catch (err) {
    throw new NpmError('EJSONPARSE', [
      'code EJSONPARSE',
      `Invalid package-lock.json at ${path}: ${(err as Error).message}`,
      'Fix it or delete it, then run `npm install` again.',
    ]);
  }
  if (!lock || typeof lock !== 'object' || typeof lock.packages !== 'object' || !lock.packages) {
    throw new NpmError('ELOCKVERSION', [
      'code ELOCKVERSION',
      `${path} has lockfileVersion ${lock?.lockfileVersion ?? 'unknown'}, without a "packages" map.`,
      'tabcode reads lockfileVersion 2 and 3 (npm 7 and later). Delete it and run `npm install` to make a new one.',
    ]);
  }
  return { lock, text };
}

/** The manifest a lock entry describes (what the tree builder needs to reuse it without a request). */
export function manifestFromLock(location: string, entry: LockEntry): Manifest {
  return {
    name: entry.name ?? nameFromLocation(location),
    version: entry.version ?? '',
    dependencies: entry.dependencies,
    optionalDependencies: entry.optionalDependencies,
    peerDependencies: entry.peerDependencies,
    peerDependenciesMeta: entry.peerDependenciesMeta,
    bin: entry.bin,
    engines: entry.engines,
    os: entry.os,
    cpu: entry.cpu,
    deprecated: entry.deprecated,
    hasInstallScript: entry.hasInstallScript,
    license: entry.license,
    funding: entry.funding,
    dist: { tarball: entry.resolved, integrity: entry.integrity },
  };
}

const nonEmpty = <T extends object>(o: T | undefined): T | undefined =>
  o && Object.keys(o).length ? o : undefined;

/** `bin` as a map, the way npm normalizes it (a string means the package's own name). */
export function normalizeBin(name: string, bin: Manifest['bin']): Record<string, string> | undefined {
  if (!bin) return undefined;
  const map = typeof bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: bin } : bin;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    if (typeof value !== 'string') continue;
    const cmd = key.replace(/^.*[\\/]/, '');
    const file = value.replace(/^(\.\/)+/, '');
    if (cmd && file && !cmd.startsWith('.')) out[cmd] = file;
  }
  return nonEmpty(out);
}

/** `o` when it has keys (an empty map is left out of a lock entry). */
function presentObject<T>(o: Record<string, T> | undefined): Record<string, T> | undefined {
  return o && typeof o === 'object' && Object.keys(o).length ? o : undefined;
}

/** The lock entry of one installed node. */
function entryFor(node: TreeNode): LockEntry {
  const m = node.manifest;
  const entry: LockEntry = {};
  if (node.packageName !== node.name) entry.name = node.packageName;
  entry.version = node.version;
  if (node.resolved) entry.resolved = node.resolved;
  if (node.integrity) entry.integrity = node.integrity;
  if (node.flags.dev) entry.dev = true;
  if (node.flags.optional) entry.optional = true;
  if (node.flags.devOptional && !node.flags.dev && !node.flags.optional) entry.devOptional = true;
  if (node.flags.peer) entry.peer = true;
  if (node.hasInstallScript) entry.hasInstallScript = true;
  if (m.deprecated) entry.deprecated = m.deprecated;
  if (typeof m.license === 'string') entry.license = m.license;
  entry.dependencies = presentObject(m.dependencies);
  entry.optionalDependencies = presentObject(m.optionalDependencies);
  entry.peerDependencies = presentObject(m.peerDependencies);
  entry.peerDependenciesMeta = presentObject(m.peerDependenciesMeta);
  entry.bin = normalizeBin(node.packageName, m.bin);
  if (m.engines && typeof m.engines === 'object' && !Array.isArray(m.engines))
    entry.engines = nonEmpty(m.engines);
  if (Array.isArray(m.os) && m.os.length) entry.os = m.os;
  if (Array.isArray(m.cpu) && m.cpu.length) entry.cpu = m.cpu;
  if (m.funding) entry.funding = m.funding;
  for (const key of Object.keys(entry) as (keyof LockEntry)[])
    if (entry[key] === undefined) delete entry[key];
  return entry;
}

/** The project's own entry (`""`): its name, version and dependency specs, as package.json has them. */
function rootEntry(pkg: Record<string, unknown>): LockEntry {
  const entry: LockEntry & Record<string, unknown> = {};
  if (typeof pkg.name === 'string') entry.name = pkg.name;
  if (typeof pkg.version === 'string') entry.version = pkg.version;
  if (typeof pkg.license === 'string') entry.license = pkg.license;
  for (const field of [
    'dependencies',
    'devDependencies',
    'optionalDependencies',
    'peerDependencies',
  ] as const) {
    // npm keeps a field package.json has, even an empty one.
    const value = pkg[field];
    if (value && typeof value === 'object') entry[field] = value as Record<string, string>;
  }
  const bin = normalizeBin(String(pkg.name ?? ''), pkg.bin as Manifest['bin']);
  if (bin) entry.bin = bin;
  if (pkg.engines && typeof pkg.engines === 'object') entry.engines = pkg.engines as Record<string, string>;
  return entry;
}

/** Serializes the lock of `nodes` (every node of the ideal tree but the root), as npm formats it. */
export function serializeLockfile(pkg: Record<string, unknown>, nodes: TreeNode[]): string {
  const packages: Record<string, LockEntry> = { '': rootEntry(pkg) };
  for (const node of [...nodes].sort((a, b) => a.location.localeCompare(b.location, 'en'))) {
    packages[node.location] = entryFor(node);
  }
  const lock: Lockfile = {
    ...(typeof pkg.name === 'string' ? { name: pkg.name } : {}),
    ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}),
    lockfileVersion: 3,
    requires: true,
    packages,
  };
  return stringifyLockfile(lock);
}

/** Keys npm puts first, in this order, among keys of the same kind. */
const KEY_ORDER = [
  'name',
  'version',
  'lockfileVersion',
  'resolved',
  'integrity',
  'requires',
  'packages',
  'dependencies',
];

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * JSON with npm's key order, so our locks diff cleanly against npm's: in every object, plain values
 * (and arrays) before objects; within each kind, KEY_ORDER's keys first, then the rest alphabetically.
 */
export function stringifyLockfile(lock: unknown): string {
  const rank = (k: string) => {
    const i = KEY_ORDER.indexOf(k);
    return i < 0 ? KEY_ORDER.length : i;
  };
  const order = (_key: string, value: unknown) => {
    if (!isObject(value)) return value;
    const entries = Object.entries(value).sort(([ak, av], [bk, bv]) => {
      const kind = Number(isObject(av)) - Number(isObject(bv));
      if (kind) return kind;
      return rank(ak) - rank(bk) || ak.localeCompare(bk, 'en');
    });
    return Object.fromEntries(entries);
  };
  return `${JSON.stringify(lock, order, 2)}\n`;
}
