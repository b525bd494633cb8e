/** Server configs checked and normalized before the manager connects to them. */
import { normalizeServerName } from './names.ts';
import type { McpServerConfig } from './types.ts';

/** What the MCP panel shows as the server's address. */
export function target(config: McpServerConfig): string {
  return config.type === 'http' ? config.url : 'in-page';
}

/** Checks and normalizes a config; throws a readable error when it cannot be used. */
export function normalizeConfig(config: McpServerConfig): McpServerConfig {
  const name = normalizeServerName(config.name);
  if (config.type === 'http') {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new Error(`Invalid URL for MCP server "${name}": ${config.url}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`MCP server "${name}" must use an http(s) URL (got ${url.protocol}).`);
    }
    return { ...config, name, source: config.source ?? 'settings' };
  }
  if (config.type === 'in-page' && typeof config.connect === 'function') {
    return { ...config, name, source: config.source ?? 'host' };
  }
  throw new Error(`MCP server "${name}" has an unknown type.`);
}
