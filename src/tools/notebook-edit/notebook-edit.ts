/**
 * NotebookEdit: replaces, inserts or deletes one cell of a Jupyter notebook in the workspace. Like
 * Edit it refuses a notebook that was not read or changed since (readFileState), and a file that is
 * not a notebook gets a clear error. Writes finish once started (interruptBehavior 'finish').
 */
import { z } from 'zod';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import {
  checkWritable,
  errorMessage,
  readSnapshot,
  recordRead,
  resolveFilePath,
} from '../shared/file-state.ts';
import { editCell, notebookLanguage, parseNotebook, serializeNotebook, sourceText } from './notebook.ts';
import promptText from './prompt.md?raw';

const inputSchema = z.strictObject({
  notebook_path: z.string().describe('The absolute path to the Jupyter notebook file to edit'),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The id of the cell to edit (as Read shows it). When inserting, the new cell goes after this one, or at the top without it.',
    ),
  new_source: z.string().describe('The new source for the cell'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('The type of the cell. Defaults to the current type; required with edit_mode=insert.'),
  edit_mode: z
    .enum(['replace', 'insert', 'delete'])
    .optional()
    .describe('The kind of edit: replace (default), insert or delete'),
});

export type NotebookEditInput = z.infer<typeof inputSchema>;

export interface NotebookEditOutput {
  notebookPath: string;
  editMode: 'replace' | 'insert' | 'delete';
  cellId: string;
  cellType: string;
  language: string;
  oldSource?: string;
  newSource: string;
}

/** Reads, checks and edits the notebook; returns the new text and what changed. Throws ToolInputError. */
async function plan(input: NotebookEditInput, ctx: Parameters<typeof resolveFilePath>[0]) {
  const resolved = resolveFilePath(ctx, input.notebook_path);
  if (!resolved.ok) throw new ToolInputError(resolved.error);
  const path = resolved.path;
  if (!path.endsWith('.ipynb')) {
    throw new ToolInputError(`${path} is not a Jupyter notebook (.ipynb): use Edit for other files.`);
  }
  let snap: Awaited<ReturnType<typeof readSnapshot>>;
  try {
    snap = await readSnapshot(ctx, path);
  } catch (err) {
    throw new ToolInputError(errorMessage(err));
  }
  if (snap.kind === 'missing') throw new ToolInputError(`Notebook does not exist: ${path}.`);
  if (snap.kind === 'directory') throw new ToolInputError(`${path} is a directory, not a notebook.`);
  const stale = await checkWritable(ctx, path, snap);
  if (stale) throw new ToolInputError(stale);
  const nb = parseNotebook(snap.content, path);
  const mode = input.edit_mode ?? 'replace';
  const edited = editCell(nb, {
    mode,
    cellId: input.cell_id,
    source: input.new_source,
    cellType: input.cell_type,
  });
  return { path, nb, mode, edited };
}

export const NotebookEditTool = buildTool({
  name: 'NotebookEdit',
  searchHint: 'jupyter notebook ipynb cell edit insert delete',
  inputSchema,
  shouldDefer: true,
  description: () => 'Replace, insert or delete a cell of a Jupyter notebook',
  prompt: () => promptText.trim(),

  interruptBehavior: () => 'finish',
  preparePermissionMatcher: (input): FilePermissionMatcher => ({
    kind: 'file',
    access: 'write',
    path: input.notebook_path,
  }),
  isDestructive: (input) => input?.edit_mode === 'delete',

  async validateInput(input, ctx) {
    try {
      await plan(input, ctx);
      return null;
    } catch (err) {
      return err instanceof ToolInputError ? err.message : errorMessage(err);
    }
  },

  async call(input, ctx) {
    const { path, nb, mode, edited } = await plan(input, ctx);
    const text = serializeNotebook(edited.notebook);
    try {
      await ctx.sandbox.writeFile(path, text);
      const st = await ctx.sandbox.stat(path);
      await recordRead(ctx, path, text, st.mtimeMs, false);
    } catch (err) {
      throw new ToolInputError(errorMessage(err));
    }
    const data: NotebookEditOutput = {
      notebookPath: path,
      editMode: mode,
      cellId: edited.cellId,
      cellType: edited.cellType,
      language: notebookLanguage(nb),
      ...(edited.oldSource !== undefined ? { oldSource: edited.oldSource } : {}),
      newSource: mode === 'delete' ? '' : sourceText(input.new_source),
    };
    return { data };
  },

  mapToolResultToToolResultBlockParam(output: NotebookEditOutput, toolUseId) {
    const what =
      output.editMode === 'delete'
        ? `Deleted cell ${output.cellId}`
        : output.editMode === 'insert'
          ? `Inserted ${output.cellType} cell ${output.cellId}`
          : `Updated cell ${output.cellId}`;
    return textResult(toolUseId, `${what} of ${output.notebookPath}.`);
  },

  renderToolUseMessage: (input) => ({
    title: 'NotebookEdit',
    subtitle: input.notebook_path
      ? `${input.notebook_path}${input.cell_id ? ` (${input.cell_id})` : ''}`
      : undefined,
    body:
      input.edit_mode === 'delete' || input.new_source === undefined
        ? { kind: 'none' }
        : {
            kind: 'code',
            code: input.new_source,
            language: input.cell_type === 'markdown' ? 'markdown' : 'python',
          },
  }),
  renderToolResultMessage: (output) => ({
    kind: 'diff',
    path: `${output.notebookPath} › ${output.cellId}`,
    before: output.oldSource ?? '',
    after: output.newSource,
  }),
  toAutoClassifierInput: (input) =>
    `${input.edit_mode ?? 'replace'} ${input.notebook_path}${input.cell_id ? ` ${input.cell_id}` : ''}`,
});
