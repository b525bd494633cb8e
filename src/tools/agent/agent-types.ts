/**
 * Sub-agent types: what each may use and what it is told. `general-purpose` gets every tool of the
 * parent's pool but those that need the user or would nest further (Agent, AskUserQuestion, the plan
 * tools); `Explore` gets the read-only ones and its calls must be read-only (a write is refused
 * before it is asked about). Pure data and functions; no import of the loop.
 */
import type { AnyTool } from '../../core/tool.ts';

export const AGENT_TOOL_NAME = 'Agent';
export const DEFAULT_AGENT_TYPE = 'general-purpose';

/** Tools no sub-agent gets: they nest conversations or need the user, whom only the main agent talks to. */
export const SUBAGENT_DISALLOWED_TOOLS: ReadonlySet<string> = new Set([
  AGENT_TOOL_NAME,
  'AskUserQuestion',
  'EnterPlanMode',
  'ExitPlanMode',
]);

export interface AgentType {
  name: string;
  /** When to use it (the Agent tool's prompt lists it). */
  whenToUse: string;
  /** Every call must be read-only. */
  readOnly: boolean;
  /** Added to the parent's system prompt for this sub-agent. */
  instructions: string;
}

export const AGENT_TYPES: readonly AgentType[] = [
  {
    name: DEFAULT_AGENT_TYPE,
    whenToUse:
      'multi-step tasks done on their own: researching a question across many files, making a self-contained change, running and fixing something. It has the same tools as you (but cannot start agents or ask the user).',
    readOnly: false,
    instructions:
      'You are a sub-agent: another agent gave you the task below and will read only your final message. Work on it on your own with the tools you have; you cannot ask the user anything. Do what was asked, nothing more, and check your work. End with a concise report: what you found or changed (with file paths), and anything left undone.',
  },
  {
    name: 'Explore',
    whenToUse:
      'fast read-only exploration: finding files, searching code, answering "where is X / how does Y work". It can only read (Read, Glob, Grep, read-only Bash, searches), never change anything.',
    readOnly: true,
    instructions:
      'You are a read-only exploring sub-agent: another agent gave you the question below and will read only your final message. Find the answer by reading and searching (Glob, Grep, Read, read-only Bash commands); you cannot change any file, and any call that would is refused. Search broadly first, then read what matters. End with a concise answer that names the files and lines it rests on.',
  },
];

export function findAgentType(name: string | undefined): AgentType | undefined {
  const wanted = name?.trim() || DEFAULT_AGENT_TYPE;
  return AGENT_TYPES.find((t) => t.name === wanted || t.name.toLowerCase() === wanted.toLowerCase());
}

/** True when the tool is read-only whatever its input (Read, Glob...); Bash depends on its command. */
function alwaysReadOnly(tool: AnyTool): boolean {
  try {
    return tool.isReadOnly() === true;
  } catch {
    return false;
  }
}

/** The tool pool a sub-agent of `type` gets from its parent's pool (order kept: the cache prefix). */
export function subagentTools(type: AgentType, parentPool: readonly AnyTool[]): AnyTool[] {
  const allowed = parentPool.filter((t) => !SUBAGENT_DISALLOWED_TOOLS.has(t.name));
  if (!type.readOnly) return allowed;
  // Bash stays: its read-only commands (ls, git log) are what exploring needs; a writing one is refused.
  return allowed.filter((t) => alwaysReadOnly(t) || t.name === 'Bash');
}
