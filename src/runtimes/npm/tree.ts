/**
 * The ideal tree: which package version goes in which `node_modules` folder, placed the way npm 7+
 * places them. Dependencies are resolved breadth first, in name order; each new package goes as high
 * as it can (the project's `node_modules` first) without changing what an already-resolved dependency
 * below that folder gets; a version that conflicts with one already there nests under its dependent.
 *
 * Versions already in package-lock.json are reused while they satisfy the ranges (no request is made
 * for them). Peer dependencies are installed as npm 7+ does (optional peers are not); a peer that
 * conflicts with the project's own choice is an ERESOLVE error unless `--legacy-peer-deps` (peers are
 * then not installed) or `--force` (a warning). Nothing here touches the file system.
 */
import { TARGET_CPU, TARGET_OS } from './constants.ts';
import { checkAbort, NpmError } from './errors.ts';
import { type Lockfile, manifestFromLock, nameFromLocation } from './lockfile.ts';
import { type Manifest, type Registry, RegistryStatusError } from './registry.ts';
import { parseSpec, pickManifest, type Spec, satisfies } from './spec.ts';

export type EdgeType = 'prod' | 'dev' | 'optional' | 'peer' | 'peerOptional';

export interface Edge {
  from: TreeNode;
  /** The folder name (the alias, for `npm:` specs). */
  name: string;
  spec: Spec;
  type: EdgeType;
  to?: TreeNode;
}

export interface TreeNode {
  /** Folder name under node_modules. */
  name: string;
  /** The real package name (differs from `name` for an alias). */
  packageName: string;
  version: string;
  /** Lock key: '' for the project, `node_modules/a/node_modules/b` for a nested package. */
  location: string;
  parent: TreeNode | null;
  children: Map<string, TreeNode>;
  manifest: Manifest;
  resolved?: string;
  integrity?: string;
  shasum?: string;
  hasInstallScript: boolean;
  flags: { dev: boolean; optional: boolean; devOptional: boolean; peer: boolean };
  edgesOut: Edge[];
  /**
   * An optional package for another platform (`os` / `cpu`): it stays in the lock, as npm keeps it for
   * the platforms it fits, but is not installed and its dependencies are not followed.
   */
  inert?: boolean;
}

export interface BuildOptions {
  /** The project's package.json. */
  pkg: Record<string, unknown>;
  registry: Registry;
  lock?: Lockfile;
  /** Root dependencies the user just asked for (`npm i name@spec`): the lock is not reused for them. */
  fresh?: Set<string>;
  legacyPeerDeps?: boolean;
  force?: boolean;
  signal?: AbortSignal;
  warn(line: string): void;
}

export interface IdealTree {
  root: TreeNode;
  /** Every package (not the root), in the order placed. */
  nodes: TreeNode[];
}

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

export function childLocation(parent: TreeNode | null, name: string): string {
  return parent?.location ? `${parent.location}/node_modules/${name}` : `node_modules/${name}`;
}

export function makeNode(init: {
  name: string;
  manifest: Manifest;
  parent: TreeNode | null;
  resolved?: string;
  integrity?: string;
  shasum?: string;
}): TreeNode {
  const m = init.manifest;
  const scripts = m.scripts ?? {};
  const node: TreeNode = {
    name: init.name,
    packageName: m.name || init.name,
    version: m.version,
    location: init.parent ? childLocation(init.parent, init.name) : '',
    parent: init.parent,
    children: new Map(),
    manifest: m,
    resolved: init.resolved,
    integrity: init.integrity,
    shasum: init.shasum,
    hasInstallScript: !!m.hasInstallScript || INSTALL_SCRIPTS.some((s) => typeof scripts[s] === 'string'),
    flags: { dev: false, optional: false, devOptional: false, peer: false },
    edgesOut: [],
  };
  init.parent?.children.set(init.name, node);
  return node;
}

/** The dependencies a node asks for, by name (optional ones override plain ones, as npm documents). */
export function edgesFor(node: TreeNode, isRoot: boolean, legacyPeerDeps: boolean): Edge[] {
  const m = node.manifest as Manifest & {
    devDependencies?: Record<string, string>;
    bundleDependencies?: unknown;
  };
  const specs = new Map<string, { raw: string; type: EdgeType }>();
  const add = (deps: Record<string, string> | undefined, type: EdgeType, override: boolean) => {
    if (!deps || typeof deps !== 'object') return;
    for (const [name, raw] of Object.entries(deps)) {
      if (override || !specs.has(name)) specs.set(name, { raw: String(raw), type });
    }
  };
  add(m.dependencies, 'prod', true);
  add(m.optionalDependencies, 'optional', true);
  if (isRoot) add(m.devDependencies, 'dev', false);
  if (!legacyPeerDeps) {
    for (const [name, raw] of Object.entries(m.peerDependencies ?? {})) {
      if (specs.has(name)) continue;
      const optional = !!m.peerDependenciesMeta?.[name]?.optional;
      specs.set(name, { raw: String(raw), type: optional ? 'peerOptional' : 'peer' });
    }
  }
  // Bundled dependencies come inside the tarball.
  const bundled = new Set(
    Array.isArray(m.bundleDependencies) && !isRoot ? m.bundleDependencies.map(String) : [],
  );
  return [...specs]
    .filter(([name]) => !bundled.has(name))
    .sort(([a], [b]) => a.localeCompare(b, 'en'))
    .map(([name, { raw, type }]) => ({ from: node, name, spec: parseSpec(name, raw), type }));
}

export function describeNode(node: TreeNode): string {
  return node.parent ? `${node.packageName}@${node.version}` : 'the root project';
}

function isWithin(node: TreeNode, ancestor: TreeNode): boolean {
  for (let n: TreeNode | null = node; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

/** True when a package's `os` / `cpu` lists allow this sandbox (TARGET_OS / TARGET_CPU). */
export function platformOk(m: Pick<Manifest, 'os' | 'cpu'>): boolean {
  const check = (list: unknown, value: string) => {
    if (!Array.isArray(list) || !list.length) return true;
    const allowed = list.filter((x) => !String(x).startsWith('!'));
    if (list.includes(`!${value}`)) return false;
    return allowed.length === 0 || allowed.includes(value);
  };
  return check(m.os, TARGET_OS) && check(m.cpu, TARGET_CPU);
}

interface Choice {
  manifest: Manifest;
  resolved?: string;
  integrity?: string;
  shasum?: string;
  inert?: boolean;
}

/** Builds the ideal tree. Throws NpmError (E404, ETARGET, ERESOLVE, EBADPLATFORM, network…). */
export async function buildIdealTree(options: BuildOptions): Promise<IdealTree> {
  const { registry, signal } = options;
  const legacy = !!options.legacyPeerDeps;
  const root = makeNode({
    name: String(options.pkg.name ?? ''),
    manifest: { ...(options.pkg as unknown as Manifest), version: String(options.pkg.version ?? '') },
    parent: null,
  });
  root.edgesOut = edgesFor(root, true, legacy);
  const nodes: TreeNode[] = [];
  const edgesByName = new Map<string, Edge[]>();

  // Lock entries by real package name, shallowest first: the versions to prefer.
  const locked = new Map<string, { location: string; manifest: Manifest }[]>();
  for (const [location, entry] of Object.entries(options.lock?.packages ?? {})) {
    if (!location || entry.link || !entry.version || !location.includes('node_modules/')) continue;
    const manifest = manifestFromLock(location, entry);
    const list = locked.get(manifest.name) ?? [];
    list.push({ location, manifest });
    locked.set(manifest.name, list);
  }
  for (const list of locked.values()) {
    list.sort(
      (a, b) => a.location.split('/node_modules/').length - b.location.split('/node_modules/').length,
    );
  }

  const fromLock = (edge: Edge): Manifest | undefined => {
    if (edge.from === root && options.fresh?.has(edge.name)) return undefined;
    const spec = edge.spec;
    if (spec.kind === 'unsupported') return undefined;
    return locked.get(spec.name)?.find((c) => satisfies(spec.name, c.manifest.version, spec))?.manifest;
  };

  const findExisting = (edge: Edge): TreeNode | undefined => {
    for (let n: TreeNode | null = edge.from; n; n = n.parent) {
      const child = n.children.get(edge.name);
      if (child && child !== edge.from) return child;
    }
    return undefined;
  };

  const record = (edge: Edge, to: TreeNode) => {
    edge.to = to;
    const list = edgesByName.get(edge.name) ?? [];
    list.push(edge);
    edgesByName.set(edge.name, list);
  };

  const canPlace = (at: TreeNode, name: string, packageName: string, version: string): boolean => {
    for (const e of edgesByName.get(name) ?? []) {
      if (!e.to || !isWithin(e.from, at) || isWithin(e.to, at)) continue;
      // e resolves from above `at` today; a copy placed at `at` would shadow it.
      if (!satisfies(packageName, version, e.spec)) return false;
    }
    return true;
  };

  const choose = async (edge: Edge): Promise<Choice> => {
    const lockedManifest = fromLock(edge);
    if (lockedManifest) {
      return {
        manifest: lockedManifest,
        resolved: lockedManifest.dist?.tarball,
        integrity: lockedManifest.dist?.integrity,
      };
    }
    const spec = edge.spec;
    let packument: Awaited<ReturnType<Registry['packument']>>;
    try {
      packument = await registry.packument(spec.name);
    } catch (err) {
      if (err instanceof RegistryStatusError) throw statusError(err, edge);
      throw err;
    }
    const m = pickManifest(packument, spec, describeNode(edge.from));
    return { manifest: m, resolved: m.dist?.tarball, integrity: m.dist?.integrity, shasum: m.dist?.shasum };
  };

  const place = (edge: Edge, choice: Choice): TreeNode | undefined => {
    const start = edge.type === 'peer' ? (edge.from.parent ?? edge.from) : edge.from;
    const chain: TreeNode[] = [];
    for (let n: TreeNode | null = start; n; n = n.parent) {
      if (n.children.has(edge.name)) break;
      chain.push(n);
    }
    const { name: packageName, version } = choice.manifest;
    for (let i = chain.length - 1; i >= 0; i--) {
      if (!canPlace(chain[i], edge.name, packageName, version)) continue;
      const node = makeNode({ name: edge.name, parent: chain[i], ...choice });
      node.inert = choice.inert;
      node.edgesOut = choice.inert ? [] : edgesFor(node, false, legacy);
      nodes.push(node);
      return node;
    }
    return undefined;
  };

  const resolveEdge = async (edge: Edge, queue: TreeNode[]) => {
    const optional = edge.type === 'optional';
    if (edge.spec.kind === 'unsupported') {
      if (optional) return;
      throw new NpmError('EUNSUPPORTEDPROTOCOL', [
        'code EUNSUPPORTEDPROTOCOL',
        `Unsupported dependency "${edge.name}": "${edge.spec.raw}" (from ${describeNode(edge.from)}).`,
        `tabcode's npm installs packages from the registry only; ${edge.spec.why} are not supported.`,
      ]);
    }
    const existing = findExisting(edge);
    if (edge.type === 'peerOptional') {
      if (existing) record(edge, existing);
      return;
    }
    if (existing && satisfies(existing.packageName, existing.version, edge.spec)) {
      record(edge, existing);
      return;
    }
    let choice: Choice;
    try {
      choice = await choose(edge);
    } catch (err) {
      if (optional && err instanceof NpmError && err.code !== 'ENETWORK' && err.code !== 'ABORT_ERR') return;
      throw err;
    }
    if (!platformOk(choice.manifest)) {
      const m = choice.manifest;
      if (optional) choice = { ...choice, inert: true };
      else
        throw new NpmError('EBADPLATFORM', [
          'code EBADPLATFORM',
          `notsup Unsupported platform for ${m.name}@${m.version}: wanted {"os":"${(m.os ?? []).join(',') || 'any'}","cpu":"${(m.cpu ?? []).join(',') || 'any'}"} (current: {"os":"${TARGET_OS}","cpu":"${TARGET_CPU}"})`,
        ]);
    }
    const node = place(edge, choice);
    if (node) {
      record(edge, node);
      queue.push(node);
      return;
    }
    if (edge.type === 'peer' && existing) {
      const lines = [
        `While resolving: ${describeNode(edge.from)}`,
        `Found: ${existing.packageName}@${existing.version}`,
        'Could not resolve dependency:',
        `peer ${edge.name}@"${edge.spec.raw}" from ${describeNode(edge.from)}`,
      ];
      if (options.force) {
        options.warn('ERESOLVE overriding peer dependency');
        for (const line of lines) options.warn(line);
        record(edge, existing);
        return;
      }
      throw new NpmError('ERESOLVE', [
        'code ERESOLVE',
        'ERESOLVE unable to resolve dependency tree',
        '',
        ...lines,
        '',
        'Fix the upstream dependency conflict, or retry this command with --force or --legacy-peer-deps.',
      ]);
    }
    throw new NpmError('ERESOLVE', [
      'code ERESOLVE',
      `ERESOLVE could not place ${choice.manifest.name}@${choice.manifest.version} for ${describeNode(edge.from)}.`,
    ]);
  };

  let level: TreeNode[] = [root];
  while (level.length) {
    checkAbort(signal);
    // Start the requests this level will need, so they run in parallel; resolution stays in order.
    for (const node of level) {
      for (const edge of node.edgesOut) {
        if (edge.spec.kind === 'unsupported' || edge.type === 'peerOptional') continue;
        const existing = findExisting(edge);
        if (existing && satisfies(existing.packageName, existing.version, edge.spec)) continue;
        if (!fromLock(edge)) void registry.packument(edge.spec.name).catch(() => {});
      }
    }
    const next: TreeNode[] = [];
    for (const node of level) {
      for (const edge of node.edgesOut) {
        await resolveEdge(edge, next);
        checkAbort(signal);
      }
    }
    level = next;
  }
  computeFlags(root, nodes);
  return { root, nodes };
}

function statusError(err: RegistryStatusError, edge: Edge): NpmError {
  const wanted = `${edge.spec.name}@${edge.spec.raw || '*'}`;
  if (err.status === 404) {
    return new NpmError('E404', [
      'code E404',
      `404 Not Found - GET ${err.url}`,
      '404',
      `404  '${wanted}' is not in this registry.`,
      ...(edge.from.parent ? [`404  (${wanted} is required by ${describeNode(edge.from)})`] : []),
      '404',
      '404 Note that you can also install from a',
      '404 tarball, folder, http url, or git url.',
    ]);
  }
  return httpError(err);
}

/** An HTTP failure of the registry, other than a missing package. */
export function httpError(err: RegistryStatusError): NpmError {
  return new NpmError(`E${err.status}`, [
    `code E${err.status}`,
    `${err.status} ${err.statusText} - GET ${err.url}`,
    err.status >= 500
      ? 'The registry answered with a server error; nothing was changed. Try again later.'
      : 'The registry refused the request; nothing was changed.',
  ]);
}

/**
 * npm's dev / optional / devOptional / peer flags: a flag stays set on a package only when every path
 * to it from the project goes through that kind of dependency.
 */
export function computeFlags(root: TreeNode, nodes: TreeNode[]): void {
  for (const n of nodes) n.flags = { dev: true, optional: true, devOptional: true, peer: true };
  const clear = (flag: keyof TreeNode['flags'], rootTypes: EdgeType[], types: EdgeType[]) => {
    const seen = new Set<TreeNode>();
    const queue: TreeNode[] = [];
    for (const e of root.edgesOut) if (e.to && rootTypes.includes(e.type)) queue.push(e.to);
    while (queue.length) {
      const n = queue.shift()!;
      if (seen.has(n)) continue;
      seen.add(n);
      n.flags[flag] = false;
      for (const e of n.edgesOut) if (e.to && types.includes(e.type)) queue.push(e.to);
    }
  };
  clear('dev', ['prod', 'optional', 'peer'], ['prod', 'optional', 'peer']);
  clear('optional', ['prod', 'dev', 'peer'], ['prod', 'peer']);
  clear('devOptional', ['prod', 'peer'], ['prod', 'peer']);
  clear('peer', ['prod', 'dev', 'optional'], ['prod', 'optional']);
}

/**
 * The tree a lock file describes, exactly (for `npm ci`). Throws ELOCKINVALID when an entry has no
 * version or its parent folder is not in the lock.
 */
export function treeFromLock(
  pkg: Record<string, unknown>,
  lock: Lockfile,
  legacyPeerDeps: boolean,
): IdealTree {
  const root = makeNode({
    name: String(pkg.name ?? ''),
    manifest: { ...(pkg as unknown as Manifest), version: String(pkg.version ?? '') },
    parent: null,
  });
  root.edgesOut = edgesFor(root, true, legacyPeerDeps);
  const byLocation = new Map<string, TreeNode>([['', root]]);
  const nodes: TreeNode[] = [];
  const keys = Object.keys(lock.packages)
    .filter((k) => k.includes('node_modules/'))
    .sort(
      (a, b) => a.split('/node_modules/').length - b.split('/node_modules/').length || a.localeCompare(b),
    );
  for (const location of keys) {
    const entry = lock.packages[location];
    const name = nameFromLocation(location);
    const parentLocation = location.slice(0, Math.max(0, location.length - `/node_modules/${name}`.length));
    const parent = byLocation.get(location === `node_modules/${name}` ? '' : parentLocation);
    if (entry.link) {
      throw new NpmError('EUNSUPPORTED', [
        'code EUNSUPPORTED',
        `package-lock.json links ${location} to a local folder (workspaces or npm link); tabcode's npm does not support links.`,
      ]);
    }
    if (!parent || !entry.version) {
      throw new NpmError('ELOCKINVALID', [
        'code ELOCKINVALID',
        `package-lock.json has an invalid entry "${location}" (${entry.version ? 'its parent folder is not in the lock' : 'no version'}).`,
        'Run `npm install` to repair the lock file.',
      ]);
    }
    const manifest = manifestFromLock(location, entry);
    const node = makeNode({ name, parent, manifest, resolved: entry.resolved, integrity: entry.integrity });
    node.flags = {
      dev: !!entry.dev,
      optional: !!entry.optional,
      devOptional: !!entry.devOptional || !!entry.dev || !!entry.optional,
      peer: !!entry.peer,
    };
    node.inert = !!entry.optional && !platformOk(entry);
    node.edgesOut = node.inert ? [] : edgesFor(node, false, legacyPeerDeps);
    byLocation.set(location, node);
    nodes.push(node);
  }
  // Resolve edges the way Node would find the packages, for `npm ls` and the sync check.
  for (const node of [root, ...nodes]) {
    for (const edge of node.edgesOut) {
      for (let n: TreeNode | null = node; n; n = n.parent) {
        const child = n.children.get(edge.name);
        if (child && child !== node) {
          edge.to = child;
          break;
        }
      }
    }
  }
  return { root, nodes };
}
