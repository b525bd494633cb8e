import { gunzipSync, gzipSync } from 'node:zlib';
import { Bash, InMemoryFs } from 'just-bash/browser';
import { describe, expect, it } from 'vitest';
import { gzipCommands } from './gzip-commands.ts';

/** A real just-bash shell with our gzip, gunzip and zcat in place of its own. */
function shell(files: Record<string, string | Uint8Array> = {}) {
  const fs = new InMemoryFs(files);
  return { fs, bash: new Bash({ fs, cwd: '/w', customCommands: gzipCommands() }) };
}

const big = `${Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n')}\n`;

describe('gzip commands on CompressionStream', () => {
  it('round-trips text and binary through pipes', async () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 256);
    const { bash } = shell({ '/w/big.txt': big, '/w/b.bin': bytes });
    expect((await bash.exec('echo hi | gzip | gunzip')).stdout).toBe('hi\n');
    expect((await bash.exec('gzip -c big.txt | zcat | tail -n 1')).stdout).toBe('line 19999\n');
    const r = await bash.exec('gzip -c b.bin | gzip -dc | sha256sum; sha256sum < b.bin');
    const [a, b] = r.stdout.trim().split('\n');
    expect(a.slice(0, 64)).toBe(b.slice(0, 64));
  });

  it('writes what Node zlib reads, and reads what Node zlib wrote', async () => {
    const { bash, fs } = shell({ '/w/a.txt': 'alpha\n', '/w/z.gz': gzipSync('from zlib\n') });
    expect(await bash.exec('gzip a.txt && ls')).toMatchObject({ stdout: 'a.txt.gz\nz.gz\n', exitCode: 0 });
    expect(gunzipSync(await fs.readFileBuffer('/w/a.txt.gz')).toString()).toBe('alpha\n');
    expect((await bash.exec('zcat z.gz')).stdout).toBe('from zlib\n');
    expect(await bash.exec('gunzip z.gz && cat z && ls')).toMatchObject({
      stdout: 'from zlib\na.txt.gz\nz\n',
    });
  });

  it('keeps, tests, and refuses to overwrite', async () => {
    const { bash } = shell({ '/w/k.csv': 'a,b\n', '/w/k.csv.gz': 'old' });
    const clash = await bash.exec('gzip -k k.csv');
    expect(clash.exitCode).toBe(1);
    expect(clash.stderr).toBe('gzip: /w/k.csv.gz already exists; use -f to overwrite\n');
    expect(await bash.exec('gzip -kf k.csv && ls && gzip -t k.csv.gz && echo ok')).toMatchObject({
      stdout: 'k.csv\nk.csv.gz\nok\n',
      exitCode: 0,
    });
  });

  it('says clearly what is wrong', async () => {
    const { bash } = shell({ '/w/plain.txt': 'not compressed at all, really\n', '/w/d/x': '' });
    expect(await bash.exec('gunzip -c plain.txt')).toMatchObject({
      stderr: 'gunzip: plain.txt: not in gzip format\n',
      exitCode: 1,
    });
    expect((await bash.exec('echo nope | gunzip')).stderr).toBe('gunzip: stdin: not in gzip format\n');
    expect((await bash.exec('gzip missing.txt')).stderr).toBe(
      'gzip: missing.txt: No such file or directory\n',
    );
    expect((await bash.exec('gzip d')).stderr).toBe('gzip: d is a directory -- ignored\n');
    expect((await bash.exec('gzip -x a')).stderr).toMatch(/^gzip: invalid option -- 'x' \(supported: /);
    expect((await bash.exec('gzip -l a.gz')).stderr).toMatch(
      /--list is not supported.*gzip -dc FILE \| wc -c/,
    );
    const damaged = gzipSync(big).subarray(0, 200);
    const { bash: b2 } = shell({ '/w/cut.gz': damaged });
    expect(await b2.exec('gunzip -c cut.gz')).toMatchObject({ exitCode: 1 });
  });
});
