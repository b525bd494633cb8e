/**
 * The tool registry: every built-in tool, the filtered list for a session, and the pool sent to the
 * model. Gated tools are imported only inside their `if (__FEATURE_X__)` branch, so a build with the
 * gate off contains none of their code.
 */
import { isBlanketRuleFor } from '../core/permissions/rules.ts';
import type { AnyTool } from '../core/tool.ts';
import { AgentTool } from './agent/agent.ts';
import { AskUserQuestionTool } from './ask-user-question/ask-user-question.ts';
import { BashTool } from './bash/bash.ts';
import { BashOutputTool } from './bash-output/bash-output.ts';
import { EditTool } from './edit/edit.ts';
import { EnterPlanModeTool } from './enter-plan-mode/enter-plan-mode.ts';
import { ExitPlanModeTool } from './exit-plan-mode/exit-plan-mode.ts';
import { GlobTool } from './glob/glob.ts';
import { GrepTool } from './grep/grep.ts';
import { KillShellTool } from './kill-shell/kill-shell.ts';
import { createListMcpResourcesTool } from './list-mcp-resources/list-mcp-resources.ts';
import { NotebookEditTool } from './notebook-edit/notebook-edit.ts';
import { ReadTool } from './read/read.ts';
import { createReadMcpResourceTool } from './read-mcp-resource/read-mcp-resource.ts';
import type { McpResourceSource } from './shared/mcp-resource-source.ts';
import { createServerToolSupport } from './shared/server-tools.ts';
import { createSkillTool } from './skill/skill.ts';
import type { SkillCatalog } from './skill/skills.ts';
import { TodoWriteTool } from './todo-write/todo-write.ts';
import { createToolSearchTool, type ToolSearchOptions, ToolSearchTool } from './tool-search/tool-search.ts';
import { createWebFetchTool } from './web-fetch/web-fetch.ts';
import { createWebSearchTool } from './web-search/web-search.ts';
import { WriteTool } from './write/write.ts';

/** What the session gives the tools that need session state (all optional: tests build bare pools). */
export interface BaseToolOptions {
  toolSearch?: ToolSearchOptions;
  /** The session's skills (refreshed before each prompt); default: a catalog of its own. */
  skills?: SkillCatalog;
  /** The fetch proxy the user configured, read at each WebFetch call. */
  fetchProxy?: () => string | undefined;
}

const gatedTools: AnyTool[] = [];
if (__FEATURE_POWERSHELL__) {
  const { PowerShellTool } = await import('./powershell/powershell.ts');
  gatedTools.push(PowerShellTool);
}
/** With the LSP gate on: Edit, Write and NotebookEdit results carry the file's new diagnostics. */
let lspDecorator: ((tool: AnyTool) => AnyTool) | undefined;
if (__FEATURE_LSP__) {
  const { LspTool, withDiagnostics } = await import('./lsp/lsp.ts');
  gatedTools.push(LspTool);
  lspDecorator = withDiagnostics;
}

/**
 * Every built-in tool of this build, enabled or not. ToolSearch is always there, deferred tools or not:
 * adding it only when the first MCP server connects would change `tools` and bust the prompt cache of
 * everything after it, while it costs a few hundred (cached) tokens. `toolSearch` configures it (e.g.
 * the MCP manager's `connectingServers`). `mcpResources` (the MCP manager) adds ListMcpResources and
 * ReadMcpResource, deferred and enabled while a connected server has resources.
 */
export function getAllBaseTools(
  options: { toolSearch?: ToolSearchOptions; mcpResources?: McpResourceSource } & BaseToolOptions = {},
): AnyTool[] {
  const resources = options.mcpResources;
  const toolSearch = options.toolSearch ? createToolSearchTool(options.toolSearch) : ToolSearchTool;
  // One per pool: which server tools the endpoint refused is this session's knowledge.
  const serverTools = createServerToolSupport();
  const withDiagnostics = lspDecorator ?? ((tool: AnyTool) => tool);
  return [
    AgentTool,
    AskUserQuestionTool,
    BashTool,
    BashOutputTool,
    withDiagnostics(EditTool),
    EnterPlanModeTool,
    ExitPlanModeTool,
    GlobTool,
    GrepTool,
    KillShellTool,
    withDiagnostics(NotebookEditTool),
    ReadTool,
    createSkillTool(options.skills),
    TodoWriteTool,
    toolSearch,
    createWebFetchTool({ support: serverTools, proxy: options.fetchProxy }),
    createWebSearchTool(serverTools),
    withDiagnostics(WriteTool),
    ...gatedTools,
    ...(resources ? [createListMcpResourcesTool(resources), createReadMcpResourceTool(resources)] : []),
  ];
}

/**
 * True when `rule` is a blanket rule naming this tool or its MCP server: `Tool` (also `Tool()` and
 * `Tool(*)`), `mcp__server`, `mcp__server__*`, `mcp__server__tool`. Same parsing as the permission engine.
 */
export function blanketRuleMatches(
  rule: string,
  tool: Pick<AnyTool, 'name' | 'aliases' | 'mcpInfo'>,
): boolean {
  return isBlanketRuleFor(rule, tool);
}

/** The session's built-in tools: enabled ones not removed by a blanket deny rule. */
export function getTools(
  denyRules: readonly string[] = [],
  base: readonly AnyTool[] = getAllBaseTools(),
): AnyTool[] {
  return base.filter((tool) => {
    let enabled = true;
    try {
      enabled = tool.isEnabled?.() ?? true;
    } catch {
      enabled = false;
    }
    return enabled && !denyRules.some((rule) => blanketRuleMatches(rule, tool));
  });
}

const byName = (a: AnyTool, b: AnyTool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The pool sent to the model, in cache order: built-ins sorted by name as one prefix, then MCP tools
 * sorted by name; names are unique and a built-in wins over an MCP tool of the same name.
 */
export function assembleToolPool(builtIns: readonly AnyTool[], mcpTools: readonly AnyTool[]): AnyTool[] {
  const seen = new Set<string>();
  const out: AnyTool[] = [];
  for (const tool of [...builtIns].sort(byName)) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    out.push(tool);
  }
  for (const tool of [...mcpTools].sort(byName)) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    out.push(tool);
  }
  return out;
}
