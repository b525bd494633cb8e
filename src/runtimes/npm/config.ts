/**
 * npm's command line and configuration: flags (anywhere before `--`, as npm's parser takes them),
 * `.npmrc` files and `npm_config_*` variables, with npm's precedence: command line, environment,
 * project `.npmrc`, user `~/.npmrc`, defaults.
 */
import { DEFAULT_REGISTRY } from './constants.ts';
import type { NpmFs } from './host.ts';
import { join } from './paths.ts';

export type FlagValue = string | boolean | string[];

export interface ParsedArgs {
  /** Words that are not flags, in order (the npm command first). */
  positionals: string[];
  /** Everything after a bare `--`. */
  passthrough: string[];
  /** Canonical flag name → value (`-D` is `save-dev`, `--no-save` is `save: false`). */
  flags: Map<string, FlagValue>;
}

/** Flags that take a value (`--prefix dir` or `--prefix=dir`). */
const STRING_FLAGS = new Set([
  'prefix',
  'registry',
  'omit',
  'include',
  'depth',
  'package',
  'call',
  'loglevel',
  'tag',
  'save-prefix',
  'cache',
  'userconfig',
  'workspace',
]);
/** Flags that may be given more than once. */
const LIST_FLAGS = new Set(['omit', 'include', 'package', 'workspace']);

const SHORT: Record<string, [string, FlagValue | undefined]> = {
  D: ['save-dev', true],
  S: ['save', true],
  E: ['save-exact', true],
  O: ['save-optional', true],
  P: ['save-prod', true],
  s: ['loglevel', 'silent'],
  q: ['loglevel', 'warn'],
  d: ['loglevel', 'info'],
  g: ['global', true],
  y: ['yes', true],
  f: ['force', true],
  C: ['prefix', undefined],
  p: ['package', undefined],
  c: ['call', undefined],
  v: ['version', true],
  h: ['usage', true],
  '?': ['usage', true],
  l: ['long', true],
  w: ['workspace', undefined],
};

const ALIASES: Record<string, [string, FlagValue]> = {
  silent: ['loglevel', 'silent'],
  quiet: ['loglevel', 'warn'],
  verbose: ['loglevel', 'verbose'],
  production: ['omit', ['dev']],
  help: ['usage', true],
};

function setFlag(flags: Map<string, FlagValue>, name: string, value: FlagValue) {
  if (LIST_FLAGS.has(name) && typeof value === 'string') {
    const prev = flags.get(name);
    flags.set(name, [...(Array.isArray(prev) ? prev : []), value]);
  } else flags.set(name, value);
}

/**
 * Parses npm-style arguments. With `stopAtPositional`, the first word that is not a flag and every
 * word after it are positionals (npx: flags after the command belong to the command).
 */
export function parseArgs(args: string[], stopAtPositional = false): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, FlagValue>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (stopAtPositional && positionals.length) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') return { positionals, passthrough: args.slice(i + 1), flags };
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = (eq > 0 ? arg.slice(2, eq) : arg.slice(2)).toLowerCase();
      let value: FlagValue | undefined = eq > 0 ? arg.slice(eq + 1) : undefined;
      if (name.startsWith('no-') && value === undefined) {
        setFlag(flags, name.slice(3), false);
        continue;
      }
      const alias = ALIASES[name];
      if (alias && value === undefined) {
        setFlag(flags, alias[0], alias[1]);
        continue;
      }
      if (value === undefined && STRING_FLAGS.has(name) && i + 1 < args.length && args[i + 1] !== '--') {
        value = args[++i];
      }
      if (value === 'true') value = true;
      else if (value === 'false') value = false;
      setFlag(flags, name, value ?? true);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      const letters = arg.slice(1);
      for (let j = 0; j < letters.length; j++) {
        const short = SHORT[letters[j]];
        if (!short) {
          setFlag(flags, letters[j], true);
          continue;
        }
        const [name, fixed] = short;
        if (fixed !== undefined) {
          setFlag(flags, name, fixed);
          continue;
        }
        // A value flag: the rest of the word, or the next argument.
        const rest = letters.slice(j + 1);
        const value = rest || (i + 1 < args.length ? args[++i] : '');
        setFlag(flags, name, value);
        break;
      }
      continue;
    }
    positionals.push(arg);
  }
  return { positionals, passthrough: [], flags };
}

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
