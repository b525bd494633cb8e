/**
 * `npm ls`: the installed tree as npm 7+ draws it (top level by default, `--all` / `--depth=N` for
 * more, `npm ls <name>` for the paths to a package), with `deduped`, `extraneous`, `invalid` and
 * `UNMET DEPENDENCY` marks; `--json` and `--parseable` too. Problems make the exit code 1, as in npm.
 */
import { type InstalledPackage, loadInstalled } from './actual.ts';
import { flag, type ParsedArgs, stringFlag } from './config.ts';
import { NpmError, printError } from './errors.ts';
import type { NpmHost } from './host.ts';
import { join } from './paths.ts';
import { packageId, readPackageJson } from './project.ts';
import { parseSpec, satisfies, splitNameSpec } from './spec.ts';

interface LsNode {
  label: string;
  /** Package name (folder name) for filtering. */
  name: string;
  children: LsNode[];
  json: Record<string, unknown>;
  path?: string;
}

function parentLocation(location: string): string {
  const i = location.lastIndexOf('/node_modules/');
  return i < 0 ? '' : location.slice(0, i);
}

/** The installed package Node would find for `name` from `location`. */
function resolveFrom(installed: Map<string, InstalledPackage>, location: string, name: string) {
  for (let loc = location; ; loc = parentLocation(loc)) {
    const candidate = loc ? `${loc}/node_modules/${name}` : `node_modules/${name}`;
    const hit = installed.get(candidate);
    if (hit) return hit;
    if (!loc) return undefined;
  }
}

function depsOf(
  pkg: Record<string, unknown>,
  isRoot: boolean,
): [string, string, 'prod' | 'optional' | 'peer' | 'dev'][] {
  const out = new Map<string, [string, string, 'prod' | 'optional' | 'peer' | 'dev']>();
  const add = (field: string, type: 'prod' | 'optional' | 'peer' | 'dev') => {
    const deps = pkg[field];
    if (!deps || typeof deps !== 'object') return;
    for (const [name, spec] of Object.entries(deps as Record<string, string>)) {
      if (!out.has(name) || type === 'optional') out.set(name, [name, String(spec), type]);
    }
  };
  add('dependencies', 'prod');
  add('optionalDependencies', 'optional');
  if (isRoot) add('devDependencies', 'dev');
  add('peerDependencies', 'peer');
  return [...out.values()].sort(([a], [b]) => a.localeCompare(b, 'en'));
}

export async function runLs(
  host: NpmHost,
  root: string,
  args: ParsedArgs,
  filters: string[],
): Promise<number> {
  const pkg = (await readPackageJson(host.fs, root, false)).data;
  const installed = await loadInstalled(host.fs, root);
  const all = flag(args, 'all');
  const depthFlag = stringFlag(args, 'depth');
  const names = new Set(filters.map((f) => splitNameSpec(f).name));
  const maxDepth = names.size || all ? Number.POSITIVE_INFINITY : depthFlag ? Number(depthFlag) || 0 : 0;
  const problems: string[] = [];
  const printed = new Set<string>();
  const reachable = new Set<string>();

  // Everything reachable from the project, for `extraneous`.
  const walk = (location: string, p: Record<string, unknown>) => {
    for (const [name] of depsOf(p, location === '')) {
      const hit = resolveFrom(installed, location, name);
      if (hit && !reachable.has(hit.location)) {
        reachable.add(hit.location);
        walk(hit.location, hit.pkg);
      }
    }
  };
  walk('', pkg);

  const from = (location: string) => {
    if (!location) return 'the root project';
    const p = installed.get(location);
    return p ? `${p.packageName}@${p.version}` : location;
  };

  // Breadth first, as npm walks it: a package is drawn in full where it is met first, `deduped` after.
  const top: LsNode[] = [];
  const queue: { location: string; pkg: Record<string, unknown>; depth: number; into: LsNode[] }[] = [
    { location: '', pkg, depth: 0, into: top },
  ];
  while (queue.length) {
    const { location, pkg: p, depth, into } = queue.shift()!;
    for (const [name, raw, type] of depsOf(p, location === '')) {
      const hit = resolveFrom(installed, location, name);
      if (!hit) {
        if (type === 'peer' || type === 'optional') continue;
        problems.push(`missing: ${name}@${raw}, required by ${from(location)}`);
        into.push({
          label: `UNMET DEPENDENCY ${name}@${raw}`,
          name,
          children: [],
          json: { required: raw, missing: true },
        });
        continue;
      }
      const spec = parseSpec(name, raw);
      const valid = spec.kind === 'unsupported' || satisfies(hit.packageName, hit.version, spec);
      let label = `${hit.name}@${hit.version}`;
      if (hit.packageName && hit.packageName !== hit.name)
        label = `${hit.name}@npm:${hit.packageName}@${hit.version}`;
      const json: Record<string, unknown> = { version: hit.version };
      if (!valid) {
        label += ` invalid: "${raw}" from ${from(location)}`;
        json.invalid = `"${raw}" from ${from(location)}`;
        problems.push(`invalid: ${hit.name}@${hit.version} ${join(root, hit.location)}`);
      }
      const node: LsNode = { label, name, children: [], json, path: join(root, hit.location) };
      if (printed.has(hit.location)) {
        node.label += ' deduped';
      } else {
        printed.add(hit.location);
        if (depth < maxDepth)
          queue.push({ location: hit.location, pkg: hit.pkg, depth: depth + 1, into: node.children });
      }
      into.push(node);
    }
  }
  for (const p2 of installed.values()) {
    if (parentLocation(p2.location) !== '' || reachable.has(p2.location)) continue;
    problems.push(`extraneous: ${p2.name}@${p2.version} ${join(root, p2.location)}`);
    top.push({
      label: `${p2.name}@${p2.version} extraneous`,
      name: p2.name,
      children: [],
      json: { version: p2.version, extraneous: true },
      path: join(root, p2.location),
    });
  }
  top.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const withJson = (nodes: LsNode[]) => {
    for (const n of nodes) {
      withJson(n.children);
      if (n.children.length)
        n.json.dependencies = Object.fromEntries(n.children.map((c) => [c.name, c.json]));
    }
  };
  withJson(top);

  let tree = top;
  if (names.size) {
    const keep = (nodes: LsNode[]): LsNode[] =>
      nodes
        .map((n) => ({ ...n, children: keep(n.children) }))
        .filter((n) => names.has(n.name) || n.children.length);
    tree = keep(tree);
  }

  if (flag(args, 'json')) {
    const doc: Record<string, unknown> = {};
    if (pkg.name) doc.name = pkg.name;
    if (pkg.version) doc.version = pkg.version;
    if (tree.length) doc.dependencies = Object.fromEntries(tree.map((n) => [n.name, n.json]));
    if (problems.length) doc.problems = problems;
    host.stdout(`${JSON.stringify(doc, null, 2)}\n`);
  } else if (flag(args, 'parseable')) {
    const lines = [root];
    const visit = (nodes: LsNode[]) => {
      for (const n of nodes) {
        if (n.path) lines.push(n.path);
        visit(n.children);
      }
    };
    visit(tree);
    host.stdout(`${lines.join('\n')}\n`);
  } else {
    const id = packageId(pkg);
    const lines = [id ? `${id} ${root}` : root];
    const draw = (nodes: LsNode[], indent: string) => {
      nodes.forEach((n, i) => {
        const last = i === nodes.length - 1;
        lines.push(`${indent}${last ? '└─' : '├─'}${n.children.length ? '┬' : '─'} ${n.label}`);
        draw(n.children, `${indent}${last ? '  ' : '│ '}`);
      });
    };
    if (tree.length) draw(tree, '');
    else lines.push('└── (empty)');
    host.stdout(`${lines.join('\n')}\n\n`);
  }
  if (problems.length) {
    printError(host.stderr, new NpmError('ELSPROBLEMS', ['code ELSPROBLEMS', ...problems]));
    return 1;
  }
  if (names.size && !tree.length) return 1;
  return 0;
}
