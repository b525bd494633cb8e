/**
 * What a typed prompt becomes before it is sent: a slash command expanded (project commands, skills,
 * MCP prompts) or refused (unknown commands, the page's own commands), the project memory stated when
 * it changed, the session's hooks run (SessionStart once, UserPromptSubmit every prompt: it may block),
 * mentioned files attached. The typed text stays what the page shows. Never throws.
 */

import type { ToolUseContext } from '../../core/context.ts';
import type { SessionStartSource } from '../../core/hooks/types.ts';
import { memoryDelta, memoryReminder } from '../../core/memory.ts';
import type { ContentBlockParam, MessageParam, TextBlockParam } from '../../core/messages.ts';
import type { McpManager } from '../../mcp/manager.ts';
import { promptCommand } from '../../mcp/prompts.ts';
import { BUILTIN_NAMES, INIT_PROMPT } from '../slash/builtins.ts';
import { fillArguments, parseSlashCommand, unknownCommandHint } from '../slash/parse.ts';
import { loadWorkspaceCommands, skillPrompt } from '../slash/workspace-commands.ts';
import type { SessionEvent } from '../types.ts';
import { readMemory } from './memory-files.ts';
import { attachMentions } from './mentions.ts';
import type { SessionHooks } from './session-hooks.ts';

export interface PrepareTurnDeps {
  context: ToolUseContext;
  transcript: readonly MessageParam[];
  hooks?: SessionHooks;
  mcp?: McpManager;
  /** Memory an embedding page supplied. */
  embeddedMemory?: string | null;
  /** Set when SessionStart hooks are due (a new, resumed, cleared or compacted conversation). */
  sessionStart?: SessionStartSource;
  emit: (event: SessionEvent) => void;
}

export type PreparedTurn = { ok: true; blocks: ContentBlockParam[] } | { ok: false; reason: string };

const reminder = (text: string): TextBlockParam => ({
  type: 'text',
  text: `<system-reminder>\n${text}\n</system-reminder>`,
});

/**
 * The content a workspace slash command sends, why a command sends nothing, or null when the prompt is
 * no command of ours (plain text, or an MCP prompt `/mcp__…`, which the MCP expansion handles).
 */
async function expandCommand(prompt: string, deps: PrepareTurnDeps): Promise<PreparedTurn | null> {
  const command = parseSlashCommand(prompt);
  if (!command || command.name.startsWith('mcp__')) return null;
  const workspace = await loadWorkspaceCommands(deps.context.sandbox);
  const found = workspace.find((c) => c.name === command.name);
  if (found) {
    const text =
      found.source === 'skill' ? skillPrompt(found, command.args) : fillArguments(found.body, command.args);
    if (!text.trim())
      return { ok: false, reason: `/${command.name} (${found.origin}) is empty: nothing was sent.` };
    return { ok: true, blocks: [{ type: 'text', text }] };
  }
  // /init is meant for the model: it asks the agent to write CLAUDE.md.
  if (command.name === 'init') {
    const extra = command.args ? `\n\nThe user adds: ${command.args}` : '';
    return { ok: true, blocks: [{ type: 'text', text: `${INIT_PROMPT}${extra}` }] };
  }
  if (BUILTIN_NAMES.has(command.name)) {
    return {
      ok: false,
      reason: `/${command.name} is a command of the prompt box; it is never sent to the model. Type it in the prompt box.`,
    };
  }
  const known = [
    ...BUILTIN_NAMES,
    ...workspace.map((c) => c.name),
    ...(deps.mcp?.prompts().map(promptCommand) ?? []),
  ];
  return { ok: false, reason: unknownCommandHint(command.name, known) };
}

/**
 * Prepares the user message of a prompt (see the module comment). `content` is the prompt as the MCP
 * expansion made it (its prompt commands and resource mentions expanded); a workspace command replaces it.
 */
export async function prepareTurn(
  prompt: string,
  content: readonly ContentBlockParam[],
  deps: PrepareTurnDeps,
): Promise<PreparedTurn> {
  const signal = deps.context.abortController.signal;
  const expanded = await expandCommand(prompt, deps);
  if (expanded && !expanded.ok) return expanded;
  const body: ContentBlockParam[] = expanded?.blocks ?? [...content];

  const before: ContentBlockParam[] = [];
  const memory = await readMemory(deps.context.sandbox, deps.embeddedMemory);
  const stated = memoryReminder(memory.sources);
  const delta = memoryDelta(deps.transcript, stated);
  if (delta) {
    before.push(delta);
    deps.emit({
      type: 'memory-loaded',
      files: memory.sources.map((s) => s.label),
      chars: memory.sources.reduce((n, s) => n + s.text.length, 0),
      cutChars: stated?.cutChars ?? 0,
      problems: memory.problems,
    });
  }

  const hooks = deps.hooks;
  if (hooks) {
    await hooks.refresh();
    const options = {
      signal,
      cwd: deps.context.options.cwd,
      permissionMode: deps.context.options.permissionMode,
    };
    if (deps.sessionStart) {
      const start = await hooks.runner.run(
        { hook_event_name: 'SessionStart', source: deps.sessionStart },
        options,
      );
      for (const report of start.reports) deps.emit({ type: 'hook-result', report });
      for (const c of start.context) before.push(reminder(`SessionStart hook context:\n${c}`));
    }
    const submit = await hooks.runner.run({ hook_event_name: 'UserPromptSubmit', prompt }, options);
    for (const report of submit.reports) deps.emit({ type: 'hook-result', report });
    if (submit.blocked !== undefined)
      return { ok: false, reason: `A UserPromptSubmit hook blocked this prompt: ${submit.blocked}` };
    if (submit.stop !== undefined)
      return { ok: false, reason: `A UserPromptSubmit hook stopped this prompt: ${submit.stop}` };
    for (const c of submit.context) before.push(reminder(`UserPromptSubmit hook context:\n${c}`));
  }

  const mentions = await attachMentions(prompt, deps.context);
  if (mentions.attached.length || mentions.problems.length) {
    deps.emit({ type: 'mentions-attached', paths: mentions.attached, problems: mentions.problems });
  }
  return { ok: true, blocks: [...before, ...body, ...mentions.blocks] };
}
