import { beforeEach, describe, expect, it } from 'vitest';
import { createToolUseContext, type ToolUseContext } from '../../core/context.ts';
import { ToolInputError } from '../../core/tool.ts';
import { createJustBashSandbox } from '../../sandbox/just-bash.ts';
import { displayPath, inputErrorOf, resolveExistingPath, resolveToolPath } from './paths.ts';

let ctx: ToolUseContext;
let root: string;

beforeEach(async () => {
  const sandbox = await createJustBashSandbox({ files: { 'src/a.ts': 'export {};\n' } });
  root = sandbox.root;
  ctx = createToolUseContext({ sandbox });
});

describe('resolveToolPath', () => {
  it('defaults to the cwd and resolves relative, absolute and ~ paths', () => {
    expect(resolveToolPath(ctx)).toBe(root);
    expect(resolveToolPath(ctx, 'src/../src/a.ts')).toBe(`${root}/src/a.ts`);
    expect(resolveToolPath(ctx, `${root}/src`)).toBe(`${root}/src`);
    expect(resolveToolPath(ctx, '~/src')).toBe(`${root}/src`);
  });

  it('resolves relative paths against the agent cwd', () => {
    const sub = createToolUseContext({ sandbox: ctx.sandbox, options: { cwd: `${root}/src` } });
    expect(resolveToolPath(sub, 'a.ts')).toBe(`${root}/src/a.ts`);
  });

  it('refuses paths outside the workspace with a ToolInputError', () => {
    expect(() => resolveToolPath(ctx, '/etc')).toThrow(ToolInputError);
    expect(() => resolveToolPath(ctx, '../..')).toThrow(/outside the workspace/);
  });
});

describe('resolveExistingPath', () => {
  it('returns the stat of an existing directory', async () => {
    const { abs, stat } = await resolveExistingPath(ctx, 'src', 'directory');
    expect(abs).toBe(`${root}/src`);
    expect(stat.type).toBe('directory');
  });

  it('says what is wrong with a missing path or a file given as a directory', async () => {
    await expect(resolveExistingPath(ctx, 'nope', 'directory')).rejects.toThrow(
      /Directory does not exist: nope/,
    );
    await expect(resolveExistingPath(ctx, 'nope', 'any')).rejects.toThrow(/Path does not exist: nope/);
    await expect(resolveExistingPath(ctx, 'src/a.ts', 'directory')).rejects.toThrow(/not a directory/);
    expect((await resolveExistingPath(ctx, 'src/a.ts', 'any')).stat.type).toBe('file');
  });
});

describe('resolveExistingPath through symbolic links', () => {
  it('follows a link to a directory, and names a dangling link', async () => {
    await ctx.sandbox.exec('ln -s src linked && ln -s nowhere dangling');
    const { abs, stat } = await resolveExistingPath(ctx, 'linked', 'directory');
    expect(abs).toBe(`${root}/src`);
    expect(stat.type).toBe('directory');
    await expect(resolveExistingPath(ctx, 'dangling', 'any')).rejects.toThrow(/symbolic link whose target/);
  });

  it('lets Glob and Grep search a linked directory', async () => {
    await ctx.sandbox.exec('ln -s src linked');
    const { GlobTool } = await import('../glob/glob.ts');
    const { GrepTool } = await import('../grep/grep.ts');
    const glob = await GlobTool.call({ pattern: '*.ts', path: 'linked' }, ctx);
    expect(JSON.stringify(glob.data)).toContain('a.ts');
    const grep = await GrepTool.call({ pattern: 'export', path: 'linked' }, ctx);
    expect(JSON.stringify(grep.data)).toContain('a.ts');
  });
});

describe('inputErrorOf', () => {
  it('turns ToolInputError into a message and passes other errors through', async () => {
    expect(await inputErrorOf(async () => resolveToolPath(ctx, '/etc'))).toMatch(/outside the workspace/);
    expect(await inputErrorOf(async () => resolveToolPath(ctx, 'src'))).toBeNull();
    await expect(
      inputErrorOf(async () => {
        throw new TypeError('boom');
      }),
    ).rejects.toThrow('boom');
  });
});

describe('displayPath', () => {
  it('is relative under the cwd and absolute elsewhere', () => {
    expect(displayPath('/a/b', '/a/b/c/d.ts')).toBe('c/d.ts');
    expect(displayPath('/a/b', '/a/b')).toBe('.');
    expect(displayPath('/a/b', '/a/bc/d.ts')).toBe('/a/bc/d.ts');
  });
});
