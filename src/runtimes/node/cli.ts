/**
 * `node`'s command line: which program to run and how. Options go before the script; everything after
 * the script (or after `--`) belongs to the program, as in Node. Options Node has that make no sense
 * here (inspector, watch mode) are refused with a clear message; harmless ones (experimental flags,
 * source maps) are accepted and ignored.
 */

export type NodeMode = 'script' | 'eval' | 'print' | 'stdin' | 'test' | 'check' | 'version' | 'help';

export interface NodePlan {
  mode: NodeMode;
  /** The script, as given (resolved against the cwd by the engine). */
  script?: string;
  /** Code of -e / -p. */
  code?: string;
  inputType?: 'module' | 'commonjs';
  /** Arguments after the script: process.argv.slice(2). */
  scriptArgs: string[];
  /** The options, as process.execArgv. */
  execArgv: string[];
  requires: string[];
  imports: string[];
  /** `--test` file arguments (paths or glob patterns); empty: Node's default patterns. */
  testPatterns: string[];
  testNamePatterns: string[];
  testOnly: boolean;
  /** --test-timeout, ms per test. */
  testTimeoutMs?: number;
  /** --max-old-space-size, MB. */
  maxOldSpaceMb?: number;
  envFiles: string[];
  noWarnings: boolean;
  conditions: string[];
}

export class NodeCliError extends Error {
  /** Node exits 9 for a bad option. */
  readonly exitCode = 9;
}

const IGNORED_PREFIXES = [
  '--experimental-',
  '--no-experimental-',
  '--enable-source-maps',
  '--trace-',
  '--no-deprecation',
  '--throw-deprecation',
  '--pending-deprecation',
  '--preserve-symlinks',
  '--unhandled-rejections',
  '--abort-on-uncaught-exception',
  '--disable-warning',
  '--frozen-intrinsics',
  '--no-addons',
  '--title',
  '--heapsnapshot',
  '--stack-size',
  '--max-semi-space-size',
  '--report',
  '--redirect-warnings',
  '--icu-data-dir',
  '--openssl',
  '--use-',
  '--tls-',
  '--dns-result-order',
  '--network-family',
  '--no-network-family',
];
const REFUSED: Record<string, string> = {
  '--inspect': 'the inspector is not available in the browser sandbox',
  '--inspect-brk': 'the inspector is not available in the browser sandbox',
  '--inspect-wait': 'the inspector is not available in the browser sandbox',
  '--watch': 'watch mode is not available; run the command again after a change',
  '--watch-path': 'watch mode is not available; run the command again after a change',
  '--cpu-prof': 'profiling is not available in the browser sandbox',
  '--heap-prof': 'profiling is not available in the browser sandbox',
  '--prof': 'profiling is not available in the browser sandbox',
  '--interactive': 'the REPL is not available; run a script or use -e',
  '-i': 'the REPL is not available; run a script or use -e',
  '--run': 'use `npm run <script>` instead',
};
/** Options that take a value (as the next word or after `=`). */
const WITH_VALUE = new Set([
  '-e',
  '--eval',
  '-p',
  '--print',
  '-r',
  '--require',
  '--import',
  '--input-type',
  '--test-name-pattern',
  '--max-old-space-size',
  '--env-file',
  '--env-file-if-exists',
  '--conditions',
  '-C',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-concurrency',
  '--test-timeout',
  '--title',
  '--stack-size',
  '--unhandled-rejections',
  '--disable-warning',
  '--loader',
  '--experimental-loader',
]);

export function parseNodeArgs(args: string[]): NodePlan {
  const plan: NodePlan = {
    mode: 'stdin',
    scriptArgs: [],
    execArgv: [],
    requires: [],
    imports: [],
    testPatterns: [],
    testNamePatterns: [],
    testOnly: false,
    envFiles: [],
    noWarnings: false,
    conditions: [],
  };
  let test = false;
  let check = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    let value: string | undefined = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (WITH_VALUE.has(name) && value === undefined) {
      if (i + 1 >= args.length) throw new NodeCliError(`node: ${name} requires an argument`);
      value = args[++i];
      plan.execArgv.push(arg, value);
    } else plan.execArgv.push(arg);
    const refused = REFUSED[name];
    if (refused) throw new NodeCliError(`node: ${name} is not supported in tabcode: ${refused}.`);
    switch (name) {
      case '-v':
      case '--version':
        plan.mode = 'version';
        return plan;
      case '-h':
      case '--help':
        plan.mode = 'help';
        return plan;
      case '-e':
      case '--eval':
        plan.mode = 'eval';
        plan.code = value;
        break;
      case '-p':
      case '--print':
        plan.mode = 'print';
        plan.code = value;
        break;
      case '-pe':
      case '-ep':
        throw new NodeCliError(`node: use -p "<code>" to print a value`);
      case '-c':
      case '--check':
        check = true;
        break;
      case '-r':
      case '--require':
        plan.requires.push(value as string);
        break;
      case '--import':
        plan.imports.push(value as string);
        break;
      case '--input-type':
        if (value !== 'module' && value !== 'commonjs') {
          throw new NodeCliError(`node: --input-type must be "module" or "commonjs"`);
        }
        plan.inputType = value;
        break;
      case '--test':
        test = true;
        break;
      case '--test-only':
        plan.testOnly = true;
        break;
      case '--test-name-pattern':
        plan.testNamePatterns.push(value as string);
        break;
      case '--test-timeout': {
        const ms = Number(value);
        if (!Number.isFinite(ms) || ms < 0) throw new NodeCliError(`node: invalid --test-timeout: ${value}`);
        plan.testTimeoutMs = ms;
        break;
      }
      case '--max-old-space-size': {
        const mb = Number(value);
        if (!Number.isFinite(mb) || mb <= 0)
          throw new NodeCliError(`node: invalid --max-old-space-size: ${value}`);
        plan.maxOldSpaceMb = mb;
        break;
      }
      case '--env-file':
      case '--env-file-if-exists':
        plan.envFiles.push(value as string);
        break;
      case '--no-warnings':
        plan.noWarnings = true;
        break;
      case '--conditions':
      case '-C':
        plan.conditions.push(value as string);
        break;
      default:
        if (WITH_VALUE.has(name)) break;
        if (IGNORED_PREFIXES.some((p) => name.startsWith(p))) break;
        if (name.startsWith('--test-')) break;
        throw new NodeCliError(`node: bad option: ${arg}`);
    }
  }
  const rest = args.slice(i);
  if (test) {
    plan.mode = 'test';
    plan.testPatterns = rest;
    return plan;
  }
  if (plan.mode === 'eval' || plan.mode === 'print') {
    plan.scriptArgs = rest;
    return plan;
  }
  if (rest.length > 0 && rest[0] !== '-') {
    plan.script = rest[0];
    plan.scriptArgs = rest.slice(1);
    plan.mode = check ? 'check' : 'script';
  } else {
    plan.scriptArgs = rest.slice(1);
    plan.mode = 'stdin';
  }
  return plan;
}

/** The files `node --test` runs when given no file arguments (Node 22's default patterns). */
export function isDefaultTestFile(relPath: string): boolean {
  if (relPath.split('/').includes('node_modules')) return false;
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  const ext = /\.(c|m)?(j|t)s$/.exec(base);
  if (!ext) return false;
  const stem = base.slice(0, base.length - ext[0].length);
  if (
    stem === 'test' ||
    stem.startsWith('test-') ||
    stem.endsWith('.test') ||
    stem.endsWith('-test') ||
    stem.endsWith('_test')
  ) {
    return true;
  }
  return relPath.split('/').slice(0, -1).includes('test');
}

export const NODE_HELP = `Usage: node [options] [ script.js ] [arguments]
       node --test [options] [files]

Options:
  -e, --eval "script"         evaluate script
  -p, --print "script"        evaluate script and print the result
  -c, --check                 syntax check script without executing
  -r, --require module        module to preload (CommonJS)
  --import module             module to preload (ES module)
  --input-type=module         treat -e / stdin code as an ES module
  --test                      run tests (node:test) in the given files or the default test files
  --test-name-pattern=re      run only tests whose name matches
  --env-file=path             load environment variables from a file
  --max-old-space-size=MB     heap limit of the program
  -v, --version               print Node.js version
  -h, --help                  print this help

tabcode runs Node.js programs on QuickJS in a worker: ES2023, CommonJS and ES modules, TypeScript
with types stripped, and the core built-ins (fs, path, events, util, assert, crypto hashes, timers,
child_process.exec...). There is no network, no native addons, and no http/net servers.
`;
