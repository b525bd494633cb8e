/**
 * tabcode's MCP client: the public surface. An agent session owns one McpManager; the UI (McpPanel),
 * the embed API and the host page add and remove servers through it.
 */
import { createMcpManager, type McpManager } from './manager.ts';
import { createIdbConfigStore } from './storage.ts';
import type { McpServerConfig } from './types.ts';

export { adaptMcpTools, inputSchemaProblem } from './adapter.ts';
export { inPageServer, MessagePortTransport } from './in-page.ts';
export { createMcpManager, type McpChange, type McpManager, type McpManagerOptions } from './manager.ts';
export { mcpToolName, normalizeServerName, parseMcpToolName } from './names.ts';
export { createIdbConfigStore, type McpConfigStore } from './storage.ts';
export type * from './types.ts';

/**
 * The manager a session gets by default: configs the user added are persisted in IndexedDB (when the
 * environment has it) and reconnected in the background, so creating a session never waits for a
 * server. `embedServers` (from an embed config) are added too and never persisted.
 */
export function createDefaultMcpManager(embedServers: readonly McpServerConfig[] = []): McpManager {
  const hasIdb = typeof indexedDB !== 'undefined';
  const manager = createMcpManager(hasIdb ? { store: createIdbConfigStore() } : {});
  void manager.loadPersisted();
  for (const config of embedServers) {
    manager
      .addServer({ ...config, source: config.source ?? 'embed' })
      .catch((err) => console.warn(`tabcode: embed MCP server ${config.name} is invalid`, err));
  }
  return manager;
}
