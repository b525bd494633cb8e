/**
 * `@` mentions of workspace files in a prompt: each mentioned file is read with the Read tool itself (as
 * Claude Code attaches them), so the model gets its contents in Read's format and the file counts as
 * read for Edit and Write. A directory is listed. Mentions of MCP resources (`@server:uri`) are left to
 * the MCP expansion. Never throws: a mention that cannot be attached is noted for the model and the user.
 */
import { MAX_MENTION_FILE_CHARS, MAX_MENTIONED_FILES } from '../../core/constants.ts';
import type { ToolUseContext } from '../../core/context.ts';
import { messageOf } from '../../core/errors.ts';
import type { TextBlockParam } from '../../core/messages.ts';
import { relativeTo, resolveInside } from '../../sandbox/sandbox.ts';
import { ReadTool } from '../../tools/read/read.ts';

/** The `@path` words of a prompt, in order, without duplicates (trailing punctuation dropped). */
export function findFileMentions(prompt: string): string[] {
  const out: string[] = [];
  for (const m of prompt.matchAll(/(?:^|\s)@("([^"]+)"|[^\s"]+)/g)) {
    const raw = (m[2] ?? m[1]).replace(/[.,;:!?)\]]+$/, '');
    // `@server:uri` is an MCP resource; an e-mail address has no leading space before its @.
    if (!raw || raw.includes(':')) continue;
    if (!out.includes(raw)) out.push(raw);
  }
  return out;
}

export interface AttachedMentions {
  /** Blocks for the user message (one per mention). */
  blocks: TextBlockParam[];
  /** Workspace paths attached. */
  attached: string[];
  /** Mentions that could not be attached, with why. */
  problems: string[];
}

const wrap = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;

function cut(text: string): string {
  if (text.length <= MAX_MENTION_FILE_CHARS) return text;
  return `${text.slice(0, MAX_MENTION_FILE_CHARS)}\n… [cut at ${MAX_MENTION_FILE_CHARS} characters: Read the rest with offset and limit]`;
}

/** Reads every file the prompt mentions (at most MAX_MENTIONED_FILES). */
export async function attachMentions(prompt: string, ctx: ToolUseContext): Promise<AttachedMentions> {
  const out: AttachedMentions = { blocks: [], attached: [], problems: [] };
  const mentions = findFileMentions(prompt);
  for (const [i, mention] of mentions.entries()) {
    if (i >= MAX_MENTIONED_FILES) {
      out.problems.push(
        `Only the first ${MAX_MENTIONED_FILES} mentioned files are attached; @${mention} and later ones were not.`,
      );
      break;
    }
    let abs: string;
    try {
      abs = resolveInside(ctx.sandbox.root, ctx.options.cwd, mention);
    } catch (err) {
      out.problems.push(`@${mention}: ${messageOf(err)}`);
      continue;
    }
    const rel = relativeTo(ctx.sandbox.root, abs) || '.';
    try {
      if (!(await ctx.sandbox.exists(abs))) {
        out.problems.push(`@${mention}: there is no such file in the workspace.`);
        continue;
      }
      if ((await ctx.sandbox.stat(abs)).type === 'directory') {
        const entries = await ctx.sandbox.readdir(abs);
        const listing = entries.map((e) => `${e.name}${e.type === 'directory' ? '/' : ''}`).join('\n');
        out.blocks.push({
          type: 'text',
          text: wrap(`The user mentioned the directory @${rel}. Its entries:\n${cut(listing) || '(empty)'}`),
        });
        out.attached.push(rel);
        continue;
      }
      const result = await ReadTool.call({ file_path: abs }, ctx, () => {});
      const block = ReadTool.mapToolResultToToolResultBlockParam(result.data, 'mention');
      const content =
        typeof block.content === 'string'
          ? block.content
          : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      out.blocks.push({
        type: 'text',
        text: wrap(
          `The user mentioned @${rel}. Its contents, as the Read tool gives them (it counts as read):\n${cut(content)}`,
        ),
      });
      out.attached.push(rel);
    } catch (err) {
      out.problems.push(`@${mention}: ${messageOf(err)}`);
    }
  }
  if (out.problems.length)
    out.blocks.push({ type: 'text', text: wrap(`Not attached: ${out.problems.join(' ')}`) });
  return out;
}
