/**
 * What a host page (a docs site embedding tabcode) may configure: through `mount(element, config)` in the
 * same page, or by posting `{ type: 'tabcode:config', config }` to the tabcode iframe. Every field is
 * optional; a bad field is reported to the host and ignored, never fatal.
 */
import type { PermissionMode } from '../core/permissions/types.ts';

export interface EmbedMcpServer {
  /** Server name: tools become `mcp__<name>__<tool>`. */
  name: string;
  /** Streamable HTTP (or SSE) endpoint. */
  url: string;
  transport?: 'http' | 'sse';
  headers?: Record<string, string>;
}

export interface EmbedConfig {
  /** Initial project files (relative paths → content), instead of the demo project. */
  files?: Record<string, string>;
  /** Messages API base URL (a proxy the host runs) and model defaults. Keys are never taken from config. */
  baseURL?: string;
  model?: string;
  maxTokens?: number;
  permissionMode?: PermissionMode;
  /** Permission rules from the host page (source "embed config"). */
  permissions?: { allow?: string[]; ask?: string[]; deny?: string[] };
  mcpServers?: EmbedMcpServer[];
  sandbox?: 'auto' | 'webcontainer' | 'just-bash';
}
