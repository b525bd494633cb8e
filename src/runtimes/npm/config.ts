/**
 * npm's command line and configuration: flags (anywhere before `--`, as npm's parser takes them),
 * `.npmrc` files and `npm_config_*` variables, with npm's precedence: command line, environment,
 * project `.npmrc`, user `~/.npmrc`, defaults.
 */
import type { ParsedArgs } from '../../shell/npm-args.ts';
import { DEFAULT_REGISTRY } from './constants.ts';
import type { NpmFs } from './host.ts';
import { join } from './paths.ts';

export { type FlagValue, type ParsedArgs, parseArgs } from '../../shell/npm-args.ts';

/** Reads a boolean flag. */
export function flag(args: ParsedArgs, name: string): boolean {
  const v = args.flags.get(name);
  return v === true || (typeof v === 'string' && v !== '' && v !== 'false');
}

/** Reads a string flag (the last one given). */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (Array.isArray(v)) return v[v.length - 1];
  return typeof v === 'string' ? v : undefined;
}

/** Parses `.npmrc` text: `key=value` lines, `;`/`#` comments, `${VAR}` from the environment. */
export function parseNpmrc(text: string, env: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#') || line.startsWith('[')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    value = value.replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? '');
    out.set(key, value);
  }
  return out;
}

/** The configuration a command works with. */
export interface NpmConfig {
  /** The default registry, with a trailing slash. */
  registry: string;
  /** `@scope` → registry URL for that scope. */
  scopes: Map<string, string>;
  /** Every config value that is not a default, by npm name (exported to scripts as npm_config_*). */
  values: Map<string, string>;
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

async function readNpmrc(fs: NpmFs, path: string, env: Record<string, string>): Promise<Map<string, string>> {
  try {
    return parseNpmrc(await fs.readFile(path), env);
  } catch {
    return new Map();
  }
}

/**
 * Combines the layers for the project at `root`. Never throws: an unreadable `.npmrc` counts as
 * absent.
 */
export async function loadConfig(
  fs: NpmFs,
  root: string,
  env: Record<string, string>,
  args: ParsedArgs,
): Promise<NpmConfig> {
  const layers: Map<string, string>[] = [];
  const cli = new Map<string, string>();
  for (const [name, value] of args.flags) {
    cli.set(name, Array.isArray(value) ? value.join('\n\n') : String(value));
  }
  layers.push(cli);
  const fromEnv = new Map<string, string>();
  for (const [key, value] of Object.entries(env)) {
    const m = /^npm_config_(.+)$/i.exec(key);
    if (m) fromEnv.set(m[1].toLowerCase().replace(/_/g, '-'), value);
  }
  layers.push(fromEnv);
  layers.push(await readNpmrc(fs, join(root, '.npmrc'), env));
  if (env.HOME) layers.push(await readNpmrc(fs, join(env.HOME, '.npmrc'), env));
  const values = new Map<string, string>();
  for (const layer of [...layers].reverse()) for (const [k, v] of layer) values.set(k, v);
  const scopes = new Map<string, string>();
  for (const [k, v] of values) {
    const m = /^(@[^:]+):registry$/.exec(k);
    if (m && v) scopes.set(m[1], withSlash(v));
  }
  return { registry: withSlash(values.get('registry') || DEFAULT_REGISTRY), scopes, values };
}

/** The registry that serves `name` (its scope's, else the default). */
export function registryFor(config: NpmConfig, name: string): string {
  if (name.startsWith('@')) {
    const scope = name.slice(0, name.indexOf('/'));
    const url = config.scopes.get(scope);
    if (url) return url;
  }
  return config.registry;
}

/** A boolean setting from any layer (`--x`, `npm_config_x=true`, `x=true` in .npmrc). */
export function setting(config: NpmConfig, name: string): boolean {
  const v = config.values.get(name);
  return v !== undefined && v !== '' && v !== 'false';
}

/** A list setting (`--omit=dev --omit=optional`, `omit=dev` in .npmrc). */
export function listSetting(config: NpmConfig, name: string): string[] {
  const v = config.values.get(name);
  return v ? v.split(/[\s,]+/).filter(Boolean) : [];
}
