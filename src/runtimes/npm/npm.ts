/**
 * tabcode's `npm` and `npx`: the entry points the sandbox's custom commands call. Each takes the
 * command's arguments and a host (host.ts) and resolves with the exit code; errors are printed as npm
 * prints them (`npm error …` on stderr) and never thrown.
 */
import { NPM_COMMANDS } from '../../shell/npm-args.ts';
import { flag, loadConfig, type ParsedArgs, parseArgs, stringFlag } from './config.ts';
import { NODE_VERSION, NPM_VERSION } from './constants.ts';
import { NpmError, printError } from './errors.ts';
import { runExec } from './exec.ts';
import type { NpmHost } from './host.ts';
import { runInit } from './init.ts';
import { ci, type InstallContext, install, uninstall } from './install.ts';
import { runLs } from './ls.ts';
import { findProjectRoot, packageId, readPackageJson } from './project.ts';
import { listScripts, runScript, type ScriptContext } from './scripts.ts';

export type { NpmHost } from './host.ts';

/** What `npm help` (and `npm` alone) prints. */
export const USAGE = `npm <command>

tabcode's npm: scripts, npx and installs from the registry, inside the sandbox.

Usage:

npm install               install everything in package.json (writes package-lock.json)
npm install <pkg>[@<range>]   add a dependency (-D: devDependencies, -E: exact, --no-save)
npm ci                    install exactly package-lock.json into a fresh node_modules
npm uninstall <pkg>       remove a dependency
npm run <script> [-- <args>]  run a package script (npm run alone lists them)
npm test | start | stop | restart
npm exec -- <cmd> [args]  run a program from node_modules/.bin (same as npx <cmd>)
npm ls [--all]            show the installed tree
npm init -y               write a package.json
npm prefix | root | version | help

All commands:

    add, ci, clean-install, exec, help, i, init, install, install-ci-test,
    install-test, list, ls, prefix, remove, restart, rm, root, run, run-script,
    start, stop, t, test, uninstall, version, x

Install scripts of dependencies do not run; the registry is https://registry.npmjs.org/
unless --registry, npm_config_registry or an .npmrc says otherwise.

npm@${NPM_VERSION} (tabcode)
`;

interface Run {
  host: NpmHost;
  args: ParsedArgs;
  silent: boolean;
}

async function context(host: NpmHost, args: ParsedArgs) {
  const root = await findProjectRoot(host.fs, host.cwd, stringFlag(args, 'prefix'));
  const config = await loadConfig(host.fs, root, host.env, args);
  return { root, config };
}

async function dispatch(run: Run): Promise<number> {
  const { host, args, silent } = run;
  const [word, ...rest] = args.positionals;
  if (!word) {
    if (flag(args, 'version')) {
      host.stdout(`${NPM_VERSION}\n`);
      return 0;
    }
    host.stdout(USAGE);
    return flag(args, 'usage') ? 0 : 1;
  }
  const command = NPM_COMMANDS[word];
  if (!command) {
    throw new NpmError('EUNKNOWNCOMMAND', [
      `Unknown command: "${word}"`,
      '',
      "tabcode's npm knows: install, ci, uninstall, run, test, start, stop, restart, exec, ls, init, prefix, root,",
      'version and help. To see a list of supported npm commands, run:',
      '  npm help',
    ]);
  }
  if (command === 'help' || flag(args, 'usage')) {
    host.stdout(USAGE);
    return 0;
  }
  const { root, config } = await context(host, args);
  const scriptArgs = [...rest.slice(command === 'run' ? 1 : 0), ...args.passthrough];
  const sctx = (npmCommand: string): ScriptContext => ({ host, root, config, npmCommand, silent });
  const ictx = (specs: string[]): InstallContext => ({ host, args, root, config, specs, silent });
  switch (command) {
    case 'run': {
      const pkg = (await readPackageJson(host.fs, root, true)).data;
      if (!rest.length) {
        if (!silent) host.stdout(listScripts(pkg));
        return 0;
      }
      return runScript(sctx('run-script'), pkg, rest[0], scriptArgs);
    }
    case 'test':
    case 'start':
    case 'stop':
    case 'restart': {
      const pkg = (await readPackageJson(host.fs, root, true)).data;
      return runScript(sctx(command), pkg, command, scriptArgs);
    }
    case 'install':
      return install(ictx(rest));
    case 'ci':
      return ci(ictx([]));
    case 'install-test':
    case 'install-ci-test': {
      const code = command === 'install-test' ? await install(ictx(rest)) : await ci(ictx([]));
      if (code !== 0) return code;
      const pkg = (await readPackageJson(host.fs, root, true)).data;
      return runScript(sctx('test'), pkg, 'test', []);
    }
    case 'uninstall':
      return uninstall(ictx(rest));
    case 'exec': {
      const call = stringFlag(args, 'call');
      const packages = packagesFlag(args);
      return runExec({ host, root, config, args, silent }, [...rest, ...args.passthrough], packages, call);
    }
    case 'ls':
      return runLs(host, root, args, rest);
    case 'init':
      if (rest.length) {
        // `npm init <initializer>` is `npm exec create-<initializer>`.
        const [initializer, ...initArgs] = [...rest, ...args.passthrough];
        const pkgName = initializer.startsWith('@')
          ? initializer.includes('/')
            ? initializer.replace(/\/(create-)?/, '/create-')
            : `${initializer}/create`
          : `create-${initializer.replace(/^create-/, '')}`;
        return runExec({ host, root, config, args, silent }, [pkgName, ...initArgs], [], undefined);
      }
      return runInit(host, root);
    case 'version': {
      const pkg = (await readPackageJson(host.fs, root, false)).data;
      const versions: Record<string, string> = {};
      if (typeof pkg.name === 'string' && typeof pkg.version === 'string') versions[pkg.name] = pkg.version;
      versions.npm = NPM_VERSION;
      versions.node = NODE_VERSION.replace(/^v/, '');
      if (rest.length) {
        throw new NpmError('EUNSUPPORTED', [
          'code EUNSUPPORTED',
          `\`npm version ${rest.join(' ')}\` (bumping ${packageId(pkg) || 'the package'}) is not available here: edit "version" in package.json.`,
        ]);
      }
      host.stdout(`${JSON.stringify(versions, null, 2)}\n`);
      return 0;
    }
    case 'prefix':
      host.stdout(`${root}\n`);
      return 0;
    case 'root':
      host.stdout(`${root}/node_modules\n`);
      return 0;
  }
  return 1;
}

function packagesFlag(args: ParsedArgs): string[] {
  const v = args.flags.get('package');
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** Runs `npm <args>`. Resolves with the exit code; never rejects. */
export async function runNpm(args: string[], host: NpmHost): Promise<number> {
  const parsed = parseArgs(args);
  const silent = parsed.flags.get('loglevel') === 'silent' || host.env.npm_config_loglevel === 'silent';
  try {
    return await dispatch({ host, args: parsed, silent });
  } catch (err) {
    if (!silent || !(err instanceof NpmError)) printError(host.stderr, err);
    return err instanceof NpmError ? err.exitCode : 1;
  }
}

/** Runs `npx <args>` (flags before the command are npx's; the rest belong to the command). */
export async function runNpx(args: string[], host: NpmHost): Promise<number> {
  const parsed = parseArgs(args, true);
  const silent = parsed.flags.get('loglevel') === 'silent';
  try {
    if (!parsed.positionals.length && flag(parsed, 'version')) {
      host.stdout(`${NPM_VERSION}\n`);
      return 0;
    }
    const { root, config } = await context(host, parsed);
    const command = [...parsed.positionals, ...parsed.passthrough];
    return await runExec(
      { host, root, config, args: parsed, silent },
      command,
      packagesFlag(parsed),
      stringFlag(parsed, 'call'),
    );
  } catch (err) {
    if (!silent || !(err instanceof NpmError)) printError(host.stderr, err);
    return err instanceof NpmError ? err.exitCode : 1;
  }
}
