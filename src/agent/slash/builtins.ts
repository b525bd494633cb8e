/** The built-in commands (Claude Code's), handled in the page: none of them is sent to the model as text. */
import type { SlashCommandInfo } from './types.ts';

const builtin = (name: string, description: string, argumentHint?: string): SlashCommandInfo => ({
  name,
  description,
  source: 'builtin',
  ...(argumentHint ? { argumentHint } : {}),
});

export const BUILTIN_COMMANDS: readonly SlashCommandInfo[] = [
  builtin('clear', 'Start a new conversation (this one stays in the sessions list)'),
  builtin('compact', 'Summarize the conversation to free context', '[instructions]'),
  builtin('context', 'What fills the context window: tools, system, messages'),
  builtin('cost', 'Tokens and estimated cost of this session'),
  builtin('export', 'Download this session as JSON'),
  builtin('help', 'List the commands'),
  builtin('init', 'Ask the agent to write a CLAUDE.md for this project'),
  builtin('mcp', 'MCP servers and their tools'),
  builtin('memory', 'Open CLAUDE.md, the project memory'),
  builtin('model', 'Show or set the model', '[model]'),
  builtin('permissions', 'Permission rules and hooks'),
  builtin('resume', 'Open an earlier session', '[title]'),
];

export const BUILTIN_NAMES = new Set(BUILTIN_COMMANDS.map((c) => c.name));

/** What /init asks the agent for (it reaches the model: that is its point). */
export const INIT_PROMPT = [
  'Please look through this project and write a CLAUDE.md file at its root: the instructions a coding agent should follow when it works here.',
  'Include: what the project is, how to build, run and test it (the exact commands), how the code is laid out, and the conventions its code follows (style, naming, patterns) as you find them in the files.',
  'Keep it short and factual: only what is true of this project, nothing generic. If a CLAUDE.md exists already, improve it instead of starting over.',
].join(' ');
