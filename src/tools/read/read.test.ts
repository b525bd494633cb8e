import { afterEach, describe, expect, it } from 'vitest';
import { READ_DEFAULT_LINE_LIMIT, READ_MAX_LINE_CHARS, WORKSPACE_ROOT } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { AnyTool } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox, SandboxChange } from '../../sandbox/sandbox.ts';
import { hashContent } from '../shared/file-state.ts';
import { EMPTY_FILE_REMINDER, READ_MAX_OUTPUT_CHARS, type ReadOutput, ReadTool } from './read.ts';

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
    return { isError: false, text: String(block.content), data: result.data as ReadOutput };
  } catch (err) {
    return { isError: true, text: (err as Error).message, data: undefined };
  }
}

const numbered = (n: number, line: string) => `${String(n).padStart(6)}\t${line}`;

describe('Read tool definition', () => {
  it('matches the JSON schema snapshot (the prompt-cache key)', async () => {
    await expect(JSON.stringify(ReadTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/read.schema.json',
    );
    expect(ReadTool.inputJSONSchema.required).toEqual(['file_path']);
  });

  it('is read-only, concurrency-safe, never spilled, and interpolates its prompt', () => {
    expect(ReadTool.name).toBe('Read');
    expect(ReadTool.isReadOnly()).toBe(true);
    expect(ReadTool.isConcurrencySafe()).toBe(true);
    expect(ReadTool.interruptBehavior()).toBe('abort');
    expect(ReadTool.maxResultSizeChars).toBe(Number.POSITIVE_INFINITY);
    const prompt = ReadTool.prompt?.() ?? '';
    expect(prompt).not.toContain('{{');
    expect(prompt).toContain(`up to ${READ_DEFAULT_LINE_LIMIT} lines`);
    expect(prompt).toContain(`longer than ${READ_MAX_LINE_CHARS} characters`);
  });

  it('allows reads inside the workspace and denies them outside', async () => {
    const permCtx = { mode: 'default' as const, root: ROOT, cwd: `${ROOT}/src` };
    expect(await ReadTool.checkPermissions({ file_path: 'a.ts' }, permCtx)).toEqual({ behavior: 'allow' });
    const outside = await ReadTool.checkPermissions({ file_path: '../../../etc/passwd' }, permCtx);
    expect(outside.behavior).toBe('deny');
  });

  it('renders plain-data views', () => {
    expect(ReadTool.renderToolUseMessage?.({ file_path: '/p/a.ts', offset: 10, limit: 5 })).toEqual({
      title: 'Read',
      subtitle: '/p/a.ts (lines 10-14)',
      body: { kind: 'none' },
    });
    expect(ReadTool.renderToolUseMessage?.({})).toEqual({ title: 'Read', body: { kind: 'none' } });
    expect(ReadTool.toAutoClassifierInput?.({ file_path: 'src/a.ts' })).toBe('src/a.ts');
  });
});

describe('Read', () => {
  it('returns cat -n formatted lines and records a full read', async () => {
    const content = 'first line\n\tindented\n\nlast line\n';
    const ctx = await setup({ 'src/a.ts': content });
    const res = await run(ReadTool, { file_path: `${ROOT}/src/a.ts` }, ctx);
    expect(res.isError).toBe(false);
    expect(res.text).toBe(
      [numbered(1, 'first line'), numbered(2, '\tindented'), numbered(3, ''), numbered(4, 'last line')].join(
        '\n',
      ),
    );
    expect(res.data).toMatchObject({
      filePath: `${ROOT}/src/a.ts`,
      startLine: 1,
      numLines: 4,
      totalLines: 4,
    });
    const record = ctx.readFileState.get(`${ROOT}/src/a.ts`);
    const st = await ctx.sandbox.stat(`${ROOT}/src/a.ts`);
    expect(record).toMatchObject({
      contentHash: await hashContent(content),
      mtimeMs: st.mtimeMs,
      partial: false,
    });
    expect(ReadTool.renderToolResultMessage?.(res.data as ReadOutput, { file_path: 'src/a.ts' })).toEqual({
      kind: 'code',
      path: `${ROOT}/src/a.ts`,
      code: 'first line\n\tindented\n\nlast line',
      language: 'typescript',
    });
  });

  it('resolves a relative path against the cwd and strips CR from CRLF lines', async () => {
    const ctx = await setup({ 'src/win.txt': 'one\r\ntwo\r\n' }, `${ROOT}/src`);
    const res = await run(ReadTool, { file_path: 'win.txt' }, ctx);
    expect(res.text).toBe(`${numbered(1, 'one')}\n${numbered(2, 'two')}`);
    expect(ctx.readFileState.has(`${ROOT}/src/win.txt`)).toBe(true);
  });

  it('reads a window with offset/limit, notes the rest, and records a partial read', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    const ctx = await setup({ 'big.txt': `${lines.join('\n')}\n` });
    const res = await run(ReadTool, { file_path: 'big.txt', offset: 10, limit: 3 }, ctx);
    expect(res.text).toBe(
      `${numbered(10, 'line 10')}\n${numbered(11, 'line 11')}\n${numbered(12, 'line 12')}\n\n` +
        '... (file has 50 lines; showing lines 10-12; use offset/limit to read more)',
    );
    expect(ctx.readFileState.get(`${ROOT}/big.txt`)?.partial).toBe(true);

    const tail = await run(ReadTool, { file_path: 'big.txt', offset: 49 }, ctx);
    expect(tail.text.split('\n').slice(0, 2)).toEqual([numbered(49, 'line 49'), numbered(50, 'line 50')]);
    expect(tail.data?.numLines).toBe(2);

    const whole = await run(ReadTool, { file_path: 'big.txt', offset: 0 }, ctx);
    expect(whole.data).toMatchObject({ startLine: 1, numLines: 50 });
    expect(whole.text).not.toContain('use offset/limit');
    expect(ctx.readFileState.get(`${ROOT}/big.txt`)?.partial).toBe(false);
  });

  it('shows at most READ_DEFAULT_LINE_LIMIT lines by default', async () => {
    const total = READ_DEFAULT_LINE_LIMIT + 25;
    const content = Array.from({ length: total }, (_, i) => `l${i + 1}`).join('\n');
    const ctx = await setup({ 'long.txt': content });
    const res = await run(ReadTool, { file_path: 'long.txt' }, ctx);
    expect(res.data).toMatchObject({ numLines: READ_DEFAULT_LINE_LIMIT, totalLines: total });
    expect(res.text).toContain(numbered(READ_DEFAULT_LINE_LIMIT, `l${READ_DEFAULT_LINE_LIMIT}`));
    expect(res.text).not.toContain(`l${READ_DEFAULT_LINE_LIMIT + 1}\n`);
    expect(res.text).toContain(`file has ${total} lines`);
  });

  it('cuts lines longer than READ_MAX_LINE_CHARS with a marker', async () => {
    const long = 'a'.repeat(READ_MAX_LINE_CHARS + 100);
    const ctx = await setup({ 'min.js': `${long}\nshort\n` });
    const res = await run(ReadTool, { file_path: 'min.js' }, ctx);
    const [first, second] = res.text.split('\n');
    expect(first).toBe(
      numbered(
        1,
        `${'a'.repeat(READ_MAX_LINE_CHARS)}… [line truncated: ${READ_MAX_LINE_CHARS + 100} characters]`,
      ),
    );
    expect(second).toBe(numbered(2, 'short'));
  });

  it('caps the total output and says where it stopped', async () => {
    const line = 'b'.repeat(READ_MAX_LINE_CHARS);
    const count = Math.ceil(READ_MAX_OUTPUT_CHARS / READ_MAX_LINE_CHARS) + 10;
    const ctx = await setup({ 'wide.txt': Array.from({ length: count }, () => line).join('\n') });
    const res = await run(ReadTool, { file_path: 'wide.txt' }, ctx);
    expect(res.data?.outputCapped).toBe(true);
    expect(res.data?.numLines).toBeLessThan(count);
    expect(res.text.length).toBeLessThan(READ_MAX_OUTPUT_CHARS + 500);
    expect(res.text).toContain(`file has ${count} lines; showing lines 1-${res.data?.numLines}`);
  });

  it('says an empty file exists but is empty', async () => {
    const ctx = await setup({ 'empty.txt': '' });
    const res = await run(ReadTool, { file_path: 'empty.txt' }, ctx);
    expect(res.isError).toBe(false);
    expect(res.text).toBe(EMPTY_FILE_REMINDER);
    expect(ctx.readFileState.get(`${ROOT}/empty.txt`)?.contentHash).toBe(await hashContent(''));
  });

  it('says when the offset is past the end, with the line count', async () => {
    const ctx = await setup({ 'three.txt': 'a\nb\nc\n' });
    const res = await run(ReadTool, { file_path: 'three.txt', offset: 10 }, ctx);
    expect(res.isError).toBe(false);
    expect(res.text).toContain('shorter than the provided offset (10)');
    expect(res.text).toContain('The file has 3 lines.');
  });

  it('errors on a missing file, naming it and similar files', async () => {
    const ctx = await setup({ 'src/config.ts': 'x' });
    const res = await run(ReadTool, { file_path: 'src/config.js' }, ctx);
    expect(res.isError).toBe(true);
    expect(res.text).toContain(`File does not exist: ${ROOT}/src/config.js`);
    expect(res.text).toContain(`Did you mean ${ROOT}/src/config.ts?`);
    expect(ctx.readFileState.size).toBe(0);
  });

  it('errors on a directory, pointing at ls and Glob', async () => {
    const ctx = await setup({ 'src/a.ts': 'x' });
    const res = await run(ReadTool, { file_path: 'src' }, ctx);
    expect(res.isError).toBe(true);
    expect(res.text).toContain('is a directory');
    expect(res.text).toContain('`ls`');
    expect(res.text).toContain('Glob');
  });

  it('errors on a binary file', async () => {
    const ctx = await setup({ 'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d]) });
    const res = await run(ReadTool, { file_path: 'logo.png' }, ctx);
    expect(res.isError).toBe(true);
    expect(res.text).toContain('binary file');
    expect(ctx.readFileState.size).toBe(0);
  });

  it('refuses a path outside the workspace and touches nothing', async () => {
    const ctx = await setup({ 'a.txt': 'x' });
    const changes: SandboxChange[] = [];
    ctx.sandbox.onChange((e) => changes.push(e));
    const res = await run(ReadTool, { file_path: '../../etc/passwd' }, ctx);
    expect(res.isError).toBe(true);
    expect(res.text).toContain('outside the workspace');
    await expect(ReadTool.call({ file_path: '/etc/passwd' }, ctx)).rejects.toThrow('outside the workspace');
    expect(ctx.readFileState.size).toBe(0);
    expect(changes).toEqual([]);
  });

  it('rejects invalid input through the schema', async () => {
    const ctx = await setup({ 'a.txt': 'x' });
    expect((await run(ReadTool, { file_path: 'a.txt', limit: 0 }, ctx)).isError).toBe(true);
    expect((await run(ReadTool, { file_path: 'a.txt', offset: 1.5 }, ctx)).isError).toBe(true);
    expect((await run(ReadTool, { path: 'a.txt' }, ctx)).isError).toBe(true);
  });
});
