/**
 * tabcode's MCP client: the public surface. An agent session owns one McpManager; the UI (McpPanel),
 * the embed API and the host page add and remove servers through it.
 */
import { browserDownscaler, canDownscale } from './image-downscale.ts';
import { createMcpManager, type McpManager, type McpManagerOptions } from './manager.ts';
import { callbackUrl, createPopupAuthorizer } from './oauth/browser.ts';
import { createDefaultAuthStore } from './oauth/store.ts';
import { createIdbConfigStore } from './storage.ts';
import type { McpServerConfig } from './types.ts';

export { adaptMcpTools, inputSchemaProblem } from './adapter.ts';
export type { McpPromptInfo, McpResourceInfo } from './catalog.ts';
export { browserDownscaler } from './image-downscale.ts';
export { inPageServer, MessagePortTransport } from './in-page.ts';
export type { McpInteraction, McpInteractionAnswer } from './interactions.ts';
export {
  createMcpManager,
  type McpChange,
  type McpManager,
  type McpManagerOptions,
  type McpSampler,
} from './manager.ts';
export { mcpToolName, normalizeServerName, parseMcpToolName } from './names.ts';
export { type ExpandedPrompt, expandPrompt } from './prompts.ts';
export { createMcpSampler, type RunModel, type SamplingRequest } from './sampling.ts';
export { createIdbConfigStore, type McpConfigStore } from './storage.ts';
export type * from './types.ts';

/**
 * OAuth for a page: sign-in in a popup (or a full-page redirect when popups are blocked) coming back
 * to the callback page beside it, tokens in this origin's IndexedDB (`persist`) or in memory.
 */
export function browserAuth(persist: boolean): McpManagerOptions['auth'] {
  if (typeof window === 'undefined' || typeof BroadcastChannel === 'undefined') return undefined;
  return {
    ...(persist ? { store: createDefaultAuthStore() } : {}),
    redirectUrl: callbackUrl(),
    authorizer: createPopupAuthorizer(),
  };
}

/**
 * The manager a session gets by default: configs the user added are persisted in IndexedDB (when the
 * environment has it) and reconnected in the background, so creating a session never waits for a
 * server. `embedServers` (from an embed config) are added too and never persisted. Sign-in tokens are
 * kept per server in this origin's IndexedDB.
 */
export function createDefaultMcpManager(embedServers: readonly McpServerConfig[] = []): McpManager {
  const hasIdb = typeof indexedDB !== 'undefined';
  const auth = browserAuth(hasIdb);
  const manager = createMcpManager({
    ...(hasIdb ? { store: createIdbConfigStore() } : {}),
    ...(auth ? { auth } : {}),
    ...(canDownscale() ? { downscale: browserDownscaler } : {}),
  });
  void manager.loadPersisted();
  for (const config of embedServers) {
    manager
      .addServer({ ...config, source: config.source ?? 'embed' })
      .catch((err) => console.warn(`tabcode: embed MCP server ${config.name} is invalid`, err));
  }
  return manager;
}
