/**
 * `npm install` / `npm i <name>…` / `npm ci` / `npm uninstall`: resolve, download and verify
 * everything first, then change node_modules, package.json and the lock in one commit (reify.ts). Any
 * failure before the commit leaves all three exactly as they were.
 */
import { runsRootInstallScripts } from '../../shell/npm-args.ts';
import { loadInstalled } from './actual.ts';
import { flag, listSetting, type NpmConfig, type ParsedArgs, setting } from './config.ts';
import { SAVE_PREFIX } from './constants.ts';
import { checkAbort, NpmError } from './errors.ts';
import type { NpmHost } from './host.ts';
import { LOCKFILE, readLockfile, serializeLockfile } from './lockfile.ts';
import { join } from './paths.ts';
import { formatPackageJson, type PackageJson, readPackageJson } from './project.ts';
import { Registry } from './registry.ts';
import { commit, type FileWrite, fetchPackages, planReify } from './reify.ts';
import { ROOT_INSTALL_EVENTS, runOneScript, type ScriptContext, scriptsOf } from './scripts.ts';
import { parseSpec, satisfies, savedRange, splitNameSpec, validPackageName } from './spec.ts';
import { buildIdealTree, type IdealTree, type TreeNode, treeFromLock } from './tree.ts';

export interface InstallContext {
  host: NpmHost;
  args: ParsedArgs;
  root: string;
  config: NpmConfig;
  /** The words after the command (package specs or names). */
  specs: string[];
  silent: boolean;
}

const DEP_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
type DepField = (typeof DEP_FIELDS)[number];

/** npm's duration format: `312ms`, `2s`, `1m`. */
export function elapsed(since: number): string {
  const ms = Math.max(0, Date.now() - since);
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)}s`;
  return `${Math.round(ms / 60_000)}m`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(added: number, removed: number, changed: number, since: number): string {
  const parts: string[] = [];
  if (added) parts.push(`added ${plural(added, 'package')}`);
  if (removed) parts.push(`removed ${plural(removed, 'package')}`);
  if (changed) parts.push(`changed ${plural(changed, 'package')}`);
  const text =
    parts.length === 0
      ? 'up to date'
      : parts.length === 1
        ? parts[0]
        : `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1]}`;
  return `\n${text} in ${elapsed(since)}\n`;
}

/** Which packages `--omit` (or NODE_ENV=production) leaves out. */
function omitFilter(ctx: InstallContext): (node: TreeNode) => boolean {
  const omit = new Set(listSetting(ctx.config, 'omit'));
  if (!ctx.config.values.has('omit') && ctx.host.env.NODE_ENV === 'production') omit.add('dev');
  for (const include of listSetting(ctx.config, 'include')) omit.delete(include);
  if (!omit.size) return () => false;
  return (n) =>
    (n.flags.dev && omit.has('dev')) ||
    (n.flags.optional && omit.has('optional')) ||
    (n.flags.devOptional && omit.has('dev') && omit.has('optional')) ||
    (n.flags.peer && omit.has('peer'));
}

function warn(ctx: InstallContext, line: string) {
  if (!ctx.silent) ctx.host.stderr(`npm warn ${line}\n`);
}

/** Warnings about what was written: deprecated packages and the install scripts that did not run. */
function reportWritten(ctx: InstallContext, written: TreeNode[]) {
  for (const node of written) {
    if (node.manifest.deprecated)
      warn(ctx, `deprecated ${node.packageName}@${node.version}: ${node.manifest.deprecated}`);
  }
  const scripted = written.filter((n) => n.hasInstallScript).map((n) => `${n.packageName}@${n.version}`);
  if (scripted.length) {
    warn(
      ctx,
      `install-scripts skipped the install scripts of ${plural(scripted.length, 'package')} (tabcode's npm does not run dependency install scripts): ${scripted.join(', ')}`,
    );
  }
}

async function runRootScripts(
  ctx: InstallContext,
  pkg: Record<string, unknown>,
  command: string,
): Promise<number> {
  if (setting(ctx.config, 'ignore-scripts')) return 0;
  const scripts = scriptsOf(pkg);
  const sctx: ScriptContext = {
    host: ctx.host,
    root: ctx.root,
    config: ctx.config,
    npmCommand: command,
    silent: ctx.silent,
  };
  for (const event of ROOT_INSTALL_EVENTS) {
    if (!scripts[event]) continue;
    const code = await runOneScript(sctx, pkg, event, scripts[event], []);
    if (code !== 0) return code;
  }
  return 0;
}

interface Apply {
  ideal: IdealTree;
  pkg: PackageJson;
  /** package.json after the command (undefined: unchanged). */
  newPkg?: Record<string, unknown>;
  writeLock: boolean;
  lockText?: string;
  clean: boolean;
  since: number;
}

/** Plans, downloads, commits and reports. */
async function apply(ctx: InstallContext, registry: Registry, a: Apply): Promise<void> {
  const { host } = ctx;
  const installed = await loadInstalled(host.fs, ctx.root);
  const plan = planReify(a.ideal, installed, omitFilter(ctx), a.clean);
  const { unpacked } = await fetchPackages(plan.write, registry, host.signal);
  const files: FileWrite[] = [];
  const finalPkg = a.newPkg ?? a.pkg.data;
  if (a.newPkg) {
    const text = formatPackageJson(a.newPkg, a.pkg.text);
    if (text !== a.pkg.text) files.push({ path: a.pkg.path, content: text });
  }
  if (a.writeLock) {
    const text = serializeLockfile(finalPkg, a.ideal.nodes);
    if (text !== a.lockText) files.push({ path: join(ctx.root, LOCKFILE), content: text });
  }
  const changes = plan.write.length + plan.moveAway.length + files.length;
  checkAbort(host.signal);
  if (flag(ctx.args, 'dry-run')) {
    if (!ctx.silent) host.stdout(summary(plan.added, plan.removed, plan.changed, a.since));
    return;
  }
  if (changes || a.clean) {
    await commit({ fs: host.fs, root: ctx.root, plan, unpacked, files, clean: a.clean });
  }
  reportWritten(ctx, plan.write);
  if (!ctx.silent) host.stdout(summary(plan.added, plan.removed, plan.changed, a.since));
}

function usage(lines: string[]): NpmError {
  return new NpmError('EUSAGE', ['code EUSAGE', '', ...lines]);
}

/** `npm install` and `npm i <spec>…`. */
export async function install(ctx: InstallContext): Promise<number> {
  const since = Date.now();
  const { host } = ctx;
  if (flag(ctx.args, 'global')) {
    throw usage([
      'Global installs (-g) are not available in this sandbox: install into the project instead.',
    ]);
  }
  const pkg = await readPackageJson(host.fs, ctx.root, false);
  if (pkg.data.workspaces) {
    warn(ctx, "workspaces are not supported here: only the root package's dependencies are installed");
  }
  if (pkg.data.overrides) warn(ctx, 'overrides in package.json are not applied by this npm');
  const useLock = ctx.config.values.get('package-lock') !== 'false';
  const existingLock = useLock ? await readLockfile(host.fs, ctx.root) : undefined;
  const save = ctx.config.values.get('save') !== 'false';
  const data: Record<string, unknown> = structuredClone(pkg.data);
  const fresh = new Set<string>();
  const requested = new Map<string, { spec: ReturnType<typeof parseSpec>; field: DepField }>();
  for (const arg of ctx.specs) {
    const { name, spec } = splitNameSpec(arg);
    if (!validPackageName(name)) {
      throw new NpmError('EINVALIDPACKAGENAME', [
        'code EINVALIDPACKAGENAME',
        `Invalid package name "${name}" of package "${arg}": name can only contain URL-friendly characters.`,
      ]);
    }
    const parsed = parseSpec(name, spec || 'latest');
    if (parsed.kind === 'unsupported') {
      throw new NpmError('EUNSUPPORTEDPROTOCOL', [
        'code EUNSUPPORTEDPROTOCOL',
        `Unsupported spec "${arg}": tabcode's npm installs packages from the registry only; ${parsed.why} are not supported.`,
      ]);
    }
    const field: DepField = flag(ctx.args, 'save-dev')
      ? 'devDependencies'
      : flag(ctx.args, 'save-optional')
        ? 'optionalDependencies'
        : flag(ctx.args, 'save-peer')
          ? 'peerDependencies'
          : flag(ctx.args, 'save-prod')
            ? 'dependencies'
            : (DEP_FIELDS.find(
                (f) => (data[f] as Record<string, string> | undefined)?.[name] !== undefined,
              ) ?? 'dependencies');
    // The field it is saved in is the only one that keeps it (npm moves it with -D / -P).
    for (const f of DEP_FIELDS) {
      if (f === field || f === 'peerDependencies') continue;
      const deps = data[f] as Record<string, string> | undefined;
      if (deps?.[name] !== undefined) delete deps[name];
    }
    const deps = { ...((data[field] as Record<string, string> | undefined) ?? {}) };
    deps[name] = spec || 'latest';
    data[field] = deps;
    if (field === 'peerDependencies') {
      // A peer the user adds is also installed for the project (npm saves it as a dev dependency too).
      const dev = { ...((data.devDependencies as Record<string, string> | undefined) ?? {}) };
      dev[name] = spec || 'latest';
      data.devDependencies = dev;
    }
    fresh.add(name);
    requested.set(name, { spec: parsed, field });
  }
  const registry = new Registry(host, ctx.config, 'npm install');
  const ideal = await buildIdealTree({
    pkg: data,
    registry,
    lock: existingLock?.lock,
    fresh,
    legacyPeerDeps: setting(ctx.config, 'legacy-peer-deps'),
    force: setting(ctx.config, 'force'),
    signal: host.signal,
    warn: (line) => warn(ctx, line),
  });
  // What gets saved: ^version of what was picked, unless the user's range was narrower.
  const exact = setting(ctx.config, 'save-exact');
  const prefix = ctx.config.values.get('save-prefix') ?? SAVE_PREFIX;
  const final: Record<string, unknown> = structuredClone(pkg.data);
  let finalChanged = false;
  for (const [name, { spec, field }] of requested) {
    const node = ideal.root.children.get(name);
    if (!node) continue;
    const range = savedRange(spec, node.version, exact, prefix);
    const saved = spec.name !== name ? `npm:${spec.name}@${range}` : range;
    for (const f of DEP_FIELDS) {
      if (f === field) continue;
      const deps = final[f] as Record<string, string> | undefined;
      if (f !== 'peerDependencies' && deps?.[name] !== undefined) {
        delete deps[name];
        finalChanged = true;
      }
    }
    const targets: DepField[] =
      field === 'peerDependencies' ? ['peerDependencies', 'devDependencies'] : [field];
    for (const target of targets) {
      const deps = { ...((final[target] as Record<string, string> | undefined) ?? {}) };
      if (deps[name] !== saved) finalChanged = true;
      deps[name] = saved;
      final[target] = Object.fromEntries(Object.entries(deps).sort(([x], [y]) => x.localeCompare(y, 'en')));
    }
  }
  await apply(ctx, registry, {
    ideal,
    pkg,
    newPkg: save && ctx.specs.length && finalChanged ? final : undefined,
    writeLock: useLock && save,
    lockText: existingLock?.text,
    clean: false,
    since,
  });
  // The project's own install scripts run for an install of the whole project only.
  if (!runsRootInstallScripts('install', ctx.specs)) return 0;
  return runRootScripts(ctx, pkg.data, 'install');
}

/** `npm ci`: exactly the lock, into a fresh node_modules; an error when the lock is absent or stale. */
export async function ci(ctx: InstallContext): Promise<number> {
  const since = Date.now();
  const { host } = ctx;
  const pkg = await readPackageJson(host.fs, ctx.root, true);
  const existing = await readLockfile(host.fs, ctx.root);
  if (!existing) {
    throw usage([
      'The `npm ci` command can only install with an existing package-lock.json or',
      'npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or',
      'later to generate a package-lock.json file, then try again.',
    ]);
  }
  const legacy = setting(ctx.config, 'legacy-peer-deps');
  const ideal = treeFromLock(pkg.data, existing.lock, legacy);
  const problems: string[] = [];
  for (const node of [ideal.root, ...ideal.nodes]) {
    for (const edge of node.edgesOut) {
      if (edge.type === 'peerOptional' || edge.spec.kind === 'unsupported') continue;
      const spec = edge.spec;
      const wanted = `${edge.name}@${spec.raw}`;
      if (!edge.to) {
        if (edge.type !== 'optional') problems.push(`Missing: ${wanted} from lock file`);
      } else if (!satisfies(edge.to.packageName, edge.to.version, spec)) {
        problems.push(
          `Invalid: lock file's ${edge.to.packageName}@${edge.to.version} does not satisfy ${wanted}`,
        );
      }
    }
  }
  if (problems.length) {
    throw usage([
      '`npm ci` can only install packages when your package.json and package-lock.json or',
      'npm-shrinkwrap.json are in sync. Please update your lock file with `npm install`',
      'before continuing.',
      '',
      ...problems,
    ]);
  }
  await apply(ctx, new Registry(host, ctx.config, 'npm ci'), {
    ideal,
    pkg,
    writeLock: false,
    clean: true,
    since,
  });
  return runRootScripts(ctx, pkg.data, 'ci');
}

/** `npm uninstall <name>…`: out of package.json, then the tree is rebuilt without it. */
export async function uninstall(ctx: InstallContext): Promise<number> {
  const since = Date.now();
  const { host } = ctx;
  if (!ctx.specs.length) throw usage(['Must provide a package name to remove']);
  const pkg = await readPackageJson(host.fs, ctx.root, false);
  const useLock = ctx.config.values.get('package-lock') !== 'false';
  const save = ctx.config.values.get('save') !== 'false';
  const existingLock = useLock ? await readLockfile(host.fs, ctx.root) : undefined;
  const data: Record<string, unknown> = structuredClone(pkg.data);
  let changed = false;
  for (const arg of ctx.specs) {
    const { name } = splitNameSpec(arg);
    for (const field of DEP_FIELDS) {
      const deps = data[field] as Record<string, string> | undefined;
      if (deps && deps[name] !== undefined) {
        delete deps[name];
        changed = true;
      }
    }
  }
  const registry = new Registry(host, ctx.config, 'npm uninstall');
  const ideal = await buildIdealTree({
    pkg: data,
    registry,
    lock: existingLock?.lock,
    legacyPeerDeps: setting(ctx.config, 'legacy-peer-deps'),
    force: setting(ctx.config, 'force'),
    signal: host.signal,
    warn: (line) => warn(ctx, line),
  });
  await apply(ctx, registry, {
    ideal,
    pkg,
    newPkg: save && changed ? data : undefined,
    writeLock: useLock && save,
    lockText: existingLock?.text,
    clean: false,
    since,
  });
  return 0;
}
