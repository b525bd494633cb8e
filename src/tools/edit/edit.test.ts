import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ROOT } from '../../core/constants.ts';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import type { QueryEvent } from '../../core/events.ts';
import { runToolCalls } from '../../core/orchestration.ts';
import type { AnyTool } from '../../core/tool.ts';
import { defaultCanUseTool } from '../../core/tool-execution.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../read/read.ts';
import { FILE_MODIFIED_ERROR, FILE_NOT_READ_ERROR, hashContent } from '../shared/file-state.ts';
import { EditTool, FILE_EXISTS_ERROR, findActualStrings, SAME_STRINGS_ERROR } from './edit.ts';

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

/** A context with `files` where every file has been Read. */
async function setupRead(files: Record<string, string>): Promise<ToolUseContext> {
  const ctx = await setup(files);
  for (const path of Object.keys(files)) {
    const res = await run(ReadTool, { file_path: path }, ctx);
    if (res.isError) throw new Error(res.text);
  }
  return ctx;
}

const numbered = (n: number, line: string) => `${String(n).padStart(6)}\t${line}`;
const CODE = 'function greet(name) {\n  return "Hello, " + name;\n}\n\ngreet("world");\n';

describe('Edit tool definition', () => {
  it('matches the JSON schema snapshot (the prompt-cache key)', async () => {
    await expect(JSON.stringify(EditTool.inputJSONSchema, null, 2)).toMatchFileSnapshot(
      './__snapshots__/edit.schema.json',
    );
    expect(EditTool.inputJSONSchema.required).toEqual(['file_path', 'old_string', 'new_string']);
  });

  it('finishes when interrupted, is not concurrency-safe, and leaves permission to rules and mode', async () => {
    expect(EditTool.name).toBe('Edit');
    expect(EditTool.interruptBehavior()).toBe('finish');
    expect(EditTool.isConcurrencySafe()).toBe(false);
    expect(EditTool.isReadOnly()).toBe(false);
    const input = { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: false };
    const permCtx = { mode: 'default' as const, root: ROOT, cwd: ROOT };
    expect((await EditTool.checkPermissions(input, permCtx)).behavior).toBe('passthrough');
    expect(EditTool.prompt?.()).not.toContain('{{');
  });

  it('renders the input as a diff and names the action', () => {
    expect(
      EditTool.renderToolUseMessage?.({ file_path: '/p/a.ts', old_string: 'a', new_string: 'b' }),
    ).toEqual({
      title: 'Update',
      subtitle: '/p/a.ts',
      body: { kind: 'diff', path: '/p/a.ts', before: 'a', after: 'b' },
    });
    expect(EditTool.userFacingName({ old_string: '' })).toBe('Create');
    expect(EditTool.userFacingName({ old_string: 'x' })).toBe('Update');
    expect(EditTool.toAutoClassifierInput?.({ file_path: 'a.ts', old_string: 'x', new_string: 'y' })).toBe(
      'a.ts: y',
    );
  });
});

describe('Edit', () => {
  it('replaces a unique string, shows a numbered snippet, and records the new content', async () => {
    const ctx = await setupRead({ 'greet.js': CODE });
    const res = await run(
      EditTool,
      { file_path: 'greet.js', old_string: '"Hello, " + name', new_string: 'greeting(name)' },
      ctx,
    );
    expect(res.isError).toBe(false);
    const after = CODE.replace('"Hello, " + name', 'greeting(name)');
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(after);
    expect(res.data).toEqual({
      filePath: `${ROOT}/greet.js`,
      before: CODE,
      after,
      replacements: 1,
      created: false,
    });
    expect(res.text).toBe(
      `The file ${ROOT}/greet.js has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
        [
          numbered(1, 'function greet(name) {'),
          numbered(2, '  return greeting(name);'),
          numbered(3, '}'),
          numbered(4, ''),
          numbered(5, 'greet("world");'),
        ].join('\n'),
    );
    expect(ctx.readFileState.get(`${ROOT}/greet.js`)?.contentHash).toBe(await hashContent(after));
    expect(EditTool.renderToolResultMessage?.(res.data as never, {} as never)).toEqual({
      kind: 'diff',
      path: `${ROOT}/greet.js`,
      before: CODE,
      after,
    });
    // A second edit needs no new Read.
    const again = await run(EditTool, { file_path: 'greet.js', old_string: 'world', new_string: 'tab' }, ctx);
    expect(again.isError).toBe(false);
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(after.replace('world', 'tab'));
  });

  it('keeps $ patterns in new_string literal', async () => {
    const ctx = await setupRead({ 'a.txt': 'price: X\n' });
    await run(EditTool, { file_path: 'a.txt', old_string: 'X', new_string: "$& $' $1 $$" }, ctx);
    expect(await ctx.sandbox.readFile(`${ROOT}/a.txt`)).toBe("price: $& $' $1 $$\n");
  });

  it('errors when old_string is not found, leaving the file untouched', async () => {
    const ctx = await setupRead({ 'greet.js': CODE });
    const res = await run(EditTool, { file_path: 'greet.js', old_string: 'goodbye', new_string: 'x' }, ctx);
    expect(res).toMatchObject({
      isError: true,
      text: 'String to replace not found in file.\nString: goodbye',
    });
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(CODE);
  });

  it('errors on several matches without replace_all, giving the count', async () => {
    const ctx = await setupRead({ 'greet.js': CODE });
    const res = await run(EditTool, { file_path: 'greet.js', old_string: 'greet', new_string: 'hello' }, ctx);
    expect(res.isError).toBe(true);
    expect(res.text).toContain('Found 2 matches of the string to replace, but replace_all is false.');
    expect(res.text).toContain('provide more context');
    expect(res.text).toContain('String: greet');
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(CODE);
  });

  it('replaces every occurrence with replace_all', async () => {
    const ctx = await setupRead({ 'greet.js': CODE });
    const res = await run(
      EditTool,
      { file_path: 'greet.js', old_string: 'greet', new_string: 'hello', replace_all: true },
      ctx,
    );
    expect(res.isError).toBe(false);
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(CODE.replaceAll('greet', 'hello'));
    expect(res.data).toMatchObject({ replacements: 2 });
    expect(res.text).toContain('All 2 occurrences were replaced.');
    expect(res.text).toContain(numbered(5, 'hello("world");'));
  });

  it('refuses identical old_string and new_string', async () => {
    const ctx = await setupRead({ 'greet.js': CODE });
    const res = await run(EditTool, { file_path: 'greet.js', old_string: 'greet', new_string: 'greet' }, ctx);
    expect(res).toMatchObject({ isError: true, text: SAME_STRINGS_ERROR });
  });

  it('refuses a file that was never read, leaving it untouched', async () => {
    const ctx = await setup({ 'greet.js': CODE });
    const res = await run(EditTool, { file_path: 'greet.js', old_string: 'world', new_string: 'moon' }, ctx);
    expect(res).toMatchObject({ isError: true, text: FILE_NOT_READ_ERROR });
    await expect(
      EditTool.call(
        { file_path: 'greet.js', old_string: 'world', new_string: 'moon', replace_all: false },
        ctx,
      ),
    ).rejects.toThrow(FILE_NOT_READ_ERROR);
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(CODE);
  });

  it('refuses a file changed since it was read, leaving the change in place', async () => {
    const ctx = await setupRead({ 'greet.js': CODE });
    await ctx.sandbox.exec('echo "// added by a linter" >> greet.js');
    const changed = `${CODE}// added by a linter\n`;
    const res = await run(EditTool, { file_path: 'greet.js', old_string: 'world', new_string: 'moon' }, ctx);
    expect(res).toMatchObject({ isError: true, text: FILE_MODIFIED_ERROR });
    expect(await ctx.sandbox.readFile(`${ROOT}/greet.js`)).toBe(changed);
  });

  it('allows an edit after a partial read', async () => {
    const ctx = await setup({ 'greet.js': CODE });
    await run(ReadTool, { file_path: 'greet.js', offset: 2, limit: 1 }, ctx);
    const res = await run(EditTool, { file_path: 'greet.js', old_string: 'world', new_string: 'moon' }, ctx);
    expect(res.isError).toBe(false);
  });

  it('creates a missing file (and its directories) from an empty old_string', async () => {
    const ctx = await setup({});
    const res = await run(
      EditTool,
      { file_path: 'lib/new.ts', old_string: '', new_string: 'export {};\n' },
      ctx,
    );
    expect(res.isError).toBe(false);
    expect(res.text).toBe(`File created successfully at: ${ROOT}/lib/new.ts`);
    expect(res.data).toMatchObject({ created: true, before: '', after: 'export {};\n' });
    expect(await ctx.sandbox.readFile(`${ROOT}/lib/new.ts`)).toBe('export {};\n');
    expect(ctx.readFileState.has(`${ROOT}/lib/new.ts`)).toBe(true);
  });

  it('refuses an empty old_string on an existing non-empty file, and fills an empty one', async () => {
    const ctx = await setup({ 'full.txt': 'content\n', 'blank.txt': '' });
    const res = await run(EditTool, { file_path: 'full.txt', old_string: '', new_string: 'x' }, ctx);
    expect(res).toMatchObject({ isError: true, text: FILE_EXISTS_ERROR });
    expect(await ctx.sandbox.readFile(`${ROOT}/full.txt`)).toBe('content\n');
    const fill = await run(EditTool, { file_path: 'blank.txt', old_string: '', new_string: 'filled\n' }, ctx);
    expect(fill.isError).toBe(false);
    expect(await ctx.sandbox.readFile(`${ROOT}/blank.txt`)).toBe('filled\n');
  });

  it('errors on a missing file with a non-empty old_string, suggesting similar names', async () => {
    const ctx = await setup({ 'src/index.ts': 'x' });
    const res = await run(EditTool, { file_path: 'src/index.js', old_string: 'x', new_string: 'y' }, ctx);
    expect(res.isError).toBe(true);
    expect(res.text).toContain(`File does not exist: ${ROOT}/src/index.js`);
    expect(res.text).toContain(`${ROOT}/src/index.ts`);
    expect(await ctx.sandbox.exists(`${ROOT}/src/index.js`)).toBe(false);
  });

  it('refuses directories, binary files and paths outside the workspace', async () => {
    const ctx = await setup({ 'd/x.txt': 'x', 'b.bin': new Uint8Array([0x61, 0, 0x62]) });
    const dir = await run(EditTool, { file_path: 'd', old_string: 'a', new_string: 'b' }, ctx);
    expect(dir.text).toContain('is a directory');
    const bin = await run(EditTool, { file_path: 'b.bin', old_string: 'a', new_string: 'b' }, ctx);
    expect(bin.text).toContain('binary file');
    const out = await run(EditTool, { file_path: '/etc/hosts', old_string: '', new_string: 'x' }, ctx);
    expect(out).toMatchObject({ isError: true });
    expect(out.text).toContain('outside the workspace');
    expect((await ctx.sandbox.exec('test -e /etc/hosts && echo yes || echo no')).stdout.trim()).toBe('no');
  });

  it('matches a CRLF file with LF old_string and keeps CRLF line endings', async () => {
    const ctx = await setupRead({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    const res = await run(
      EditTool,
      { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nextra' },
      ctx,
    );
    expect(res.isError).toBe(false);
    expect(await ctx.sandbox.readFile(`${ROOT}/win.txt`)).toBe('uno\r\ndos\r\nextra\r\nthree\r\n');
  });

  it('matches curly quotes in the file from straight quotes and keeps the file style', async () => {
    const ctx = await setupRead({ 'doc.md': 'She said \u201Chello\u201D and left.\n' });
    const res = await run(
      EditTool,
      { file_path: 'doc.md', old_string: 'said "hello"', new_string: 'said "goodbye"' },
      ctx,
    );
    expect(res.isError).toBe(false);
    expect(await ctx.sandbox.readFile(`${ROOT}/doc.md`)).toBe('She said \u201Cgoodbye\u201D and left.\n');
  });
});

describe('findActualStrings', () => {
  it('prefers an exact match and returns null when nothing matches', () => {
    expect(findActualStrings('a "b" c', '"b"', '"d"')).toEqual({ oldString: '"b"', newString: '"d"' });
    expect(findActualStrings('abc', 'x', 'y')).toBeNull();
    expect(findActualStrings('it\u2019s', "it's", "it's not")).toEqual({
      oldString: 'it\u2019s',
      newString: 'it\u2019s not',
    });
  });
});

describe('an Edit refused before it runs, through the tool-call path', () => {
  it("its result event says how the call is shown (Update and the path), as a running call's would", async () => {
    const ctx = await setupRead({ 'a.js': CODE });
    const events: QueryEvent[] = [];
    const run = runToolCalls({
      blocks: [
        {
          type: 'tool_use',
          id: 'toolu_missing',
          name: 'Edit',
          input: { file_path: `${ROOT}/a.js`, old_string: 'not in the file', new_string: 'x' },
        },
      ],
      tools: [EditTool as AnyTool],
      context: ctx,
      canUseTool: defaultCanUseTool,
    });
    for (let step = await run.next(); !step.done; step = await run.next()) events.push(step.value);
    const result = events.find((e) => e.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.isError).toBe(true);
    expect(events.some((e) => e.type === 'tool-run-start')).toBe(false);
    expect(result?.type === 'tool-result' && result.callView).toMatchObject({
      title: 'Update',
      subtitle: `${ROOT}/a.js`,
      body: { kind: 'diff', before: 'not in the file', after: 'x' },
    });
  });
});
