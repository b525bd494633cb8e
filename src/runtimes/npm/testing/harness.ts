/**
 * Test support: a real just-bash shell with `npm` and `npx` registered as custom commands (through
 * just-bash-host.ts, as the sandbox wires them), a test-only `node` that prints its argv, the loopback
 * registry with the packed fixtures, and byte-level snapshots of a folder.
 */
import { Bash, defineCommand } from 'just-bash';
import { type PackedPackage, packFixtures } from '../../../../e2e/registry/pack.ts';
import { type LocalRegistry, startRegistry } from '../../../../e2e/registry/server.ts';
import type { PackumentCache, TarballCache } from '../host.ts';
import { npmCommandHandlers } from '../just-bash-host.ts';

export const PROJECT = '/home/user/project';

let packed: Promise<PackedPackage[]> | undefined;
/** The fixtures, packed once per test file (and reused across files while unchanged). */
export function fixturePackages(): Promise<PackedPackage[]> {
  packed ??= packFixtures();
  return packed;
}

export async function startFixtureRegistry(): Promise<LocalRegistry> {
  const registry = await startRegistry({ packages: await fixturePackages() });
  // A prerelease published under `next`, as npm publish --tag next would.
  registry.setDistTag('tiny-math', 'next', '2.1.0-beta.1');
  return registry;
}

export interface ShellOptions {
  /** Sets npm_config_registry (the tests' usual way to point npm at the loopback registry). */
  registry?: string;
  files?: Record<string, string>;
  cache?: TarballCache;
  packuments?: PackumentCache;
  /** Default: the global fetch. `null`: none (offline). */
  fetch?: typeof fetch | null;
  env?: Record<string, string>;
}

/** A test-only `node`: prints its arguments and cwd (the real one is the sandbox's QuickJS runtime). */
const fakeNode = defineCommand('node', async (args, ctx) => ({
  stdout: `node ${JSON.stringify(args)} cwd=${ctx.cwd}\n`,
  stderr: '',
  exitCode: 0,
}));

export function makeShell(options: ShellOptions = {}): Bash {
  const handlers = npmCommandHandlers({
    fetch: options.fetch,
    cache: options.cache,
    packuments: options.packuments,
  });
  const files: Record<string, string> = {};
  for (const [path, content] of Object.entries(options.files ?? {})) {
    files[path.startsWith('/') ? path : `${PROJECT}/${path}`] = content;
  }
  if (!Object.keys(files).some((p) => p.startsWith(`${PROJECT}/`))) files[`${PROJECT}/.keep`] = '';
  return new Bash({
    cwd: PROJECT,
    files: { '/tmp/.keep': '', ...files },
    env: {
      HOME: '/home/user',
      ...(options.registry ? { npm_config_registry: options.registry } : {}),
      ...options.env,
    },
    customCommands: [defineCommand('npm', handlers.npm), defineCommand('npx', handlers.npx), fakeNode],
  });
}

/** A package.json text. */
export function pkgJson(data: Record<string, unknown>): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Every path under `dir` with its kind, mode and bytes (base64): equal snapshots mean an identical tree. */
export async function snapshot(bash: Bash, dir = PROJECT): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of bash.fs.getAllPaths().sort()) {
    if (path !== dir && !path.startsWith(`${dir}/`)) continue;
    const st = await bash.fs.lstat(path);
    if (st.isSymbolicLink) out[path] = `link ${await bash.fs.readlink(path)}`;
    else if (st.isDirectory) out[path] = `dir ${st.mode.toString(8)}`;
    else {
      const bytes = await bash.fs.readFileBuffer(path);
      out[path] = `file ${st.mode.toString(8)} ${Buffer.from(bytes).toString('base64')}`;
    }
  }
  return out;
}

/** Reads and parses a JSON file of the shell's file system. */
// biome-ignore lint/suspicious/noExplicitAny: tests read nested fields of package.json and lock files.
export async function readJson(bash: Bash, path: string): Promise<Record<string, any>> {
  return JSON.parse(await bash.fs.readFile(path.startsWith('/') ? path : `${PROJECT}/${path}`));
}
