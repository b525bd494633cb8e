/** Slash commands: what the prompt box's menu lists and what a typed command resolves to. */

export type SlashCommandSource = 'builtin' | 'project' | 'skill' | 'mcp';

export interface SlashCommandInfo {
  /** Without the slash: `compact`, `fix-issue`, `frontend:component`, `mcp__docs__summarize`. */
  name: string;
  description: string;
  /** Shown after the name in the menu, e.g. `[instructions]`. */
  argumentHint?: string;
  source: SlashCommandSource;
  /** Where it is defined (a workspace path, or the MCP server). */
  origin?: string;
}

/** A project command or skill read from the workspace. */
export interface PromptCommand extends SlashCommandInfo {
  source: 'project' | 'skill';
  /** The markdown body (front matter removed): the prompt, `$ARGUMENTS` and `$1`…`$9` filled in. */
  body: string;
}
