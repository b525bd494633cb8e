/**
 * Glob: finds files by name pattern (picomatch) under a directory of the workspace, newest first.
 * Patterns match paths relative to the search directory; an absolute pattern searches from its
 * static base directory.
 */
import picomatch from 'picomatch';
import { z } from 'zod';
import { GLOB_MAX_RESULTS } from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import { relativeTo } from '../../sandbox/sandbox.ts';
import { checkWorkspacePath, inputErrorOf, resolveExistingPath, resolveToolPath } from '../shared/paths.ts';
import promptText from './prompt.md?raw';

const PROMPT = promptText.replaceAll('{{MAX_RESULTS}}', String(GLOB_MAX_RESULTS)).trim();

const inputSchema = z.object({
  pattern: z.string().describe('The glob pattern to match files against'),
  path: z
    .string()
    .optional()
    .describe(
      'The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.',
    ),
});

export type GlobInput = z.infer<typeof inputSchema>;

export interface GlobOutput {
  /** Absolute paths, most recently modified first. */
  filenames: string[];
  numFiles: number;
  /** More than GLOB_MAX_RESULTS files matched. */
  truncated: boolean;
  durationMs: number;
}

export const GLOB_TRUNCATED_NOTE = '(Results are truncated. Consider using a more specific path or pattern.)';

const DEFAULT_SKIP_DIRS = ['node_modules', '.git'];

interface SearchPlan {
  /** Absolute directory to list, or null when an absolute pattern's base does not exist. */
  root: string | null;
  glob: string;
}

/** Where to search and what to match there. Throws ToolInputError for bad input. */
async function planSearch(input: GlobInput, ctx: ToolUseContext): Promise<SearchPlan> {
  const pattern = input.pattern.trim();
  if (pattern === '') throw new ToolInputError('The pattern is empty. Give a glob such as "**/*.ts".');
  if (pattern.startsWith('/') || pattern.startsWith('~/')) {
    const scan = picomatch.scan(pattern);
    const cut = scan.isGlob ? scan.base.length : pattern.lastIndexOf('/');
    const base = resolveToolPath(ctx, pattern.slice(0, cut) || '/');
    const glob = pattern.slice(cut).replace(/^\/+/, '');
    const stat = await ctx.sandbox.stat(base).catch(() => null);
    return { root: stat?.type === 'directory' ? base : null, glob };
  }
  const { abs } = await resolveExistingPath(ctx, input.path, 'directory');
  return { root: abs, glob: pattern.replace(/^(\.\/)+/, '') };
}

/** The directory searched: `path` (default: the cwd) plus the pattern's fixed leading directories. */
function searchedDirectory(input: GlobInput): string {
  const dirs = input.pattern.split('/').filter(Boolean).slice(0, -1);
  const stop = dirs.findIndex((s) => /[*?[{]/.test(s));
  const lead = (stop < 0 ? dirs : dirs.slice(0, stop)).join('/');
  const base = input.pattern.startsWith('/') ? '' : input.path?.trim() || '.';
  return lead || base ? `${base}/${lead}` : '/';
}

export const GlobTool = buildTool<typeof inputSchema, GlobOutput>({
  name: 'Glob',
  searchHint: 'find files by name pattern wildcard',
  inputSchema,
  maxResultSizeChars: 100_000,

  description: () => 'Find files by glob pattern',
  prompt: () => PROMPT,
  userFacingName: () => 'Glob',

  validateInput: (input, ctx) => inputErrorOf(() => planSearch(input, ctx)),

  async call(input, ctx) {
    const started = Date.now();
    const { root, glob } = await planSearch(input, ctx);
    const empty: GlobOutput = { filenames: [], numFiles: 0, truncated: false, durationMs: 0 };
    if (root === null || glob === '') return { data: { ...empty, durationMs: Date.now() - started } };
    const signal = ctx.abortController.signal;
    const skipDirs = DEFAULT_SKIP_DIRS.filter((dir) => !glob.includes(dir));
    const files = await ctx.sandbox.listFiles({ root, skipDirs, signal });
    const isMatch = picomatch(glob, { dot: true });
    const matches = files.filter((file) => isMatch(relativeTo(root, file)));
    const withTimes = await Promise.all(
      matches.map(async (path) => ({
        path,
        mtimeMs: (await ctx.sandbox.stat(path).catch(() => null))?.mtimeMs ?? 0,
      })),
    );
    signal.throwIfAborted();
    withTimes.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const filenames = withTimes.slice(0, GLOB_MAX_RESULTS).map((f) => f.path);
    return {
      data: {
        filenames,
        numFiles: filenames.length,
        truncated: withTimes.length > GLOB_MAX_RESULTS,
        durationMs: Date.now() - started,
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId) {
    if (output.numFiles === 0) return textResult(toolUseId, 'No files found');
    const note = output.truncated ? `\n${GLOB_TRUNCATED_NOTE}` : '';
    return textResult(toolUseId, `${output.filenames.join('\n')}${note}`);
  },

  /** Its own input decides: the directory it searches must be inside the workspace. */
  checkPermissions: async (input, permCtx) => checkWorkspacePath(permCtx, searchedDirectory(input), 'Glob'),
  preparePermissionMatcher: (input): FilePermissionMatcher => ({
    kind: 'file',
    access: 'read',
    path: searchedDirectory(input),
    directory: true,
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => 'abort',

  renderToolUseMessage: (input) => ({
    title: 'Glob',
    subtitle:
      input.pattern === undefined
        ? undefined
        : input.path
          ? `${input.pattern} in ${input.path}`
          : input.pattern,
    body: { kind: 'none' },
  }),
  renderToolResultMessage: (output) => ({
    kind: 'files',
    paths: output.filenames,
    truncated: output.truncated,
  }),
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
});
