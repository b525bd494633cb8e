/**
 * The session's tool pool: the built-in tools (with the skills catalogue, MCP resources and WebFetch's
 * proxy), the permission store and its checker, MCP tools joining at every request, and MCP sampling on
 * the session's model.
 */

import { createAnthropicClient } from '../core/model/anthropic.ts';
import { createCanUseTool } from '../core/permissions/can-use-tool.ts';
import { PermissionStore } from '../core/permissions/store.ts';
import type { AnyTool } from '../core/tool.ts';
import type { CanUseToolFn } from '../core/tool-execution.ts';
import { createMcpSampler, type McpManager } from '../mcp/index.ts';
import { assembleToolPool, getAllBaseTools, getTools } from '../tools/registry.ts';
import { createSkillCatalog, type SkillCatalog } from '../tools/skill/skills.ts';
import { warmToolSearch } from '../tools/tool-search/tool-search.ts';
import { allowAlwaysStorage } from './permission-store.ts';
import type { CreateAgentSessionOptions } from './session-options.ts';
import type { AgentSettings } from './types.ts';

export interface SessionTools {
  /** The skills announced with each prompt (and what Skill may grant). */
  skillCatalog: SkillCatalog;
  permissions: PermissionStore;
  canUseTool: CanUseToolFn;
  /**
   * The pool of one request: MCP tools come and go between (and during) turns; denied tools are out.
   * `settings`: the ones to read (default: the session's current settings).
   */
  currentTools: (settings?: AgentSettings) => AnyTool[];
}

/** The session's tools and permissions, the store loaded. Rejects only if the permission store does. */
export async function createSessionTools(
  options: CreateAgentSessionOptions,
  mcp: McpManager | undefined,
  getSettings: () => AgentSettings,
  model: { apiKey: () => string; fetch: typeof fetch },
): Promise<SessionTools> {
  // MCP sampling runs on the session's model, and only for requests the user approved (the manager asks).
  mcp?.setSampler(
    createMcpSampler(
      (req, signal) =>
        createAnthropicClient({
          apiKey: model.apiKey(),
          baseURL: getSettings().baseURL,
          fetch: model.fetch,
        }).messages.create(
          {
            model: getSettings().model,
            max_tokens: req.maxTokens,
            messages: req.messages,
            ...(req.system ? { system: req.system } : {}),
            ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
            ...(req.stopSequences ? { stop_sequences: req.stopSequences } : {}),
          },
          { signal },
        ),
      () => getSettings().maxTokens,
    ),
  );
  const skillCatalog = createSkillCatalog(() => options.skills ?? []);
  const baseTools = getAllBaseTools({
    // ToolSearch names servers still connecting when nothing matches.
    toolSearch: {
      connectingServers: () => mcp?.connectingServers() ?? [],
      sentenceEnabled: () => getSettings().toolSearchEncoder !== false,
    },
    ...(mcp ? { mcpResources: mcp } : {}),
    skills: skillCatalog,
    fetchProxy: () => getSettings().fetchProxy,
  });
  const embedRules = options.permissions?.rules;
  const permissions = new PermissionStore({
    embed: { ...embedRules, deny: [...(embedRules?.deny ?? []), ...(options.denyRules ?? [])] },
    storage: options.permissions?.storage,
    projectStorage: allowAlwaysStorage(options.permissions),
    knownTools: baseTools.map((t) => t.name),
  });
  await permissions.load();
  const canUseTool = createCanUseTool({
    getRules: () => permissions.rules(),
    getMode: () => getSettings().permissionMode,
  });
  // A blanket deny rule (any source, read at every request) removes the tool before the model sees it.
  const mcpTools = () =>
    getTools(permissions.blanketDenies(), [...(options.mcpTools ?? []), ...(mcp?.tools() ?? [])]);
  // The first pool with a deferred MCP tool starts ToolSearch's semantic stage (in its worker), and its
  // sentence encoder unless the user turned it off.
  const currentTools = (settings?: AgentSettings) =>
    warmToolSearch(
      assembleToolPool(getTools(permissions.blanketDenies(), baseTools), mcpTools()),
      undefined,
      (settings ?? getSettings()).toolSearchEncoder === false ? null : undefined,
    );
  return { skillCatalog, permissions, canUseTool, currentTools };
}
