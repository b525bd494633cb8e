/**
 * `npx <command> [args]` and `npm exec`: runs a program from `node_modules/.bin` (this folder's and
 * every one above it) with npm's environment. A package that is not installed is installed first into
 * a scratch prefix (`<cache>/_npx/<hash>`, the cache defaulting to /tmp/.npm so the project stays
 * clean), with the same all-or-nothing install as `npm install`, as npm does in a non-interactive shell;
 * `--no-install` (or `--no`) refuses instead.
 */
import { type NpmConfig, type ParsedArgs, setting } from './config.ts';
import { NpmError } from './errors.ts';
import type { NpmHost } from './host.ts';
import { install } from './install.ts';
import { normalizeBin } from './lockfile.ts';
import { join } from './paths.ts';
import { readPackageJson } from './project.ts';
import { binPaths, scriptEnv, shQuote } from './scripts.ts';
import { parseSpec, satisfies, splitNameSpec, validPackageName } from './spec.ts';

export interface ExecContext {
  host: NpmHost;
  root: string;
  config: NpmConfig;
  args: ParsedArgs;
  silent: boolean;
}

async function isFile(host: NpmHost, path: string): Promise<boolean> {
  try {
    return (await host.fs.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function findBin(host: NpmHost, dirs: string[], name: string): Promise<string | undefined> {
  for (const dir of dirs) if (await isFile(host, join(dir, name))) return dir;
  return undefined;
}

/**
 * The bin a package installed under `prefix` provides for `npx <package>`: one named like it, else its
 * only one. Undefined when it is not installed, its version does not satisfy `spec`, or it has no bin.
 */
async function binOfPackage(
  host: NpmHost,
  prefix: string,
  name: string,
  spec = '',
): Promise<string | undefined> {
  let pkg: Record<string, unknown>;
  try {
    pkg = (await readPackageJson(host.fs, join(prefix, 'node_modules', name), true)).data;
  } catch {
    return undefined;
  }
  if (spec && !satisfies(name, String(pkg.version ?? ''), parseSpec(name, spec))) return undefined;
  const bins = normalizeBin(name, pkg.bin as never);
  if (!bins) return undefined;
  const unscoped = name.replace(/^@[^/]+\//, '');
  if (bins[unscoped]) return unscoped;
  const names = Object.keys(bins);
  return names.length === 1 ? names[0] : undefined;
}

async function hashOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Runs `command` (a bin name or a package spec) with `rest` as its arguments, or the shell line `call`
 * (`-c`). `packages` are the `--package` specs that must be present.
 */
export async function runExec(
  ctx: ExecContext,
  command: string[],
  packages: string[],
  call: string | undefined,
): Promise<number> {
  const { host } = ctx;
  if (!call && !command.length) {
    throw new NpmError('EUSAGE', [
      'code EUSAGE',
      '',
      'Run a command from a local or remote npm package',
      '',
      'Usage:',
      'npx <command> [args...]',
      'npm exec -- <pkg>[@<version>] [args...]',
      'npm exec --package=<pkg>[@<version>] -- <cmd> [args...]',
      "npm exec -c '<cmd> [args...]'",
    ]);
  }
  const localBins = binPaths(host.cwd);
  const [first = '', ...rest] = command;
  let program = first;
  const missing: string[] = [];
  if (packages.length) {
    for (const spec of packages) {
      const { name } = splitNameSpec(spec);
      if (!(await host.fs.exists(join(ctx.root, 'node_modules', name, 'package.json')))) missing.push(spec);
    }
  } else if (!call && !(await findBin(host, localBins, first))) {
    // Not a local command: `first` names a package (installed here, or to install).
    const { name, spec } = splitNameSpec(first);
    const bin = validPackageName(name) ? await binOfPackage(host, ctx.root, name, spec) : undefined;
    const installed = validPackageName(name) && (await host.fs.exists(join(ctx.root, 'node_modules', name)));
    if (bin) program = bin;
    else if (installed && !spec) throw noBin(name);
    else missing.push(first);
  }
  const extraBins: string[] = [];
  if (missing.length) {
    if (refusesInstall(ctx.config)) {
      throw new NpmError('ENOTINSTALLED', [
        'code ENOTINSTALLED',
        `npx canceled due to missing packages and no YES option: ${JSON.stringify(missing)}`,
        `Install ${missing.length === 1 ? 'it' : 'them'} into the project first: npm install ${missing.join(' ')}`,
      ]);
    }
    if (!ctx.silent) {
      host.stderr(
        `npm warn exec The following package${missing.length === 1 ? ' was' : 's were'} not found and will be installed: ${missing.join(', ')}\n`,
      );
    }
    let prefix: string;
    try {
      prefix = await scratchPrefix(ctx, missing);
    } catch (err) {
      if (!(err instanceof NpmError) || err.code !== 'E404' || packages.length || call) throw err;
      throw new NpmError(err.code, [
        ...err.lines,
        '',
        `\`${first}\` is not a command in any node_modules/.bin here, so npx looked for a package of that name.`,
        'If it comes with a package you use, run `npm install <that package>` first.',
      ]);
    }
    extraBins.push(join(prefix, 'node_modules/.bin'));
    if (!packages.length && !call) {
      const { name } = splitNameSpec(first);
      const bin = await binOfPackage(host, prefix, name);
      if (!bin) throw noBin(name);
      program = bin;
    }
  }
  const pkg = (await readPackageJson(host.fs, ctx.root, false)).data;
  const line = call ?? [program, ...rest].map(shQuote).join(' ');
  const sctx = { host, root: ctx.root, config: ctx.config, npmCommand: 'exec', silent: ctx.silent };
  const env = scriptEnv(sctx, pkg, 'npx', line);
  env.PATH = [...extraBins, ...localBins, host.env.PATH].filter(Boolean).join(':');
  const result = await host.exec(line, { cwd: host.cwd, env });
  if (result.stdout) host.stdout(result.stdout);
  if (result.stderr) host.stderr(result.stderr);
  return result.exitCode;
}

function noBin(name: string): NpmError {
  return new NpmError('ENOBIN', [
    'code ENOBIN',
    `could not determine executable to run: ${name} has no "bin" command named like it (and not exactly one).`,
    'Name the command itself: npx <command>, or npm exec --package=<pkg> -- <command>.',
  ]);
}

/** Installs `specs` into `<cache>/_npx/<hash>` (once; later runs reuse it). Returns that prefix. */
async function scratchPrefix(ctx: ExecContext, specs: string[]): Promise<string> {
  const { host } = ctx;
  const cache = ctx.config.values.get('cache') || '/tmp/.npm';
  const prefix = join(cache, '_npx', await hashOf([...specs].sort().join('\n')));
  const ready = await Promise.all(
    specs.map((s) => host.fs.exists(join(prefix, 'node_modules', splitNameSpec(s).name, 'package.json'))),
  );
  if (ready.every(Boolean)) return prefix;
  await host.fs.mkdir(prefix, { recursive: true });
  if (!(await host.fs.exists(join(prefix, 'package.json'))))
    await host.fs.writeFile(join(prefix, 'package.json'), '{}\n');
  // npm's own output of this install goes to stderr: stdout is the program's.
  const quiet = { ...host, stdout: (text: string) => host.stderr(text) };
  await install({
    host: quiet,
    args: ctx.args,
    root: prefix,
    config: ctx.config,
    specs,
    silent: true,
  });
  return prefix;
}

/** `--no-install`, `--no` or `--yes=false`: a missing package is an error instead of an install. */
function refusesInstall(config: NpmConfig): boolean {
  return (
    config.values.get('install') === 'false' || config.values.get('yes') === 'false' || setting(config, 'no')
  );
}
