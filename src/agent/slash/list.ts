/** Every slash command of a session, for the prompt box's menu and /help. Never rejects. */
import type { McpManager } from '../../mcp/manager.ts';
import { promptCommand } from '../../mcp/prompts.ts';
import type { Sandbox } from '../../sandbox/sandbox.ts';
import { BUILTIN_COMMANDS } from './builtins.ts';
import type { SlashCommandInfo } from './types.ts';
import { loadWorkspaceCommands } from './workspace-commands.ts';

export async function listSlashCommands(sandbox: Sandbox, mcp?: McpManager): Promise<SlashCommandInfo[]> {
  const workspace = await loadWorkspaceCommands(sandbox).catch(() => []);
  let prompts: SlashCommandInfo[] = [];
  try {
    prompts = (mcp?.prompts() ?? []).map((p) => ({
      name: promptCommand(p),
      description: p.description ?? p.title ?? `A prompt of ${p.server}`,
      ...(p.arguments.length
        ? { argumentHint: p.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ') }
        : {}),
      source: 'mcp' as const,
      origin: p.server,
    }));
  } catch {}
  const builtins = new Set(BUILTIN_COMMANDS.map((c) => c.name));
  return [
    ...BUILTIN_COMMANDS,
    // A workspace command never hides a built-in one.
    ...workspace.filter((c) => !builtins.has(c.name)).map(({ body: _body, ...info }) => info),
    ...prompts,
  ];
}
