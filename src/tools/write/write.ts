/**
 * Write: creates a file of the sandbox workspace, or replaces one the agent has read and that has not
 * changed since. Creates missing parent directories. Finishes its write when the user interrupts.
 */
import { z } from 'zod';
import { WORKSPACE_ROOT } from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import { changeSnippet, languageOf } from '../shared/diff.ts';
import {
  checkParentDirs,
  checkWritable,
  errorMessage,
  readSnapshot,
  recordRead,
  resolveFilePath,
} from '../shared/file-state.ts';
import promptText from './prompt.md?raw';

const PROMPT = promptText.replaceAll('{{WORKSPACE_ROOT}}', WORKSPACE_ROOT);

/** Characters of content kept in the classifier text. */
const CLASSIFIER_CONTENT_CHARS = 2000;

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe(
      'The absolute path to the file to write (a relative path is resolved against the current directory)',
    ),
  content: z.string().describe('The content to write to the file'),
});

export type WriteInput = z.infer<typeof inputSchema>;

/** What one Write did. */
export interface WriteOutput {
  type: 'create' | 'update';
  /** Absolute path inside the workspace. */
  filePath: string;
  /** The previous content (null when the file was created). */
  before: string | null;
  after: string;
}

/** Where a write will go and what it replaces, or why it may not happen. */
type WritePlan = { ok: true; filePath: string; before: string | null } | { ok: false; error: string };

/**
 * All checks of a write, without writing: path inside the workspace, not a directory, read and fresh
 * when it exists, creatable (no ancestor is a file) when it does not.
 */
async function planWrite(input: WriteInput, ctx: ToolUseContext): Promise<WritePlan> {
  const resolved = resolveFilePath(ctx, input.file_path);
  if (!resolved.ok) return resolved;
  const filePath = resolved.path;
  try {
    const snap = await readSnapshot(ctx, filePath);
    if (snap.kind === 'directory') {
      return {
        ok: false,
        error: `${filePath} is a directory, not a file. Give the path of a file inside it.`,
      };
    }
    const error =
      snap.kind === 'missing'
        ? await checkParentDirs(ctx, filePath)
        : await checkWritable(ctx, filePath, snap);
    if (error) return { ok: false, error };
    return { ok: true, filePath, before: snap.kind === 'file' ? snap.content : null };
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}

/** The model-facing text of a Write result (Claude Code's wording, with a short snippet). */
export function formatWriteResult(output: WriteOutput): string {
  if (output.type === 'create') return `File created successfully at: ${output.filePath}`;
  const snippet = changeSnippet(output.before ?? '', output.after);
  if (!snippet) return `The file ${output.filePath} has been updated (its content is unchanged).`;
  return `The file ${output.filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`;
}

export const WriteTool = buildTool({
  name: 'Write',
  searchHint: 'write create save overwrite new file',
  inputSchema,

  userFacingName: () => 'Write',
  description: () => 'Create a file, or overwrite one that was read first (parent directories are created).',
  prompt: () => PROMPT,

  interruptBehavior: () => 'finish',
  preparePermissionMatcher: (input): FilePermissionMatcher => ({
    kind: 'file',
    access: 'write',
    path: input.file_path,
  }),

  /** Refuses a path outside the workspace, a directory, an unread file and a file changed since read. */
  async validateInput(input, ctx) {
    const plan = await planWrite(input, ctx);
    return plan.ok ? null : plan.error;
  },

  async call(input, ctx) {
    const plan = await planWrite(input, ctx);
    if (!plan.ok) throw new ToolInputError(plan.error);
    const { filePath, before } = plan;
    try {
      await ctx.sandbox.writeFile(filePath, input.content);
      const st = await ctx.sandbox.stat(filePath);
      await recordRead(ctx, filePath, input.content, st.mtimeMs, false);
    } catch (err) {
      throw new ToolInputError(errorMessage(err));
    }
    const data: WriteOutput = {
      type: before === null ? 'create' : 'update',
      filePath,
      before,
      after: input.content,
    };
    return { data };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId) {
    return textResult(toolUseId, formatWriteResult(output));
  },

  renderToolUseMessage(input) {
    const language = input.file_path !== undefined ? languageOf(input.file_path) : undefined;
    return {
      title: 'Write',
      ...(input.file_path !== undefined ? { subtitle: input.file_path } : {}),
      body: { kind: 'code', code: input.content ?? '', ...(language ? { language } : {}) },
    };
  },

  renderToolResultMessage(output) {
    return { kind: 'diff', path: output.filePath, before: output.before ?? '', after: output.after };
  },

  toAutoClassifierInput(input) {
    const content =
      input.content.length > CLASSIFIER_CONTENT_CHARS
        ? `${input.content.slice(0, CLASSIFIER_CONTENT_CHARS)}… [${input.content.length} characters in all]`
        : input.content;
    return `${input.file_path}: ${content}`;
  },
});
