/**
 * What the prompt box does with a line before anything is sent: `!command` runs in the sandbox shell,
 * and the built-in slash commands run in the page (their output is a transcript row; none reaches the
 * model as text). Everything else (plain prompts, /init, project commands, skills, MCP prompts) goes to
 * the agent, which expands it; an unknown command gets a hint and nothing is sent.
 */

import { shellLine } from '../agent/habits/shell-mode.ts';
import type { RequestUsage, SessionMeta } from '../agent/sessions-store.ts';
import { BUILTIN_COMMANDS, BUILTIN_NAMES } from '../agent/slash/builtins.ts';
import { parseSlashCommand, unknownCommandHint } from '../agent/slash/parse.ts';
import type { SlashCommandInfo } from '../agent/slash/types.ts';
import type { AgentSession } from '../agent/types.ts';
import { MEMORY_FILES } from '../core/constants.ts';
import { messageOf } from '../core/errors.ts';
import type { ContextWindow } from '../core/model/context-window.ts';
import type { SideTab } from './settings-store.ts';
import { formatCost, formatTokens, splitInputTokens, usageTotals } from './usage-state.ts';

export interface PageCommandDeps {
  agent: AgentSession;
  /** Adds a command's output to the transcript. */
  output(input: string, text: string, tone?: 'info' | 'error'): void;
  /** The commands the menu knows (workspace and MCP ones included), when loaded. */
  commands: readonly SlashCommandInfo[];
  requests: readonly RequestUsage[];
  /** Tokens of the context now (see ContextMeter). */
  contextUsed: number | undefined;
  window: ContextWindow | null;
  newSession(): Promise<void>;
  setModel(model: string): void;
  showTab(tab: SideTab): void;
  openFile(path: string): void;
  openSessions(): void;
  sessions: readonly SessionMeta[];
  switchSession(id: string): Promise<void>;
  exportCurrent(): Promise<void>;
}

const pct = (n: number, of: number) => (of > 0 ? `${Math.round((n / of) * 100)}%` : '—');

/** The /context report: what fills the window, by part, from the last request. */
export function contextReport(d: Pick<PageCommandDeps, 'requests' | 'contextUsed' | 'window'>): string {
  const last = d.requests[d.requests.length - 1];
  const window = d.window?.tokens ?? 0;
  if (!last || d.contextUsed === undefined) {
    return `Nothing has been sent yet. The context window of this model is ${window.toLocaleString('en-US')} tokens.`;
  }
  const split = splitInputTokens(last);
  const rows = split
    ? [
        ['Tools', split.tools],
        ['System prompt', split.system],
        ['Messages', split.messages],
        ['Last reply', last.outputTokens],
      ]
    : [
        ['Input (no split known)', last.inputTokens + last.cacheReadTokens + last.cacheWriteTokens],
        ['Last reply', last.outputTokens],
      ];
  const used = d.contextUsed;
  const lines = [
    `**Context: ${used.toLocaleString('en-US')} of ${window.toLocaleString('en-US')} tokens (${pct(used, window)})**`,
    '',
    '| part | tokens | share of the window |',
    '|---|---:|---:|',
    ...rows.map(([name, n]) => `| ${name} | ${formatTokens(Number(n))} | ${pct(Number(n), window)} |`),
    `| Free | ${formatTokens(Math.max(0, window - used))} | ${pct(Math.max(0, window - used), window)} |`,
    '',
    'The split is estimated from the size of each part of the last request; the total is what the API measured.',
  ];
  return lines.join('\n');
}

function helpText(commands: readonly SlashCommandInfo[]): string {
  const list = commands.length ? commands : BUILTIN_COMMANDS;
  const row = (c: SlashCommandInfo) =>
    `| \`/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}\` | ${c.description}${c.source === 'builtin' ? '' : ` (${c.source}${c.origin ? `: ${c.origin}` : ''})`} |`;
  return [
    '| command | what it does |',
    '|---|---|',
    ...list.map(row),
    '',
    '`!command` runs a line in the sandbox shell (its output joins your next prompt); `@path` attaches a file.',
  ].join('\n');
}

/**
 * Runs `text` in the page when it is a `!` line or a built-in command; returns true then (nothing is
 * sent), false when the agent should get it. Never throws: a failing command reports in its output.
 */
export function runPageCommand(text: string, d: PageCommandDeps): boolean {
  const shell = shellLine(text);
  if (shell !== null) {
    void d.agent.runShell?.(shell);
    return true;
  }
  const command = parseSlashCommand(text);
  if (!command) return false;
  if (command.name === 'init') return false;
  if (!BUILTIN_NAMES.has(command.name)) {
    if (d.commands.length === 0 || d.commands.some((c) => c.name === command.name)) return false;
    d.output(
      text,
      unknownCommandHint(
        command.name,
        d.commands.map((c) => c.name),
      ),
      'error',
    );
    return true;
  }
  void runBuiltin(command.name, command.args, text, d).catch((err: unknown) =>
    d.output(text, `/${command.name} failed: ${messageOf(err)}`, 'error'),
  );
  return true;
}

async function runBuiltin(name: string, args: string, text: string, d: PageCommandDeps): Promise<void> {
  switch (name) {
    case 'clear':
      await d.newSession();
      return;
    case 'compact':
      // Its progress and result show as the compaction divider.
      await d.agent.compact?.(args || undefined);
      return;
    case 'model': {
      if (args) {
        d.setModel(args);
        const w = await d.agent.contextWindow?.(args);
        d.output(
          text,
          `Model set to \`${args}\`${w ? ` (context window ${w.tokens.toLocaleString('en-US')} tokens)` : ''}. It is used from the next request.`,
        );
        return;
      }
      const current = d.agent.settings().model;
      let list = '';
      try {
        const models = await d.agent.listModels();
        list = models
          .map((m) => `- \`${m.id}\`${m.id === current ? ' (current)' : ''} ${m.displayName}`)
          .join('\n');
      } catch (err) {
        list = `The models could not be listed: ${messageOf(err)}`;
      }
      d.output(text, `Current model: \`${current}\`. Set another with \`/model <id>\`.\n\n${list}`);
      return;
    }
    case 'cost': {
      const t = usageTotals(d.requests);
      d.output(
        text,
        `${t.requests} request${t.requests === 1 ? '' : 's'}: ${formatTokens(t.inputTokens + t.cacheReadTokens + t.cacheWriteTokens)} input tokens (${formatTokens(t.cacheReadTokens)} read from the cache, ${formatTokens(t.cacheWriteTokens)} written to it), ${formatTokens(t.outputTokens)} output. Estimated cost: ${formatCost(t.cost)}.`,
      );
      return;
    }
    case 'context':
      d.output(text, contextReport(d));
      return;
    case 'permissions':
      d.showTab('rules');
      d.output(text, 'The Permissions panel is open: rules, modes and hooks.');
      return;
    case 'mcp': {
      d.showTab('mcp');
      const servers = d.agent.mcp?.servers() ?? [];
      d.output(
        text,
        servers.length
          ? servers.map((s) => `- **${s.name}**: ${s.status}, ${s.toolCount} tools`).join('\n')
          : 'No MCP servers yet: add one in the MCP panel.',
      );
      return;
    }
    case 'memory': {
      const present: string[] = [];
      for (const file of MEMORY_FILES)
        if (await d.agent.sandbox.exists(file).catch(() => false)) present.push(file);
      if (present.length === 0) {
        d.output(
          text,
          'There is no CLAUDE.md yet. `/init` asks the agent to write one; or create CLAUDE.md at the project root.',
        );
        return;
      }
      d.openFile(present[0]);
      d.output(
        text,
        `Project memory: ${present.map((p) => `\`${p}\``).join(', ')}. It is read at the start of every turn; an edit applies to the next prompt.`,
      );
      return;
    }
    case 'help':
      d.output(text, helpText(d.commands));
      return;
    case 'export':
      await d.exportCurrent();
      d.output(text, 'The session was downloaded as JSON.');
      return;
    case 'resume': {
      if (args) {
        const match = d.sessions.find((s) => s.title.toLowerCase().includes(args.toLowerCase()));
        if (match) {
          await d.switchSession(match.id);
          return;
        }
        d.output(text, `No session's title contains "${args}".`, 'error');
        return;
      }
      d.openSessions();
      d.output(
        text,
        d.sessions.length
          ? `Sessions (newest first): ${d.sessions
              .slice(0, 10)
              .map((s) => `“${s.title}”`)
              .join(', ')}. Pick one in the list, or \`/resume <title>\`.`
          : 'There are no saved sessions yet.',
      );
      return;
    }
  }
}
