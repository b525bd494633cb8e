import { afterEach, describe, expect, it } from 'vitest';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import {
  checkWritable,
  decodeText,
  describeMissingFile,
  FILE_MODIFIED_ERROR,
  FILE_NOT_READ_ERROR,
  hashContent,
  readSnapshot,
  recordRead,
  resolveFilePath,
  snapshotHash,
} from './file-state.ts';

const ROOT = '/home/user/project';
let sandbox: Sandbox | undefined;

async function setup(files: Record<string, string | Uint8Array>, cwd?: string): Promise<ToolUseContext> {
  sandbox = await createJustBashSandbox({ files });
  return createToolUseContext({ sandbox, ...(cwd ? { options: { cwd } } : {}) });
}

afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads the file the way Read does and records it. */
async function readAndRecord(ctx: ToolUseContext, abs: string, partial = false): Promise<void> {
  const snap = await readSnapshot(ctx, abs);
  if (snap.kind !== 'file') throw new Error(`not a file: ${abs}`);
  await recordRead(ctx, abs, snap.content, snap.mtimeMs, partial);
}

describe('hashContent', () => {
  it('is stable for equal strings and differs for small changes', async () => {
    const text = 'export const a = 1;\n'.repeat(100);
    expect(await hashContent(text)).toBe(await hashContent(`${text}`));
    expect(await hashContent(text)).not.toBe(await hashContent(text.replace('a = 1', 'a = 2')));
    expect(await hashContent('ab')).not.toBe(await hashContent('ba'));
    expect(await hashContent('')).not.toBe(await hashContent('\n'));
    // SHA-256 (Web Crypto) and the length.
    expect(await hashContent('x')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881:1');
  });
});

describe('resolveFilePath', () => {
  it('resolves relative paths against the cwd and refuses paths outside the workspace', async () => {
    const ctx = await setup({}, `${ROOT}/src`);
    expect(resolveFilePath(ctx, 'a.ts')).toEqual({ ok: true, path: `${ROOT}/src/a.ts` });
    expect(resolveFilePath(ctx, `${ROOT}/b.ts`)).toEqual({ ok: true, path: `${ROOT}/b.ts` });
    expect(resolveFilePath(ctx, '../c.ts')).toEqual({ ok: true, path: `${ROOT}/c.ts` });
    const outside = resolveFilePath(ctx, '../../../etc/passwd');
    expect(outside.ok).toBe(false);
    if (!outside.ok) expect(outside.error).toContain('outside the workspace');
    expect(resolveFilePath(ctx, '').ok).toBe(false);
  });
});

describe('readSnapshot', () => {
  it('tells files, directories, missing paths and binary or non-UTF-8 content apart', async () => {
    const ctx = await setup({
      'a.txt': '\uFEFFhello\n',
      'bin.dat': new Uint8Array([0x41, 0x00, 0x42]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      'dir/x.txt': 'x',
    });
    const a = await readSnapshot(ctx, `${ROOT}/a.txt`);
    expect(a).toMatchObject({ kind: 'file', content: '\uFEFFhello\n', binary: false, validUtf8: true });
    expect(await readSnapshot(ctx, `${ROOT}/dir`)).toEqual({ kind: 'directory' });
    expect(await readSnapshot(ctx, `${ROOT}/nope.txt`)).toEqual({ kind: 'missing' });
    expect(await readSnapshot(ctx, `${ROOT}/bin.dat`)).toMatchObject({ kind: 'file', binary: true, size: 3 });
    expect(await readSnapshot(ctx, `${ROOT}/latin1.txt`)).toMatchObject({ kind: 'file', validUtf8: false });
  });

  it('hashes a file as its content would be hashed: from the bytes when they are valid UTF-8, else from the decoded text', async () => {
    const texts = ['\uFEFFhello\n', 'café ✓ \u{1F600}\r\nend', '', 'x'.repeat(70_000)];
    const files: Record<string, string | Uint8Array> = Object.fromEntries(
      texts.map((t, i) => [`t${i}.txt`, t]),
    );
    files['latin1.txt'] = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    files['cut.txt'] = new Uint8Array([0xf0, 0x9f, 0x98]);
    const ctx = await setup(files);
    for (let i = 0; i < texts.length; i++) {
      const snap = await readSnapshot(ctx, `${ROOT}/t${i}.txt`);
      if (snap.kind !== 'file') throw new Error('not a file');
      expect(await snapshotHash(snap)).toBe(await hashContent(texts[i]));
    }
    for (const name of ['latin1.txt', 'cut.txt']) {
      const snap = await readSnapshot(ctx, `${ROOT}/${name}`);
      if (snap.kind !== 'file') throw new Error('not a file');
      expect(snap.validUtf8).toBe(false);
      expect(await snapshotHash(snap)).toBe(await hashContent(snap.content));
    }
  });

  it('decodes UTF-8 keeping a BOM', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({
      content: '\uFEFFa',
      validUtf8: true,
    });
    expect(decodeText(new Uint8Array([0xff])).validUtf8).toBe(false);
  });
});

describe('recordRead / checkWritable', () => {
  it('lets a missing file be created', async () => {
    const ctx = await setup({});
    expect(await checkWritable(ctx, `${ROOT}/new/file.ts`)).toBeNull();
  });

  it('refuses an existing file that was never read', async () => {
    const ctx = await setup({ 'a.ts': 'let a = 1;\n' });
    expect(await checkWritable(ctx, `${ROOT}/a.ts`)).toBe(FILE_NOT_READ_ERROR);
  });

  it('allows a file read in this session and unchanged, and records its hash and mtime', async () => {
    const ctx = await setup({ 'a.ts': 'let a = 1;\n' });
    await readAndRecord(ctx, `${ROOT}/a.ts`, true);
    const record = ctx.readFileState.get(`${ROOT}/a.ts`);
    const st = await ctx.sandbox.stat(`${ROOT}/a.ts`);
    expect(record).toMatchObject({
      contentHash: await hashContent('let a = 1;\n'),
      mtimeMs: st.mtimeMs,
      partial: true,
    });
    expect(await checkWritable(ctx, `${ROOT}/a.ts`)).toBeNull();
  });

  it('tolerates a touch (new mtime, same content)', async () => {
    const ctx = await setup({ 'a.ts': 'let a = 1;\n' });
    await readAndRecord(ctx, `${ROOT}/a.ts`);
    const before = (await ctx.sandbox.stat(`${ROOT}/a.ts`)).mtimeMs;
    await sleep(5);
    const touched = await ctx.sandbox.exec('touch a.ts');
    expect(touched.exitCode).toBe(0);
    expect((await ctx.sandbox.stat(`${ROOT}/a.ts`)).mtimeMs).toBeGreaterThan(before);
    expect(await checkWritable(ctx, `${ROOT}/a.ts`)).toBeNull();
  });

  it('refuses a file whose content changed since it was read (via writeFile or exec)', async () => {
    const ctx = await setup({ 'a.ts': 'let a = 1;\n', 'b.ts': 'let b = 1;\n' });
    await readAndRecord(ctx, `${ROOT}/a.ts`);
    await readAndRecord(ctx, `${ROOT}/b.ts`);
    // No sleep: a change within the same millisecond must still be noticed.
    await ctx.sandbox.writeFile(`${ROOT}/a.ts`, 'let a = 2;\n');
    expect(await checkWritable(ctx, `${ROOT}/a.ts`)).toBe(FILE_MODIFIED_ERROR);
    await ctx.sandbox.exec('echo "// linted" >> b.ts');
    expect(await checkWritable(ctx, `${ROOT}/b.ts`)).toBe(FILE_MODIFIED_ERROR);
  });

  it('refuses directories and binary files', async () => {
    const ctx = await setup({ 'dir/x.txt': 'x', 'img.bin': new Uint8Array([1, 0, 2]) });
    expect(await checkWritable(ctx, `${ROOT}/dir`)).toContain('is a directory');
    expect(await checkWritable(ctx, `${ROOT}/img.bin`)).toContain('binary file');
  });

  it('uses a snapshot the caller already took', async () => {
    const ctx = await setup({ 'a.ts': 'one\n' });
    await readAndRecord(ctx, `${ROOT}/a.ts`);
    const stale = {
      kind: 'file' as const,
      content: 'two\n',
      bytes: new TextEncoder().encode('two\n'),
      mtimeMs: 0,
      size: 4,
      binary: false,
      validUtf8: true,
    };
    expect(await checkWritable(ctx, `${ROOT}/a.ts`, stale)).toBe(FILE_MODIFIED_ERROR);
  });
});

describe('describeMissingFile', () => {
  it('names the path and suggests similar names from the same directory', async () => {
    const ctx = await setup({ 'src/Utils.ts': '', 'src/index.js': '', 'src/other.md': '' });
    const msg = await describeMissingFile(ctx, `${ROOT}/src/utils.ts`);
    expect(msg).toContain(`File does not exist: ${ROOT}/src/utils.ts`);
    expect(msg).toContain(`Did you mean ${ROOT}/src/Utils.ts?`);
    const ext = await describeMissingFile(ctx, `${ROOT}/src/index.ts`);
    expect(ext).toContain(`${ROOT}/src/index.js`);
    expect(ext).not.toContain('other.md');
    const none = await describeMissingFile(ctx, `${ROOT}/src/zzzzzzzz.py`);
    expect(none).not.toContain('Did you mean');
    expect(await describeMissingFile(ctx, `${ROOT}/nodir/a.ts`)).toContain(`${ROOT}/nodir does not exist`);
  });
});
