/**
 * Read: shows a text file of the sandbox workspace in `cat -n` format, a window of lines at a time, and
 * records what was read so Write and Edit can refuse unread or stale files. Read-only and
 * concurrency-safe; its results are never spilled to storage (the model must see what it read).
 * It also pages through spilled tool results at their virtual paths (`/.tabcode/results/<id>.txt`).
 */
import { z } from 'zod';
import {
  READ_DEFAULT_LINE_LIMIT,
  READ_MAX_LINE_CHARS,
  READ_MAX_OUTPUT_CHARS,
  RESULT_STORE_MAX_AGE_MS,
  SPILLED_RESULTS_DIR,
  WORKSPACE_ROOT,
} from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import { lookupSpilledResult, parseSpilledResultPath } from '../../core/tool-results.ts';
import { resolveInside } from '../../sandbox/sandbox.ts';
import { parseNotebook, renderNotebook } from '../notebook-edit/notebook.ts';
import { addLineNumbers, languageOf, splitLines, truncateLine } from '../shared/diff.ts';
import {
  describeMissingFile,
  errorMessage,
  readSnapshot,
  recordRead,
  resolveFilePath,
} from '../shared/file-state.ts';
import promptText from './prompt.md?raw';

/** A notebook's cells as Read shows them, or null when the text is not a notebook. */
function readNotebook(text: string, path: string): string | null {
  try {
    return renderNotebook(parseNotebook(text, path));
  } catch {
    return null;
  }
}

export { READ_MAX_OUTPUT_CHARS };

const PROMPT = promptText
  .replaceAll('{{LINE_LIMIT}}', String(READ_DEFAULT_LINE_LIMIT))
  .replaceAll('{{MAX_LINE_CHARS}}', String(READ_MAX_LINE_CHARS))
  .replaceAll('{{WORKSPACE_ROOT}}', WORKSPACE_ROOT)
  .replaceAll('{{RESULTS_DIR}}', SPILLED_RESULTS_DIR);

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe(
      'The absolute path to the file to read (a relative path is resolved against the current directory)',
    ),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'The line number to start reading from (1-based). Only provide if the file is too large to read at once',
    ),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The number of lines to read. Only provide if the file is too large to read at once.'),
});

export type ReadInput = z.infer<typeof inputSchema>;

/** What one Read returned. */
export interface ReadOutput {
  /** Absolute path inside the workspace. */
  filePath: string;
  /** The lines shown (long lines already cut), joined with `\n`; '' when none. */
  content: string;
  /** Number of the first line shown (1-based). */
  startLine: number;
  /** How many lines are shown (0 for an empty file or an offset past the end). */
  numLines: number;
  /** Lines in the whole file. */
  totalLines: number;
  /** The window was cut short by READ_MAX_OUTPUT_CHARS. */
  outputCapped?: boolean;
  /** A Jupyter notebook: `content` is its cells with their outputs (not numbered lines). */
  notebook?: boolean;
}

/** The model-facing note for an empty file (Claude Code's wording). */
export const EMPTY_FILE_REMINDER =
  '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';

/** Picks the window of lines to show: cuts long lines and stops before READ_MAX_OUTPUT_CHARS. */
function windowOf(
  lines: readonly string[],
  startLine: number,
  limit: number,
): { shown: string[]; outputCapped: boolean } {
  const shown: string[] = [];
  let chars = 0;
  const end = Math.min(lines.length, startLine - 1 + limit);
  for (let i = startLine - 1; i < end; i++) {
    const line = truncateLine(lines[i], READ_MAX_LINE_CHARS);
    chars += line.length + 8; // number column, tab, newline
    if (shown.length > 0 && chars > READ_MAX_OUTPUT_CHARS) return { shown, outputCapped: true };
    shown.push(line);
  }
  return { shown, outputCapped: false };
}

/** Formats a Read result as the text the model sees. */
export function formatReadResult(output: ReadOutput): string {
  if (output.notebook) return output.content;
  if (output.totalLines === 0) return EMPTY_FILE_REMINDER;
  if (output.numLines === 0) {
    return `<system-reminder>Warning: the file exists but is shorter than the provided offset (${output.startLine}). The file has ${output.totalLines} lines.</system-reminder>`;
  }
  const lines = output.content.split('\n');
  let text = addLineNumbers(lines, output.startLine);
  const last = output.startLine + output.numLines - 1;
  if (output.startLine > 1 || last < output.totalLines) {
    const why = output.outputCapped ? ` (output capped at ${READ_MAX_OUTPUT_CHARS} characters)` : '';
    text += `\n\n... (file has ${output.totalLines} lines; showing lines ${output.startLine}-${last}${why}; use offset/limit to read more)`;
  }
  return text;
}

/** Reads a spilled tool result (a virtual path) the way a file is read. Throws ToolInputError. */
async function readSpilledResult(id: string, input: ReadInput, ctx: ToolUseContext): Promise<ReadOutput> {
  const path = input.file_path.trim();
  const found = await lookupSpilledResult(ctx.resultStore, id);
  if (found.kind === 'evicted') {
    const days = Math.round(RESULT_STORE_MAX_AGE_MS / 86_400_000);
    throw new ToolInputError(
      `The saved output ${path} is no longer available: it was evicted from storage on ${new Date(found.evictedAt).toISOString()} (saved outputs are kept ${days} days, and the oldest go first when storage is full). Run the tool again to see its output.`,
    );
  }
  if (found.kind === 'missing') {
    throw new ToolInputError(
      `No saved output at ${path}. Saved outputs are named after the tool_use_id in their <persisted-output> block.`,
    );
  }
  const lines = splitLines(found.text);
  const startLine = Math.max(1, input.offset ?? 1);
  const { shown, outputCapped } =
    startLine > lines.length
      ? { shown: [], outputCapped: false }
      : windowOf(lines, startLine, input.limit ?? READ_DEFAULT_LINE_LIMIT);
  return {
    filePath: path,
    content: shown.join('\n'),
    startLine,
    numLines: shown.length,
    totalLines: lines.length,
    ...(outputCapped ? { outputCapped: true } : {}),
  };
}

function lineRangeLabel(input: Partial<ReadInput>): string | undefined {
  if (input.offset === undefined && input.limit === undefined) return undefined;
  const start = Math.max(1, input.offset ?? 1);
  return input.limit !== undefined ? `lines ${start}-${start + input.limit - 1}` : `from line ${start}`;
}

export const ReadTool = buildTool({
  name: 'Read',
  searchHint: 'read view open show file contents cat lines',
  inputSchema,
  maxResultSizeChars: Number.POSITIVE_INFINITY,

  userFacingName: () => 'Read',
  description: () => 'Read a text file of the workspace (cat -n format, with optional line offset/limit).',
  prompt: () => PROMPT,

  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  preparePermissionMatcher: (input): FilePermissionMatcher => ({
    kind: 'file',
    access: 'read',
    path: input.file_path,
  }),

  /** Allowed inside the workspace (reading is harmless there); denied outside it. */
  async checkPermissions(input, permCtx) {
    if (parseSpilledResultPath(input.file_path)) return { behavior: 'allow' };
    try {
      resolveInside(permCtx.root, permCtx.cwd, input.file_path);
      return { behavior: 'allow' };
    } catch (err) {
      return { behavior: 'deny', message: errorMessage(err) };
    }
  },

  validateInput(input, ctx) {
    if (parseSpilledResultPath(input.file_path)) return null;
    const resolved = resolveFilePath(ctx, input.file_path);
    return resolved.ok ? null : resolved.error;
  },

  async call(input, ctx) {
    const spilled = parseSpilledResultPath(input.file_path);
    if (spilled) return { data: await readSpilledResult(spilled, input, ctx) };
    const resolved = resolveFilePath(ctx, input.file_path);
    if (!resolved.ok) throw new ToolInputError(resolved.error);
    const filePath = resolved.path;
    let snap: Awaited<ReturnType<typeof readSnapshot>>;
    try {
      snap = await readSnapshot(ctx, filePath);
    } catch (err) {
      throw new ToolInputError(errorMessage(err));
    }
    ctx.abortController.signal.throwIfAborted();
    if (snap.kind === 'missing') throw new ToolInputError(await describeMissingFile(ctx, filePath));
    if (snap.kind === 'directory') {
      throw new ToolInputError(
        `${filePath} is a directory, not a file. Use the Bash tool with \`ls\` or the Glob tool to list its contents.`,
      );
    }
    if (snap.binary) {
      throw new ToolInputError(
        `${filePath} is a binary file (it contains NUL bytes, ${snap.size} bytes in all); Read shows text files only. Use the Bash tool (e.g. \`file\`, \`od -c | head\`) to inspect it.`,
      );
    }
    if (filePath.endsWith('.ipynb') && snap.content.trim() !== '') {
      // A notebook reads as its cells with their outputs; one that does not parse reads as text.
      const notebook = readNotebook(snap.content, filePath);
      if (notebook !== null) {
        await recordRead(ctx, filePath, snap, snap.mtimeMs, false);
        const total = splitLines(notebook).length;
        return {
          data: {
            filePath,
            content: notebook,
            startLine: 1,
            numLines: total,
            totalLines: total,
            notebook: true,
          },
        };
      }
    }
    const lines = splitLines(snap.content.startsWith('\uFEFF') ? snap.content.slice(1) : snap.content);
    const startLine = Math.max(1, input.offset ?? 1);
    const limit = input.limit ?? READ_DEFAULT_LINE_LIMIT;
    const { shown, outputCapped } =
      startLine > lines.length ? { shown: [], outputCapped: false } : windowOf(lines, startLine, limit);
    const partial = shown.length < lines.length;
    await recordRead(ctx, filePath, snap, snap.mtimeMs, partial);
    const data: ReadOutput = {
      filePath,
      content: shown.join('\n'),
      startLine,
      numLines: shown.length,
      totalLines: lines.length,
      ...(outputCapped ? { outputCapped: true } : {}),
    };
    return { data };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId) {
    return textResult(toolUseId, formatReadResult(output));
  },

  renderToolUseMessage(input) {
    const range = lineRangeLabel(input);
    return {
      title: 'Read',
      ...(input.file_path !== undefined
        ? { subtitle: range ? `${input.file_path} (${range})` : input.file_path }
        : {}),
      body: { kind: 'none' },
    };
  },

  renderToolResultMessage(output) {
    if (output.notebook)
      return { kind: 'code', path: output.filePath, code: output.content, language: 'xml' };
    if (output.numLines === 0) {
      const text =
        output.totalLines === 0
          ? 'The file is empty.'
          : `The file has ${output.totalLines} lines; nothing from line ${output.startLine}.`;
      return { kind: 'text', text };
    }
    const language = languageOf(output.filePath);
    return { kind: 'code', path: output.filePath, code: output.content, ...(language ? { language } : {}) };
  },

  toAutoClassifierInput(input) {
    const range = lineRangeLabel(input);
    return range ? `${input.file_path} (${range})` : input.file_path;
  },
});
