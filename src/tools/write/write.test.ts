import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ROOT } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { AnyTool } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { EditTool } from '../edit/edit.ts';
import { ReadTool } from '../read/read.ts';
import { FILE_MODIFIED_ERROR, FILE_NOT_READ_ERROR, hashContent } from '../shared/file-state.ts';
import { type WriteOutput, WriteTool } from './write.ts';

const ROOT = WORKSPACE_ROOT;
let sandbox: Sandbox | undefined;

async function setup(files: Record<string, string | Uint8Array>, cwd?: string): Promise<ToolUseContext> {
  sandbox = await createJustBashSandbox({ files });
  return createToolUseContext({ sandbox, ...(cwd ? { options: { cwd } } : {}) });
}

afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

/** Runs a tool as the loop does: schema, validateInput, call, result block. */
async function run(tool: AnyTool, input: unknown, ctx: ToolUseContext) {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return { isError: true, text: parsed.error.message, data: undefined };
  const invalid = await tool.validateInput?.(parsed.data, ctx);
  if (invalid) return { isError: true, text: invalid, data: undefined };
  try {
    const result = await tool.call(parsed.data, ctx);
    const block = tool.mapToolResultToToolResultBlockParam(result.data, 'toolu_test');
    return { isError: false, text: String(block.content), data: result.data };
  } catch (err) {
    return { isError: true, text: (err as Error).message, data: undefined };
  }
}

describe('Write tool definition', () => {
  it('matches the JSON schema snapshot (the prompt-cache key)', async () => {
    await expect(JSON.stringify(WriteTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/write.schema.json',
    );
    expect(WriteTool.inputJSONSchema.required).toEqual(['file_path', 'content']);
  });

  it('finishes when interrupted, is not concurrency-safe nor read-only, and asks through rules and mode', async () => {
    expect(WriteTool.name).toBe('Write');
    expect(WriteTool.interruptBehavior()).toBe('finish');
    expect(WriteTool.isConcurrencySafe()).toBe(false);
    expect(WriteTool.isReadOnly()).toBe(false);
    const permCtx = { mode: 'default' as const, root: ROOT, cwd: ROOT };
    expect(await WriteTool.checkPermissions({ file_path: 'a.ts', content: '' }, permCtx)).toEqual({
      behavior: 'passthrough',
    });
    const prompt = WriteTool.prompt?.() ?? '';
    expect(prompt).not.toContain('{{');
    expect(prompt).toContain(ROOT);
  });

  it('renders the input as code and the classifier text with the path', () => {
    expect(WriteTool.renderToolUseMessage?.({ file_path: '/p/a.py', content: 'print(1)\n' })).toEqual({
      title: 'Write',
      subtitle: '/p/a.py',
      body: { kind: 'code', code: 'print(1)\n', language: 'python' },
    });
    const big = 'z'.repeat(5000);
    const text = WriteTool.toAutoClassifierInput?.({ file_path: 'a.txt', content: big }) ?? '';
    expect(text.startsWith('a.txt: zzz')).toBe(true);
    expect(text.length).toBeLessThan(2100);
    expect(text).toContain('5000 characters');
  });
});

describe('Write', () => {
  it('creates a file and its parent directories, and records it as read', async () => {
    const ctx = await setup({});
    const res = await run(WriteTool, { file_path: 'src/deep/new.ts', content: 'export const x = 1;\n' }, ctx);
    expect(res.isError).toBe(false);
    expect(res.text).toBe(`File created successfully at: ${ROOT}/src/deep/new.ts`);
    expect(await ctx.sandbox.readFile(`${ROOT}/src/deep/new.ts`)).toBe('export const x = 1;\n');
    expect((await ctx.sandbox.stat(`${ROOT}/src/deep`)).type).toBe('directory');
    const data = res.data as WriteOutput;
    expect(data).toEqual({
      type: 'create',
      filePath: `${ROOT}/src/deep/new.ts`,
      before: null,
      after: 'export const x = 1;\n',
    });
    expect(WriteTool.renderToolResultMessage?.(data, { file_path: '', content: '' })).toEqual({
      kind: 'diff',
      path: `${ROOT}/src/deep/new.ts`,
      before: '',
      after: 'export const x = 1;\n',
    });
    expect(ctx.readFileState.get(`${ROOT}/src/deep/new.ts`)?.contentHash).toBe(
      await hashContent('export const x = 1;\n'),
    );
    // A follow-up Edit works without a Read.
    const edit = await run(
      EditTool,
      { file_path: 'src/deep/new.ts', old_string: '= 1', new_string: '= 2' },
      ctx,
    );
    expect(edit.isError).toBe(false);
    expect(await ctx.sandbox.readFile(`${ROOT}/src/deep/new.ts`)).toBe('export const x = 2;\n');
  });

  it('refuses to overwrite an existing file that was not read, leaving it untouched', async () => {
    const ctx = await setup({ 'keep.txt': 'precious\n' });
    const res = await run(WriteTool, { file_path: 'keep.txt', content: 'oops\n' }, ctx);
    expect(res).toMatchObject({ isError: true, text: FILE_NOT_READ_ERROR });
    // call() re-checks on its own, so a caller that skips validateInput cannot bypass it.
    await expect(WriteTool.call({ file_path: 'keep.txt', content: 'oops\n' }, ctx)).rejects.toThrow(
      FILE_NOT_READ_ERROR,
    );
    expect(await ctx.sandbox.readFile(`${ROOT}/keep.txt`)).toBe('precious\n');
  });

  it('overwrites a file after it was read, reporting a snippet of the change', async () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const ctx = await setup({ 'notes.txt': before });
    expect((await run(ReadTool, { file_path: 'notes.txt' }, ctx)).isError).toBe(false);
    const after = before.replace('line 10', 'LINE TEN');
    const res = await run(WriteTool, { file_path: `${ROOT}/notes.txt`, content: after }, ctx);
    expect(res.isError).toBe(false);
    expect(res.data).toEqual({ type: 'update', filePath: `${ROOT}/notes.txt`, before, after });
    expect(res.text).toBe(
      `The file ${ROOT}/notes.txt has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
        [6, 7, 8, 9, 10, 11, 12, 13, 14]
          .map((n) => `${String(n).padStart(6)}\t${n === 10 ? 'LINE TEN' : `line ${n}`}`)
          .join('\n'),
    );
    expect(await ctx.sandbox.readFile(`${ROOT}/notes.txt`)).toBe(after);
    // The written content counts as read: a second Write needs no new Read.
    expect((await run(WriteTool, { file_path: 'notes.txt', content: 'short\n' }, ctx)).isError).toBe(false);
  });

  it('allows a write after a partial read', async () => {
    const ctx = await setup({ 'p.txt': 'a\nb\nc\n' });
    await run(ReadTool, { file_path: 'p.txt', limit: 1 }, ctx);
    expect(ctx.readFileState.get(`${ROOT}/p.txt`)?.partial).toBe(true);
    expect((await run(WriteTool, { file_path: 'p.txt', content: 'z\n' }, ctx)).isError).toBe(false);
  });

  it('refuses a file changed through the sandbox since it was read, leaving the change in place', async () => {
    const ctx = await setup({ 'a.txt': 'v1\n' });
    await run(ReadTool, { file_path: 'a.txt' }, ctx);
    await ctx.sandbox.writeFile(`${ROOT}/a.txt`, 'v2 by the user\n');
    const res = await run(WriteTool, { file_path: 'a.txt', content: 'v3\n' }, ctx);
    expect(res).toMatchObject({ isError: true, text: FILE_MODIFIED_ERROR });
    expect(await ctx.sandbox.readFile(`${ROOT}/a.txt`)).toBe('v2 by the user\n');
    // Reading again makes it writable.
    await run(ReadTool, { file_path: 'a.txt' }, ctx);
    expect((await run(WriteTool, { file_path: 'a.txt', content: 'v3\n' }, ctx)).isError).toBe(false);
  });

  it('refuses a file changed by a shell command since it was read', async () => {
    const ctx = await setup({ 'fmt.ts': 'let a=1\n' });
    await run(ReadTool, { file_path: 'fmt.ts' }, ctx);
    expect((await ctx.sandbox.exec("sed -i 's/a=1/a = 1;/' fmt.ts")).exitCode).toBe(0);
    const res = await run(WriteTool, { file_path: 'fmt.ts', content: 'let b = 2;\n' }, ctx);
    expect(res).toMatchObject({ isError: true, text: FILE_MODIFIED_ERROR });
    expect(await ctx.sandbox.readFile(`${ROOT}/fmt.ts`)).toBe('let a = 1;\n');
  });

  it('allows a file that was only touched since it was read', async () => {
    const ctx = await setup({ 't.txt': 'same\n' });
    await run(ReadTool, { file_path: 't.txt' }, ctx);
    await new Promise((r) => setTimeout(r, 5));
    await ctx.sandbox.exec('touch t.txt');
    expect((await run(WriteTool, { file_path: 't.txt', content: 'new\n' }, ctx)).isError).toBe(false);
  });

  it('refuses a directory and a path outside the workspace, creating nothing', async () => {
    const ctx = await setup({ 'src/a.ts': 'x' });
    const dir = await run(WriteTool, { file_path: 'src', content: 'x' }, ctx);
    expect(dir.isError).toBe(true);
    expect(dir.text).toContain('is a directory');
    const outside = await run(WriteTool, { file_path: '../../tmp/evil.sh', content: 'x' }, ctx);
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('outside the workspace');
    const check = await ctx.sandbox.exec('test -e /tmp/evil.sh && echo yes || echo no');
    expect(check.stdout.trim()).toBe('no');
  });

  it('refuses a path whose parent is a file', async () => {
    const ctx = await setup({ 'file.txt': 'x' });
    const res = await run(WriteTool, { file_path: 'file.txt/child.txt', content: 'x' }, ctx);
    expect(res).toMatchObject({
      isError: true,
      text: `Cannot create ${ROOT}/file.txt/child.txt: ${ROOT}/file.txt is a file, not a directory.`,
    });
    expect(await ctx.sandbox.readFile(`${ROOT}/file.txt`)).toBe('x');
  });
});
