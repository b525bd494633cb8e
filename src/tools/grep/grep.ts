/**
 * Grep: searches file contents with a regular expression (Claude Code's GrepTool on ripgrep semantics,
 * done in JavaScript over the sandbox). Paths: absolute in files_with_matches mode; relative to the
 * agent's cwd (absolute when outside it) in content and count modes, to save tokens.
 */
import { z } from 'zod';
import { GREP_DEFAULT_HEAD_LIMIT } from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import { createYielder } from '../../core/main-thread-yield.ts';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import { relativeTo } from '../../sandbox/sandbox.ts';
import { checkWorkspacePath, displayPath, inputErrorOf, resolveExistingPath } from '../shared/paths.ts';
import { createLineMatcher, GREP_FILE_TIME_BUDGET_MS } from './line-matcher.ts';
import promptText from './prompt.md?raw';
import {
  buildFileFilter,
  compilePattern,
  isBinary,
  renderFileContent,
  renderOnlyMatching,
  splitLines,
} from './search.ts';

/** Content lines longer than this (characters) are cut, like `rg --max-columns`. */
export const GREP_MAX_LINE_CHARS = 500;

const PROMPT = promptText
  .replaceAll('{{HEAD_LIMIT}}', String(GREP_DEFAULT_HEAD_LIMIT))
  .replaceAll('{{MAX_LINE}}', String(GREP_MAX_LINE_CHARS))
  .trim();

const inputSchema = z.object({
  pattern: z.string().describe('The regular expression pattern to search for in file contents'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search in (rg PATH). Defaults to current working directory.'),
  glob: z
    .string()
    .optional()
    .describe('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      'Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".',
    ),
  '-B': z
    .number()
    .optional()
    .describe(
      'Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.',
    ),
  '-A': z
    .number()
    .optional()
    .describe(
      'Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.',
    ),
  '-C': z.number().optional().describe('Alias for context.'),
  context: z
    .number()
    .optional()
    .describe(
      'Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.',
    ),
  '-n': z
    .boolean()
    .optional()
    .describe(
      'Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.',
    ),
  '-i': z.boolean().optional().describe('Case insensitive search (rg -i)'),
  '-o': z
    .boolean()
    .optional()
    .describe(
      'Print only the matched (non-empty) parts of each matching line, one match per output line (rg -o / --only-matching). Requires output_mode: "content", ignored otherwise. Defaults to false.',
    ),
  type: z
    .string()
    .optional()
    .describe(
      'File type to search (rg --type). Common types: js, ts, py, md, json, css, html. More efficient than glob for standard file types.',
    ),
  head_limit: z
    .number()
    .optional()
    .describe(
      `Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content (limits output lines), files_with_matches (limits file paths), count (limits count entries). Defaults to ${GREP_DEFAULT_HEAD_LIMIT} when unspecified. Pass 0 for unlimited (use sparingly — large result sets waste context).`,
    ),
  offset: z
    .number()
    .optional()
    .describe(
      'Skip first N lines/entries before applying head_limit, equivalent to "| tail -n +N | head -N". Works across all output modes. Defaults to 0.',
    ),
  multiline: z
    .boolean()
    .optional()
    .describe(
      'Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.',
    ),
});

export type GrepInput = z.infer<typeof inputSchema>;
export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepOutput {
  mode: GrepMode;
  /** Files in the result (after head_limit/offset in files_with_matches and count modes). */
  numFiles: number;
  /** files_with_matches: absolute paths, newest first. Other modes: every file with a match. */
  filenames: string[];
  /** content and count modes: the output lines joined. */
  content?: string;
  /** content mode: output lines shown. */
  numLines?: number;
  /** count mode: matching lines in the shown entries. */
  numMatches?: number;
  /** Set when head_limit cut the result. */
  appliedLimit?: number;
  /** Set when offset skipped entries. */
  appliedOffset?: number;
  /** Files not searched to the end: the pattern ran past the time budget on each. */
  skipped?: string[];
}

const NUMERIC_FIELDS = ['-A', '-B', '-C', 'context', 'head_limit', 'offset'] as const;

/** Checks everything but the path; throws ToolInputError. Returns the compiled pattern and file filter. */
function prepare(input: GrepInput) {
  for (const field of NUMERIC_FIELDS) {
    const value = input[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new ToolInputError(`Invalid ${field}: ${value}. Give a whole number, 0 or more.`);
    }
  }
  const regex = compilePattern(input.pattern, { ignoreCase: input['-i'], multiline: input.multiline });
  const filter = buildFileFilter({ glob: input.glob, type: input.type });
  return { regex, filter };
}

/** `items` paged by offset/limit (limit 0: no limit), with the applied values Claude Code reports. */
function page<T>(items: T[], limit: number, offset: number) {
  const shown = items.slice(offset, limit === 0 ? undefined : offset + limit);
  return {
    shown,
    ...(limit !== 0 && items.length - offset > limit ? { appliedLimit: limit } : {}),
    ...(offset > 0 ? { appliedOffset: offset } : {}),
  };
}

interface FileHit {
  abs: string;
  /** The file's text (only for -o with multiline). */
  text: string;
  lines: string[];
  matched: number[];
}

async function searchFiles(
  input: GrepInput,
  ctx: ToolUseContext,
): Promise<{ hits: FileHit[]; skipped: string[] }> {
  const { regex, filter } = prepare(input);
  const { abs: target, stat } = await resolveExistingPath(ctx, input.path, 'any');
  const signal = ctx.abortController.signal;
  const files =
    stat.type === 'directory'
      ? (await ctx.sandbox.listFiles({ root: target, signal })).filter((f) => filter(relativeTo(target, f)))
      : [target];
  const decoder = new TextDecoder();
  const hits: FileHit[] = [];
  const skipped: string[] = [];
  // The regex runs off the page's thread, within a time budget per file (line-matcher.ts).
  const matcher = createLineMatcher(regex, input.multiline === true);
  try {
    for (const abs of files) {
      signal.throwIfAborted();
      let bytes: Uint8Array;
      try {
        bytes = await ctx.sandbox.readFileBytes(abs);
      } catch {
        continue; // removed or unreadable since listing
      }
      if (isBinary(bytes)) continue;
      const text = decoder.decode(bytes);
      const matched = await matcher.match(text, signal);
      if (matched === 'timeout') {
        skipped.push(abs);
        continue;
      }
      if (matched.length === 0) continue;
      // The whole text is kept only where -o reads matches across lines (big searches stay small).
      const keep = input['-o'] === true && input.multiline === true;
      hits.push({ abs, text: keep ? text : '', lines: splitLines(text), matched });
    }
  } finally {
    matcher.close();
  }
  return { hits, skipped };
}

/** The note on files the pattern ran too long on, or '' when none. */
function skippedNote(output: GrepOutput): string {
  const skipped = output.skipped ?? [];
  if (skipped.length === 0) return '';
  const shown =
    skipped.slice(0, 10).join(', ') + (skipped.length > 10 ? `, … (${skipped.length - 10} more)` : '');
  return (
    `\n\n[${skipped.length} ${plural(skipped.length, 'file')} not searched: the pattern ran over ` +
    `${GREP_FILE_TIME_BUDGET_MS / 1000} s on each (nested quantifiers such as (a+)+ backtrack without end). ` +
    `Simplify the pattern. Skipped: ${shown}]`
  );
}

const plural = (n: number, word: string, many = `${word}s`) => (n === 1 ? word : many);

function limitInfo(output: GrepOutput): string {
  const parts: string[] = [];
  if (output.appliedLimit !== undefined) parts.push(`limit: ${output.appliedLimit}`);
  if (output.appliedOffset !== undefined) parts.push(`offset: ${output.appliedOffset}`);
  return parts.join(', ');
}

/** The result text of an output, as Claude Code words it. */
function resultText(output: GrepOutput): string {
  const info = limitInfo(output);
  if (output.mode === 'content') {
    const body = output.content || 'No matches found';
    return info ? `${body}\n\n[Showing results with pagination = ${info}]` : body;
  }
  if (output.mode === 'count') {
    const matches = output.numMatches ?? 0;
    const summary =
      `Found ${matches} total ${plural(matches, 'occurrence')} across ${output.numFiles} ` +
      `${plural(output.numFiles, 'file')}.${info ? ` with pagination = ${info}` : ''}`;
    return `${output.content || 'No matches found'}\n\n${summary}`;
  }
  if (output.numFiles === 0) return 'No files found';
  const head = `Found ${output.numFiles} ${plural(output.numFiles, 'file')}${info ? ` ${info}` : ''}`;
  return `${head}\n${output.filenames.join('\n')}`;
}

export const GrepTool = buildTool<typeof inputSchema, GrepOutput>({
  name: 'Grep',
  searchHint: 'search file contents regex ripgrep',
  inputSchema,
  maxResultSizeChars: 20_000,

  description: () => 'Search file contents with a regular expression',
  prompt: () => PROMPT,
  userFacingName: () => 'Grep',

  validateInput: (input, ctx) =>
    inputErrorOf(async () => {
      prepare(input);
      await resolveExistingPath(ctx, input.path, 'any');
    }),

  async call(input, ctx) {
    const mode: GrepMode = input.output_mode ?? 'files_with_matches';
    const limit = input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
    const offset = input.offset ?? 0;
    const { hits, skipped } = await searchFiles(input, ctx);
    const cwd = ctx.options.cwd;
    const note = skipped.length > 0 ? { skipped } : {};

    if (mode === 'files_with_matches') {
      const dated = await Promise.all(
        hits.map(async (h) => ({
          path: h.abs,
          mtimeMs: (await ctx.sandbox.stat(h.abs).catch(() => null))?.mtimeMs ?? 0,
        })),
      );
      dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const { shown, ...applied } = page(
        dated.map((d) => d.path),
        limit,
        offset,
      );
      return { data: { mode, numFiles: shown.length, filenames: shown, ...applied, ...note } };
    }

    const filenames = hits.map((h) => h.abs);
    if (mode === 'count') {
      const entries = hits.map((h) => ({
        line: `${displayPath(cwd, h.abs)}:${h.matched.length}`,
        n: h.matched.length,
      }));
      const { shown, ...applied } = page(entries, limit, offset);
      const numMatches = shown.reduce((sum, e) => sum + e.n, 0);
      const content = shown.map((e) => e.line).join('\n');
      return { data: { mode, numFiles: shown.length, filenames, content, numMatches, ...applied, ...note } };
    }

    const around = input.context ?? input['-C'];
    const before = around ?? input['-B'] ?? 0;
    const after = around ?? input['-A'] ?? 0;
    const options = { before, after, lineNumbers: input['-n'] ?? true, maxLineChars: GREP_MAX_LINE_CHARS };
    // Lines are made only as far as the page needs (one past it tells that head_limit cut), with the
    // page given its turn every few milliseconds: 100,000 matching lines once held it 90 ms in one task.
    const want = limit === 0 ? Number.POSITIVE_INFINITY : offset + limit + 1;
    const lines: string[] = [];
    const yielder = createYielder();
    const take = async (made: Iterable<string>) => {
      for (const line of made) {
        if (lines.length >= want) return;
        lines.push(line);
        if ((lines.length & 1023) === 0) await yielder();
      }
    };
    const { regex } = prepare(input);
    for (const h of hits) {
      if (lines.length >= want) break;
      const path = displayPath(cwd, h.abs);
      if (input['-o']) {
        // Only the matched parts, one per line (context does not apply, as with rg -o).
        await take(
          renderOnlyMatching(path, h.text, h.lines, h.matched, regex, {
            ...options,
            multiline: input.multiline === true,
          }),
        );
        continue;
      }
      if (lines.length > 0 && (before > 0 || after > 0)) lines.push('--');
      await take(renderFileContent(path, h.lines, h.matched, options));
    }
    const { shown, ...applied } = page(lines, limit, offset);
    return {
      data: {
        mode,
        numFiles: hits.length,
        filenames,
        content: shown.join('\n'),
        numLines: shown.length,
        ...applied,
        ...note,
      },
    };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId) {
    return textResult(toolUseId, `${resultText(output)}${skippedNote(output)}`);
  },

  /** Its own input decides: the path it searches must be inside the workspace. */
  checkPermissions: async (input, permCtx) => checkWorkspacePath(permCtx, input.path?.trim() || '.', 'Grep'),
  preparePermissionMatcher: (input): FilePermissionMatcher => ({
    kind: 'file',
    access: 'read',
    path: input.path?.trim() || '.',
    directory: true,
    readsContents: true,
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  interruptBehavior: () => 'abort',

  renderToolUseMessage: (input) => {
    const where = [
      input.path && `in ${input.path}`,
      input.glob && `(${input.glob})`,
      input.type && `[${input.type}]`,
    ];
    return {
      title: 'Grep',
      subtitle:
        input.pattern === undefined ? undefined : [`"${input.pattern}"`, ...where].filter(Boolean).join(' '),
      body: { kind: 'none' },
    };
  },
  renderToolResultMessage: (output) =>
    output.mode === 'files_with_matches'
      ? { kind: 'files', paths: output.filenames, truncated: output.appliedLimit !== undefined }
      : { kind: 'text', text: output.content || 'No matches found' },
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
});
