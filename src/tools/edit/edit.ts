/**
 * Edit: exact string replacement in a file of the sandbox workspace the agent has read and that has not
 * changed since (Claude Code's rules). An empty old_string creates a file. Finishes its write when the
 * user interrupts.
 */
import { z } from 'zod';
import { WORKSPACE_ROOT } from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import type { FilePermissionMatcher } from '../../core/permissions/types.ts';
import { buildTool, ToolInputError, textResult } from '../../core/tool.ts';
import { changeSnippet } from '../shared/diff.ts';
import {
  checkParentDirs,
  checkWritable,
  describeMissingFile,
  errorMessage,
  readSnapshot,
  recordRead,
  resolveFilePath,
} from '../shared/file-state.ts';
import promptText from './prompt.md?raw';

const PROMPT = promptText.replaceAll('{{WORKSPACE_ROOT}}', WORKSPACE_ROOT);

/** Characters of new_string kept in the classifier text. */
const CLASSIFIER_CONTENT_CHARS = 2000;

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe(
      'The absolute path to the file to modify (a relative path is resolved against the current directory)',
    ),
  old_string: z.string().describe('The text to replace'),
  new_string: z.string().describe('The text to replace it with (must be different from old_string)'),
  replace_all: z
    .boolean()
    .default(false)
    .optional()
    .describe('Replace all occurrences of old_string (default false)'),
});

export type EditInput = z.infer<typeof inputSchema>;

/** What one Edit did. */
export interface EditOutput {
  /** Absolute path inside the workspace. */
  filePath: string;
  /** The content before the edit ('' when the edit created the file). */
  before: string;
  after: string;
  /** How many occurrences were replaced (1 when the file was created). */
  replacements: number;
  /** The file did not exist and was created (empty old_string). */
  created: boolean;
}

export const SAME_STRINGS_ERROR = 'No changes to make: old_string and new_string are exactly the same.';
export const FILE_EXISTS_ERROR = 'Cannot create new file - file already exists.';

const CURLY_QUOTES = /[\u2018\u2019\u201C\u201D]/g;
const STRAIGHT: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201C': '"', '\u201D': '"' };

/** Curly quotes replaced by straight ones (same length: one code unit each). */
export function normalizeQuotes(text: string): string {
  return text.replace(CURLY_QUOTES, (c) => STRAIGHT[c]);
}

/** Straight quotes turned curly (opening after start/space/bracket, closing otherwise), per kind. */
function curlify(text: string, doubles: boolean, singles: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const opening = i === 0 || /[\s([{\u2013\u2014]/.test(text[i - 1]);
    if (c === '"' && doubles) out += opening ? '\u201C' : '\u201D';
    else if (c === "'" && singles) out += opening ? '\u2018' : '\u2019';
    else out += c;
  }
  return out;
}

/** Non-overlapping occurrences of `needle` (not empty) in `haystack`. */
function countOccurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/**
 * The strings to really replace: `oldString` as it occurs in `content`, and `newString` adapted the same
 * way. Tries the exact string first; then, for a CRLF file, the string with `\n` as `\r\n`; then each
 * with curly quotes normalized (the file's quote style is carried over to the new string). Null when
 * nothing matches.
 */
export function findActualStrings(
  content: string,
  oldString: string,
  newString: string,
): { oldString: string; newString: string } | null {
  const candidates = [{ oldString, newString }];
  if (content.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    candidates.push({
      oldString: oldString.replace(/\n/g, '\r\n'),
      newString: newString.replace(/\r?\n/g, '\r\n'),
    });
  }
  for (const c of candidates) if (content.includes(c.oldString)) return c;
  const normalizedContent = normalizeQuotes(content);
  for (const c of candidates) {
    const at = normalizedContent.indexOf(normalizeQuotes(c.oldString));
    if (at < 0) continue;
    const actual = content.slice(at, at + c.oldString.length);
    const doubles = /[\u201C\u201D]/.test(actual);
    const singles = /[\u2018\u2019]/.test(actual);
    return { oldString: actual, newString: curlify(c.newString, doubles, singles) };
  }
  return null;
}

/** The edit to make, or why it may not happen. */
type EditPlan = ({ ok: true } & EditOutput) | { ok: false; error: string };

/** All checks of an edit and its result, without writing (Claude Code's order of checks). */
async function planEdit(input: EditInput, ctx: ToolUseContext): Promise<EditPlan> {
  const { old_string: oldString, new_string: newString } = input;
  if (oldString === newString) return { ok: false, error: SAME_STRINGS_ERROR };
  const resolved = resolveFilePath(ctx, input.file_path);
  if (!resolved.ok) return resolved;
  const filePath = resolved.path;
  let snap: Awaited<ReturnType<typeof readSnapshot>>;
  try {
    snap = await readSnapshot(ctx, filePath);
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
  if (snap.kind === 'missing') {
    if (oldString === '') {
      const blocked = await checkParentDirs(ctx, filePath);
      if (blocked) return { ok: false, error: blocked };
      return { ok: true, filePath, before: '', after: newString, replacements: 1, created: true };
    }
    return { ok: false, error: await describeMissingFile(ctx, filePath) };
  }
  if (snap.kind === 'directory') return { ok: false, error: `${filePath} is a directory, not a file.` };
  if (oldString === '') {
    // An empty existing file may be filled without a Read (there is nothing to lose), as in Claude Code.
    if (snap.content.trim() !== '') return { ok: false, error: FILE_EXISTS_ERROR };
    return { ok: true, filePath, before: snap.content, after: newString, replacements: 1, created: false };
  }
  const notWritable = await checkWritable(ctx, filePath, snap);
  if (notWritable) return { ok: false, error: notWritable };
  if (!snap.validUtf8) {
    return {
      ok: false,
      error: `${filePath} is not valid UTF-8 text; editing it as text would corrupt it. Use the Bash tool to change it.`,
    };
  }
  const content = snap.content;
  const actual = findActualStrings(content, oldString, newString);
  if (!actual) return { ok: false, error: `String to replace not found in file.\nString: ${oldString}` };
  const matches = countOccurrences(content, actual.oldString);
  if (matches > 1 && !input.replace_all) {
    return {
      ok: false,
      error: `Found ${matches} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${oldString}`,
    };
  }
  const after = input.replace_all
    ? content.split(actual.oldString).join(actual.newString)
    : (() => {
        const at = content.indexOf(actual.oldString);
        return content.slice(0, at) + actual.newString + content.slice(at + actual.oldString.length);
      })();
  return { ok: true, filePath, before: content, after, replacements: matches, created: false };
}

/** The model-facing text of an Edit result: a confirmation and a `cat -n` snippet of the changed region. */
export function formatEditResult(output: EditOutput): string {
  if (output.created) return `File created successfully at: ${output.filePath}`;
  const head =
    output.replacements > 1
      ? `The file ${output.filePath} has been updated. All ${output.replacements} occurrences were replaced.`
      : `The file ${output.filePath} has been updated.`;
  const snippet = changeSnippet(output.before, output.after);
  if (!snippet) return head;
  return `${head} Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`;
}

function capped(text: string): string {
  return text.length > CLASSIFIER_CONTENT_CHARS
    ? `${text.slice(0, CLASSIFIER_CONTENT_CHARS)}… [${text.length} characters in all]`
    : text;
}

export const EditTool = buildTool({
  name: 'Edit',
  searchHint: 'edit modify change replace string update file',
  inputSchema,

  userFacingName: (input) => (input?.old_string === '' ? 'Create' : 'Update'),
  description: () => 'Replace an exact string in a file that was read first (or create a file).',
  prompt: () => PROMPT,

  interruptBehavior: () => 'finish',
  preparePermissionMatcher: (input): FilePermissionMatcher => ({
    kind: 'file',
    access: 'write',
    path: input.file_path,
  }),

  /** Every rule of an edit is checked here, before permission is asked, so a doomed edit is never prompted. */
  async validateInput(input, ctx) {
    const plan = await planEdit(input, ctx);
    return plan.ok ? null : plan.error;
  },

  async call(input, ctx) {
    const plan = await planEdit(input, ctx);
    if (!plan.ok) throw new ToolInputError(plan.error);
    const { ok: _ok, ...data } = plan;
    try {
      await ctx.sandbox.writeFile(data.filePath, data.after);
      const st = await ctx.sandbox.stat(data.filePath);
      await recordRead(ctx, data.filePath, data.after, st.mtimeMs, false);
    } catch (err) {
      throw new ToolInputError(errorMessage(err));
    }
    return { data };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId) {
    return textResult(toolUseId, formatEditResult(output));
  },

  renderToolUseMessage(input) {
    return {
      title: input.old_string === '' ? 'Create' : 'Update',
      ...(input.file_path !== undefined ? { subtitle: input.file_path } : {}),
      body: {
        kind: 'diff',
        path: input.file_path ?? '',
        before: input.old_string ?? '',
        after: input.new_string ?? '',
      },
    };
  },

  renderToolResultMessage(output) {
    return { kind: 'diff', path: output.filePath, before: output.before, after: output.after };
  },

  toAutoClassifierInput(input) {
    return `${input.file_path}: ${capped(input.new_string)}`;
  },
});
