/**
 * The Files panel's operations on a real just-bash sandbox: names checked, the tree with empty folders,
 * uploads with their limits (a file over the size limit refused with its size), and the project zip
 * read back with jszip.
 */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../sandbox/just-bash.ts';
import {
  listTree,
  MAX_UPLOAD_FILE_BYTES,
  nameProblem,
  pathProblem,
  uploadEntries,
  visibleName,
  zipProject,
} from './file-ops.ts';

describe('names', () => {
  it('refuses empty, dot, slash and control-character names; HTML is just text', () => {
    expect(nameProblem('ok.txt')).toBeNull();
    expect(nameProblem('<img src=x onerror=alert(1)>.txt')).toBeNull();
    expect(nameProblem('')).toMatch(/empty/);
    expect(nameProblem('..')).toMatch(/cannot be a name/);
    expect(nameProblem('a\u0007b')).toBe('"a\\x07b" has a control character; names cannot.');
    expect(nameProblem('x'.repeat(256))).toMatch(/at most 255 bytes/);
    expect(pathProblem('src/lib/util.js')).toBeNull();
    expect(pathProblem('src/\nx')).toMatch(/control character/);
    expect(pathProblem('/')).toBe('Give a name.');
    expect(visibleName('tab\there')).toBe('tab\\x09here');
  });
});

describe('the workspace', () => {
  it('lists files and folders (empty ones too), leaving node_modules out', async () => {
    const sandbox = await createJustBashSandbox({
      files: { 'a.txt': 'a', 'src/b.js': 'b', 'node_modules/x/i.js': 'x' },
    });
    await sandbox.mkdir(`${sandbox.root}/empty/inner`, { recursive: true });
    expect(await listTree(sandbox)).toEqual({
      files: ['a.txt', 'src/b.js'],
      dirs: ['empty', 'empty/inner', 'src'],
    });
    await sandbox.dispose();
  });

  it('uploads files into a folder, refusing what is too large or badly named, one by one', async () => {
    const sandbox = await createJustBashSandbox({ files: {} });
    // A 50 MB upload (the case): refused with its size, the other files still written.
    const big = new File([new Uint8Array(50 * 1024 * 1024)], 'big.bin');
    expect(big.size).toBeGreaterThan(MAX_UPLOAD_FILE_BYTES);
    const outcome = await uploadEntries(sandbox, 'up', [
      { path: 'one.txt', file: new File(['one\n'], 'one.txt') },
      { path: 'deep/two.bin', file: new File([new Uint8Array([0, 1, 2])], 'two.bin') },
      { path: 'big.bin', file: big },
      { path: 'bad\u0001.txt', file: new File(['x'], 'bad.txt') },
    ]);
    expect(outcome.written).toEqual(['up/one.txt', 'up/deep/two.bin']);
    expect(outcome.refused.map((r) => [r.path, r.reason])).toEqual([
      ['big.bin', 'it is 50.0 MB; files up to 20.0 MB can be uploaded'],
      ['bad\u0001.txt', '"bad\\x01.txt" has a control character; names cannot.'],
    ]);
    expect(await sandbox.readFile(`${sandbox.root}/up/one.txt`)).toBe('one\n');
    expect([...(await sandbox.readFileBytes(`${sandbox.root}/up/deep/two.bin`))]).toEqual([0, 1, 2]);
    await sandbox.dispose();
  });

  it('zips the project: every file under its path, empty folders kept, bytes intact', async () => {
    const files: Record<string, string> = { 'README.md': '# hi\n' };
    for (let i = 0; i < 300; i++) files[`many/f${i}.txt`] = `${i}\n`;
    const sandbox = await createJustBashSandbox({ files });
    await sandbox.mkdir(`${sandbox.root}/empty`);
    const progress: number[] = [];
    const blob = await zipProject(sandbox, (done) => progress.push(done));
    const zip = await JSZip.loadAsync(await blob.arrayBuffer());
    const names = Object.keys(zip.files);
    expect(names).toContain('empty/');
    expect(names.filter((n) => !n.endsWith('/'))).toHaveLength(301);
    expect(await zip.file('many/f299.txt')?.async('string')).toBe('299\n');
    expect(progress.at(-1)).toBe(301);
    await sandbox.dispose();
  });
});
