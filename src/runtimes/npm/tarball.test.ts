/**
 * The tarball reader on real archives: every fixture as `npm pack` made it (ustar, long paths in the
 * prefix field, executable bins), and archives written by the system's tar in pax and GNU formats.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../e2e/registry/pack.ts';
import { makeTarball } from '../../../e2e/registry/tarballs.ts';
import { checkIntegrity, digestWithoutSubtle, sha512Integrity } from './integrity.ts';
import { unpackTarball } from './tarball.ts';
import { fixturePackages } from './testing/harness.ts';

const run = promisify(execFile);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

describe('unpackTarball', () => {
  it('unpacks every npm-packed fixture to exactly its folder', async () => {
    const packages = await fixturePackages();
    const folders = await readdir(FIXTURES_DIR);
    expect(packages).toHaveLength(folders.length);
    for (const pkg of packages) {
      const folder = folders.find((f) => f === `${pkg.name.replace(/^@[^/]+\//, '')}-${pkg.version}`)!;
      const dir = join(FIXTURES_DIR, folder);
      const unpacked = await unpackTarball(pkg.tarball, `${pkg.name}@${pkg.version}`);
      const expected = await filesUnder(dir);
      expect([...unpacked.files.keys()].sort(), folder).toEqual(expected.map((f) => relative(dir, f)).sort());
      for (const file of expected) {
        expect(Buffer.from(unpacked.files.get(relative(dir, file))!.data)).toEqual(await readFile(file));
      }
    }
  });

  it('keeps the execute bit of archived files', async () => {
    const unpacked = await unpackTarball(
      makeTarball([
        { name: 'package/run.sh', data: 'echo', mode: 0o755 },
        { name: 'package/package.json', data: '{}', mode: 0o644 },
      ]),
      'x@1.0.0',
    );
    expect(unpacked.files.get('run.sh')?.executable).toBe(true);
    expect(unpacked.files.get('package.json')?.executable).toBe(false);
  });

  it.each(['pax', 'gnu'])(
    'reads %s archives from the system tar (long and non-ASCII names)',
    async (format) => {
      const tmp = await mkdtemp(join(tmpdir(), 'tabcode-tar-'));
      try {
        const long = `${'deep-folder-name/'.repeat(9)}file-é-ünïcode.js`;
        await mkdir(join(tmp, 'package', long, '..'), { recursive: true });
        await writeFile(join(tmp, 'package', long), 'long');
        await writeFile(join(tmp, 'package', 'package.json'), '{"name":"x","version":"1.0.0"}');
        await run('tar', [`--format=${format}`, '-czf', 'x.tgz', 'package'], { cwd: tmp });
        const unpacked = await unpackTarball(new Uint8Array(await readFile(join(tmp, 'x.tgz'))), 'x@1.0.0');
        expect(new TextDecoder().decode(unpacked.files.get(long)?.data)).toBe('long');
        expect(unpacked.files.has('package.json')).toBe(true);
      } finally {
        await rm(tmp, { recursive: true, force: true });
      }
    },
  );

  it('strips whatever the top folder is called, and skips links that stay inside', async () => {
    const unpacked = await unpackTarball(
      makeTarball([
        { name: 'node-old/index.js', data: 'a' },
        { name: 'node-old/./lib//b.js', data: 'b' },
        { name: 'node-old/lib', type: 'dir' },
        { name: 'node-old/link', type: 'symlink', linkname: 'lib/b.js' },
      ]),
      'old@1.0.0',
    );
    expect([...unpacked.files.keys()]).toEqual(['index.js', 'lib/b.js']);
    expect([...unpacked.dirs]).toEqual(['lib']);
  });

  it('refuses a bad header checksum and truncated data', async () => {
    const good = makeTarball([{ name: 'package/a.js', data: 'x'.repeat(2000) }]);
    const { gunzipSync, gzipSync } = await import('node:zlib');
    const tar = gunzipSync(good);
    const badSum = Buffer.from(tar);
    badSum[0] ^= 1;
    await expect(unpackTarball(new Uint8Array(gzipSync(badSum)), 'a@1')).rejects.toThrow(
      /bad tar header checksum/,
    );
    await expect(unpackTarball(new Uint8Array(gzipSync(tar.subarray(0, 1024))), 'a@1')).rejects.toThrow(
      /ends in the middle of a file/,
    );
  });
});

describe('integrity', () => {
  it("checks sha512 SRI strings (npm pack's) and legacy sha1 shasums", async () => {
    const pkg = (await fixturePackages())[0];
    expect(await sha512Integrity(pkg.tarball)).toBe(pkg.integrity);
    expect((await checkIntegrity(pkg.tarball, pkg.integrity, undefined)).ok).toBe(true);
    expect((await checkIntegrity(pkg.tarball, undefined, pkg.shasum)).ok).toBe(true);
    const other = new Uint8Array(pkg.tarball);
    other[10] ^= 1;
    const bad = await checkIntegrity(other, pkg.integrity, pkg.shasum);
    expect(bad.ok).toBe(false);
    expect(bad.algorithm).toBe('sha512');
    expect(bad.got).not.toBe(pkg.integrity);
    expect((await checkIntegrity(other, undefined, pkg.shasum)).ok).toBe(false);
    // Several hashes: the strongest algorithm decides.
    expect((await checkIntegrity(pkg.tarball, `sha1-AAAA ${pkg.integrity}`, undefined)).ok).toBe(true);
  });

  it('gives the same digests without SubtleCrypto (pages that are not a secure context)', async () => {
    const bytes = (await fixturePackages())[0].tarball;
    for (const algorithm of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) {
      const subtle = new Uint8Array(await crypto.subtle.digest(algorithm, bytes as Uint8Array<ArrayBuffer>));
      expect(await digestWithoutSubtle(algorithm, bytes), algorithm).toEqual(subtle);
    }
  });
});
