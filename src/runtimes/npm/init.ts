/**
 * `npm init`: writes npm's default package.json (`-y` answers; there is no prompt in the sandbox, so
 * `npm init` alone does the same). Fields an existing package.json has are kept.
 */
import type { NpmHost } from './host.ts';
import { basename } from './paths.ts';
import { formatPackageJson, readPackageJson } from './project.ts';

/** npm's rules for a name made from a folder: lower case, URL-safe, no leading dot or underscore. */
export function nameFromFolder(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9._~-]/g, '')
    .replace(/^[._]+/, '');
  return name || 'project';
}

export async function runInit(host: NpmHost, root: string): Promise<number> {
  const existing = await readPackageJson(host.fs, root, false);
  const defaults: Record<string, unknown> = {
    name: nameFromFolder(basename(root)),
    version: '1.0.0',
    description: '',
    main: 'index.js',
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: '',
    license: 'ISC',
    type: 'commonjs',
  };
  const data = { ...defaults, ...existing.data };
  const text = formatPackageJson(data, existing.text);
  await host.fs.mkdir(root, { recursive: true });
  await host.fs.writeFile(existing.path, text);
  host.stdout(`Wrote to ${existing.path}:\n\n${text}\n\n`);
  return 0;
}
