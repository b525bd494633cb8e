/**
 * npm's command line as tabcode's npm reads it (src/runtimes/npm): its flags (anywhere before `--`:
 * value flags take the next word or, for a short one, the rest of the word; long names in any case),
 * its commands and their aliases. One table for the sandbox's npm and for the permission analysis that
 * must know which package scripts a command runs. Pure; a leaf like the rest of src/shell.
 */
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

/** npm's commands and their aliases, by the name tabcode's npm dispatches on. */
export const NPM_COMMANDS: Readonly<Record<string, string>> = {
  run: 'run',
  'run-script': 'run',
  rum: 'run',
  urn: 'run',
  test: 'test',
  t: 'test',
  tst: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
  install: 'install',
  i: 'install',
  in: 'install',
  ins: 'install',
  inst: 'install',
  insta: 'install',
  instal: 'install',
  isnt: 'install',
  isnta: 'install',
  isntal: 'install',
  isntall: 'install',
  add: 'install',
  ci: 'ci',
  'clean-install': 'ci',
  ic: 'ci',
  'install-clean': 'ci',
  'isntall-clean': 'ci',
  'install-test': 'install-test',
  it: 'install-test',
  'install-ci-test': 'install-ci-test',
  cit: 'install-ci-test',
  uninstall: 'uninstall',
  un: 'uninstall',
  unlink: 'uninstall',
  remove: 'uninstall',
  rm: 'uninstall',
  r: 'uninstall',
  exec: 'exec',
  x: 'exec',
  ls: 'ls',
  list: 'ls',
  la: 'ls',
  ll: 'ls',
  init: 'init',
  create: 'init',
  innit: 'init',
  help: 'help',
  version: 'version',
  prefix: 'prefix',
  root: 'root',
};

/** Lifecycle scripts of the project itself, run after `npm install` / `npm ci` (not for `npm i <name>`). */
export const ROOT_INSTALL_EVENTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
];

/**
 * Whether an npm command (as NPM_COMMANDS names it) runs ROOT_INSTALL_EVENTS, given the packages it names:
 * `npm install` and `npm ci` do; `npm install <pkg>…` does not (npm 7+ runs them only for an install
 * that names no package, lib/commands/install.js); nor does `npm uninstall` (npm 7+ has no uninstall
 * scripts). `install-test` installs as `install` does, `install-ci-test` as `ci`. The sandbox's npm
 * (src/runtimes/npm/install.ts) and the permission analysis (core/permissions/npm-scripts.ts) both go by it.
 * Besides: npm 8+ runs the root's predependencies, dependencies and postdependencies scripts after any
 * command that changed node_modules (`npm i <pkg>` and `npm uninstall` included). tabcode's npm runs
 * none of them, but WebContainer's npm is npm's own, so the permission analysis counts them for every
 * install, ci and uninstall (on the safe side for tabcode's npm).
 */
export function runsRootInstallScripts(command: string, packages: readonly string[]): boolean {
  if (command === 'ci' || command === 'install-ci-test') return true;
  return (command === 'install' || command === 'install-test') && packages.length === 0;
}

/** Scripts npm runs where package.json has none (`npm restart`, `npm run env`). */
export const NPM_IMPLICIT_SCRIPTS: Readonly<Record<string, string>> = {
  restart: 'npm stop --if-present && npm start',
  env: 'env',
};
/** `npm start` where package.json has no start script and the package has a server.js. */
export const NPM_SERVER_START = 'node server.js';
