/**
 * Tarballs for the local registry, made by `npm pack` of real package folders (offline).
 *
 * Packing costs about half a second for all fixtures, so results are kept in the system temp folder
 * under a hash of every packed file (and the npm version): a second test file, or a second run with
 * unchanged fixtures, reuses them. A folder is written under a unique name and renamed into place, so
 * test files packing at the same time never see a half-written folder.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The fixture package folders (each a small real package). */
export const FIXTURES_DIR = resolve(import.meta.dirname, 'fixtures');

/** One packed package version, as the registry serves it. */
export interface PackedPackage {
  name: string;
  version: string;
  /** The package.json of the folder, as published. */
  manifest: Record<string, unknown>;
  /** The .tgz bytes. */
  tarball: Uint8Array;
  /** `sha512-…` of the tarball (what npm pack reports). */
  integrity: string;
  /** Hex sha1 of the tarball. */
  shasum: string;
}

interface PackJsonEntry {
  name: string;
  version: string;
  filename: string;
  integrity: string;
  shasum: string;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else out.push(path);
  }
  return out.sort();
}

let npmVersion: Promise<string> | undefined;

async function contentHash(dirs: string[]): Promise<string> {
  const hash = createHash('sha256');
  npmVersion ??= run('npm', ['--version']).then((r) => r.stdout.trim());
  hash.update(`npm ${await npmVersion}\n`);
  for (const [index, dir] of dirs.entries()) {
    for (const file of await listFiles(dir)) {
      hash.update(`${index}\0${relative(dir, file)}\0`);
      hash.update(await readFile(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Packs each folder with one `npm pack <dir>… --pack-destination` (scripts ignored, offline) and returns
 * the packages in the order given. Throws with npm's stderr when packing fails.
 */
export async function packFolders(dirs: string[]): Promise<PackedPackage[]> {
  const abs = dirs.map((d) => resolve(d));
  const key = await contentHash(abs);
  const final = join(tmpdir(), `tabcode-npm-pack-${key}`);
  if (!existsSync(join(final, 'index.json'))) {
    const staging = `${final}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await mkdir(staging, { recursive: true });
    try {
      const { stdout } = await run(
        'npm',
        ['pack', ...abs, '--pack-destination', staging, '--json', '--ignore-scripts', '--offline'],
        {
          cwd: staging,
          env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      await writeFile(join(staging, 'index.json'), stdout);
      await rename(staging, final).catch(async () => {
        // Another process packed the same content first: use its folder.
        await rm(staging, { recursive: true, force: true });
      });
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      const stderr = (err as { stderr?: string }).stderr;
      throw new Error(`npm pack failed: ${stderr || (err as Error).message}`);
    }
  }
  const entries = JSON.parse(await readFile(join(final, 'index.json'), 'utf8')) as PackJsonEntry[];
  return Promise.all(
    entries.map(async (entry, i) => ({
      name: entry.name,
      version: entry.version,
      manifest: JSON.parse(await readFile(join(abs[i], 'package.json'), 'utf8')),
      tarball: new Uint8Array(await readFile(join(final, entry.filename))),
      integrity: entry.integrity,
      shasum: entry.shasum,
    })),
  );
}

/** Packs every folder of e2e/registry/fixtures. */
export async function packFixtures(): Promise<PackedPackage[]> {
  const names = (await readdir(FIXTURES_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return packFolders(names.map((n) => join(FIXTURES_DIR, n)));
}
