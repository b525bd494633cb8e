/**
 * Package scripts, as npm runs them: `npm run`, `test`, `start`, `stop`, `restart`, pre/post scripts,
 * the `> name@version event` banner, npm's environment (npm_lifecycle_*, npm_package_*, npm_config_*,
 * INIT_CWD, PATH with every node_modules/.bin from the package up to `/`), arguments appended quoted.
 */
import { type NpmConfig, setting } from './config.ts';
import { ABORTED_EXIT_CODE, NODE_VERSION, NPM_VERSION, TARGET_CPU, TARGET_OS } from './constants.ts';
import { NpmError, printError } from './errors.ts';
import type { NpmHost } from './host.ts';
import { ancestors, join } from './paths.ts';
import { packageId } from './project.ts';

export interface ScriptContext {
  host: NpmHost;
  /** The package folder (scripts run there). */
  root: string;
  config: NpmConfig;
  /** npm's `npm_command` (`run-script`, `test`, `install`…). */
  npmCommand: string;
  silent: boolean;
}

/** Single-quotes a word for sh when it needs it. */
export function shQuote(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The `node_modules/.bin` folders a script sees first on PATH, nearest first. */
export function binPaths(dir: string): string[] {
  return ancestors(dir).map((d) => join(d, 'node_modules/.bin'));
}

/** npm's package envs: name, version, config, engines, bin, flattened with `_`. */
function packageEnvs(pkg: Record<string, unknown>, env: Record<string, string>): void {
  const put = (value: unknown, key: string) => {
    if (value === undefined) return;
    if (value === null || value === false) env[key] = '';
    else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) put(item, `${key}_${i}`);
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) put(v, `${key}_${k}`);
    } else env[key] = String(value);
  };
  for (const field of ['name', 'version', 'config', 'engines', 'bin'])
    put(pkg[field], `npm_package_${field}`);
}

/** The environment of a script or `npm exec` command. */
export function scriptEnv(
  ctx: ScriptContext,
  pkg: Record<string, unknown>,
  event: string,
  script: string,
): Record<string, string> {
  const { host, root, config } = ctx;
  const env: Record<string, string> = { ...host.env };
  for (const [key, value] of config.values) {
    if (/^[/@_]/.test(key) || key.includes(':')) continue;
    env[`npm_config_${key.replace(/-/g, '_').toLowerCase()}`] = value;
  }
  env.npm_config_user_agent = `npm/${NPM_VERSION} node/${NODE_VERSION} ${TARGET_OS} ${TARGET_CPU} workspaces/false`;
  env.npm_config_local_prefix = root;
  env.npm_config_npm_version = NPM_VERSION;
  env.npm_config_registry = config.registry;
  env.npm_command = ctx.npmCommand;
  env.INIT_CWD = host.cwd;
  packageEnvs(pkg, env);
  env.npm_package_json = join(root, 'package.json');
  env.npm_lifecycle_event = event;
  env.npm_lifecycle_script = script;
  env.PATH = [...binPaths(root), host.env.PATH].filter(Boolean).join(':');
  return env;
}

/**
 * Runs one script with its banner; returns its exit code (ABORTED_EXIT_CODE when the host's signal
 * fired). Prints npm's error lines when it fails.
 */
export async function runOneScript(
  ctx: ScriptContext,
  pkg: Record<string, unknown>,
  event: string,
  script: string,
  args: string[],
): Promise<number> {
  const { host } = ctx;
  if (host.signal?.aborted) return ABORTED_EXIT_CODE;
  const line = args.length ? `${script} ${args.map(shQuote).join(' ')}` : script;
  if (!ctx.silent) {
    const id = packageId(pkg);
    const shown = script.trim().replace(/\n/g, '\n> ');
    host.stdout(
      `\n> ${id ? `${id} ` : ''}${event}\n> ${shown}${args.length ? ` ${args.join(' ')}` : ''}\n\n`,
    );
  }
  const result = await host.exec(line, { cwd: ctx.root, env: scriptEnv(ctx, pkg, event, script) });
  if (result.stdout) host.stdout(result.stdout);
  if (result.stderr) host.stderr(result.stderr);
  if (host.signal?.aborted) return ABORTED_EXIT_CODE;
  if (result.exitCode !== 0 && !ctx.silent) {
    printError(
      host.stderr,
      new NpmError(String(result.exitCode), [
        `Lifecycle script \`${event}\` failed with error:`,
        `code ${result.exitCode}`,
        `path ${ctx.root}`,
        'command failed',
        `command sh -c ${script}`,
      ]),
    );
  }
  return result.exitCode;
}

/** Levenshtein distance, for npm's "Did you mean" hint. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

const RUN_SHORTCUTS = ['stop', 'start', 'test', 'restart'];

function didYouMean(pkg: Record<string, unknown>, event: string): string[] {
  const scripts = Object.keys((pkg.scripts ?? {}) as Record<string, string>);
  const close = scripts.filter((s) => distance(event, s) < event.length * 0.4 && s !== event);
  if (!close.length) return [];
  const lines = close
    .slice(0, 3)
    .map((s) =>
      RUN_SHORTCUTS.includes(s)
        ? `  npm ${s} # run the "${s}" package script`
        : `  npm run ${s} # run the "${s}" package script`,
    );
  return ['', `Did you mean ${close.length === 1 ? 'this' : 'one of these'}?`, ...lines];
}

/** The scripts a package.json lists, as strings (anything else is ignored). */
export function scriptsOf(pkg: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const scripts = pkg.scripts;
  if (scripts && typeof scripts === 'object') {
    for (const [k, v] of Object.entries(scripts)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * `npm run <event> [args]` (and test/start/stop/restart): the pre script, the script, the post script.
 * Returns the exit code of the first that fails, else 0.
 */
export async function runScript(
  ctx: ScriptContext,
  pkg: Record<string, unknown>,
  event: string,
  args: string[],
): Promise<number> {
  const { host } = ctx;
  const scripts = scriptsOf(pkg);
  // The scripts npm adds (one table with the permission analysis, which must know what runs).
  const implicit = NPM_IMPLICIT_SCRIPTS[event];
  if (implicit !== undefined && !scripts[event]) scripts[event] = implicit;
  if (event === 'start' && !scripts.start && (await isFile(host, join(ctx.root, 'server.js')))) {
    scripts.start = NPM_SERVER_START;
  }
  if (!(event in scripts)) {
    if (setting(ctx.config, 'if-present')) return 0;
    if (!ctx.silent) {
      printError(
        host.stderr,
        new NpmError('EMISSINGSCRIPT', [
          `Missing script: "${event}"`,
          ...didYouMean(pkg, event),
          '',
          'To see a list of scripts, run:',
          '  npm run',
        ]),
      );
    }
    return 1;
  }
  const events: [string, string[]][] = [[event, args]];
  if (!setting(ctx.config, 'ignore-scripts')) {
    if (scripts[`pre${event}`]) events.unshift([`pre${event}`, []]);
    if (scripts[`post${event}`]) events.push([`post${event}`, []]);
  }
  for (const [ev, evArgs] of events) {
    const code = await runOneScript(ctx, pkg, ev, scripts[ev], evArgs);
    if (code !== 0) return code;
  }
  return 0;
}

async function isFile(host: NpmHost, path: string): Promise<boolean> {
  try {
    return (await host.fs.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** `npm run` with no script: the list npm prints (lifecycle scripts first). */
export function listScripts(pkg: Record<string, unknown>): string {
  const lifecycle = new Set([
    'prepare',
    'prepublishOnly',
    'prepack',
    'postpack',
    'dependencies',
    'preinstall',
    'install',
    'postinstall',
    'prepublish',
    'publish',
    'postpublish',
    'prerestart',
    'restart',
    'postrestart',
    'prestart',
    'start',
    'poststart',
    'prestop',
    'stop',
    'poststop',
    'pretest',
    'test',
    'posttest',
    'preuninstall',
    'uninstall',
    'postuninstall',
    'preversion',
    'version',
    'postversion',
  ]);
  const entries = Object.entries(scriptsOf(pkg));
  if (!entries.length) return '';
  const id = packageId(pkg);
  const cmds = entries.filter(([k]) => lifecycle.has(k));
  const runs = entries.filter(([k]) => !lifecycle.has(k));
  const lines: string[] = [];
  const show = (list: [string, string][]) => {
    for (const [k, v] of list) lines.push(`  ${k}`, `    ${v}`);
  };
  if (cmds.length) {
    lines.push(`Lifecycle scripts included in ${id}:`);
    show(cmds);
  }
  if (runs.length) {
    lines.push(cmds.length ? 'available via `npm run`:' : `Scripts available in ${id} via \`npm run\`:`);
    show(runs);
  }
  return `${lines.join('\n')}\n`;
}

export { ROOT_INSTALL_EVENTS } from '../../shell/npm-args.ts';

import { NPM_IMPLICIT_SCRIPTS, NPM_SERVER_START } from '../../shell/npm-args.ts';
