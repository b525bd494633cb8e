/**
 * Path helpers for tools: resolve a model-given path inside the workspace, check what it is, and show
 * paths compactly.
 */
import type { ToolUseContext } from '../../core/context.ts';
import { messageOf } from '../../core/errors.ts';
import type { PermissionContext, PermissionResult } from '../../core/permissions/types.ts';
import { ToolInputError } from '../../core/tool.ts';
import { type FileStat, relativeTo, resolveInside, SandboxError } from '../../sandbox/sandbox.ts';

/**
 * Resolves `path` (absolute, `~`-relative, or relative to the agent's cwd; default: the cwd) to an
 * absolute path inside the workspace. Throws ToolInputError with a message the model can act on.
 */
export function resolveToolPath(ctx: ToolUseContext, path?: string): string {
  const cwd = ctx.options.cwd;
  if (path === undefined || path.trim() === '') return cwd;
  try {
    return resolveInside(ctx.sandbox.root, cwd, path);
  } catch (err) {
    if (err instanceof SandboxError) throw new ToolInputError(err.message);
    throw err;
  }
}

/**
 * Resolves `path` like `resolveToolPath` and checks it exists (and is a directory when `kind` is
 * 'directory'). Returns the absolute path and its stat; throws ToolInputError otherwise.
 */
export async function resolveExistingPath(
  ctx: ToolUseContext,
  path: string | undefined,
  kind: 'directory' | 'any',
): Promise<{ abs: string; stat: FileStat }> {
  const abs = resolveToolPath(ctx, path);
  let stat: FileStat;
  try {
    stat = await ctx.sandbox.stat(abs);
  } catch (err) {
    if (err instanceof SandboxError && err.code === 'ENOENT') {
      const what = kind === 'directory' ? 'Directory' : 'Path';
      throw new ToolInputError(
        `${what} does not exist: ${path ?? abs}. Current working directory: ${ctx.options.cwd}`,
      );
    }
    if (err instanceof SandboxError) throw new ToolInputError(err.message);
    throw err;
  }
  if (stat.type === 'symlink') {
    // Follow a link (the sandbox refuses one that leads out of the workspace) and search its target.
    try {
      const real = ctx.sandbox.realpath ? await ctx.sandbox.realpath(abs) : abs;
      const target = await ctx.sandbox.stat(real);
      if (target.type !== 'symlink') return resolveExistingTarget(path, real, target, kind);
    } catch (err) {
      if (err instanceof SandboxError && err.code !== 'ENOENT') throw new ToolInputError(err.message);
    }
    throw new ToolInputError(`Path is a symbolic link whose target does not exist: ${path ?? abs}`);
  }
  return resolveExistingTarget(path, abs, stat, kind);
}

function resolveExistingTarget(
  path: string | undefined,
  abs: string,
  stat: FileStat,
  kind: 'directory' | 'any',
): { abs: string; stat: FileStat } {
  if (kind === 'directory' && stat.type !== 'directory') {
    throw new ToolInputError(`Path is not a directory: ${path ?? abs}. Give a directory to search in.`);
  }
  return { abs, stat };
}

/** Runs `check` and turns a ToolInputError into its message (for `validateInput`); null when it passes. */
export async function inputErrorOf(check: () => Promise<unknown>): Promise<string | null> {
  try {
    await check();
    return null;
  } catch (err) {
    if (err instanceof ToolInputError) return err.message;
    throw err;
  }
}

/** `abs` relative to `cwd` when it is under it (`.` for cwd itself), else `abs` unchanged. Never throws. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relativeTo(cwd, abs);
  if (rel === '') return '.';
  return rel === abs ? abs : rel;
}

/**
 * A tool's own permission check of a path it reads (Read, Glob, Grep): allowed inside the workspace
 * (rules were checked before), denied outside it with the reason. Never throws.
 */
export function checkWorkspacePath(
  permCtx: PermissionContext,
  path: string | undefined,
  what: string,
): PermissionResult {
  if (path === undefined || path.trim() === '') return { behavior: 'allow' };
  try {
    resolveInside(permCtx.root, permCtx.cwd, path);
    return { behavior: 'allow' };
  } catch (err) {
    const reason = messageOf(err);
    return { behavior: 'deny', message: `${what} cannot search there: ${reason}` };
  }
}
