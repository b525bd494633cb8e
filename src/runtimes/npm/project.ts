/** The project npm works on: its folder (npm's "prefix") and its package.json. */
import { NpmError } from './errors.ts';
import type { NpmFs } from './host.ts';
import { ancestors, join, resolve } from './paths.ts';

export interface PackageJson {
  /** The parsed document. */
  data: Record<string, unknown>;
  /** The text as read (undefined when there is no file), to restore and to keep its formatting. */
  text: string | undefined;
  path: string;
}

/**
 * npm's local prefix: `--prefix` when given, else the nearest folder from `cwd` up that has a
 * package.json or a node_modules folder, else `cwd` itself.
 */
export async function findProjectRoot(fs: NpmFs, cwd: string, prefix: string | undefined): Promise<string> {
  if (prefix) return resolve(cwd, prefix);
  for (const dir of ancestors(cwd)) {
    if (await fs.exists(join(dir, 'package.json'))) return dir;
    if (dir !== '/' && (await fs.exists(join(dir, 'node_modules')))) return dir;
  }
  return cwd;
}

function missing(path: string): NpmError {
  return new NpmError('ENOENT', [
    'code ENOENT',
    'syscall open',
    `path ${path}`,
    'errno -2',
    `enoent Could not read package.json: Error: ENOENT: no such file or directory, open '${path}'`,
    'enoent This is related to npm not being able to find a file.',
    'enoent',
  ]);
}

/**
 * Reads `<dir>/package.json`. With `required`, a missing file is npm's ENOENT error; otherwise an empty
 * document. Invalid JSON is always an EJSONPARSE error.
 */
export async function readPackageJson(fs: NpmFs, dir: string, required: boolean): Promise<PackageJson> {
  const path = join(dir, 'package.json');
  let text: string | undefined;
  try {
    text = await fs.readFile(path);
  } catch {
    if (required) throw missing(path);
    return { data: {}, text: undefined, path };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new NpmError('EJSONPARSE', [
      'code EJSONPARSE',
      `path ${path}`,
      `JSON.parse Invalid package.json: JSONParseError: ${(err as Error).message}`,
      'JSON.parse Failed to parse JSON data.',
      'JSON.parse Note: package.json must be actual JSON, not just JavaScript.',
    ]);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new NpmError('EJSONPARSE', [
      'code EJSONPARSE',
      `path ${path}`,
      'package.json must hold a JSON object.',
    ]);
  }
  return { data: data as Record<string, unknown>, text, path };
}

/** Serializes package.json keeping the file's indentation and line endings (npm does the same). */
export function formatPackageJson(data: Record<string, unknown>, previous: string | undefined): string {
  const indent = previous ? (/^[ \t]+(?=")/m.exec(previous)?.[0] ?? '  ') : '  ';
  const eol = previous?.includes('\r\n') ? '\r\n' : '\n';
  const text = `${JSON.stringify(data, null, indent)}\n`;
  return eol === '\n' ? text : text.replace(/\n/g, eol);
}

/** `name@version` as npm shows a package (`name` alone without a version; '' without a name). */
export function packageId(data: Record<string, unknown>): string {
  const name = typeof data.name === 'string' ? data.name : '';
  const version = typeof data.version === 'string' ? data.version : '';
  return name && version ? `${name}@${version}` : name;
}
