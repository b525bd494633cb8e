/**
 * What the MCP resource tools need from the session's MCP servers (the McpManager satisfies it). Tools
 * see only this, never the MCP client: the layers stay tools → core.
 */
import type Anthropic from '@anthropic-ai/sdk';

/** A resource (or a resource template) a connected server lists. */
export interface McpResourceEntry {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** A URI template (RFC 6570): fill it in before reading. */
  template?: boolean;
}

export interface McpResourceSource {
  /** Resources of connected servers (of one when named). */
  resources(server?: string): McpResourceEntry[];
  /** A resource's contents as content blocks; rejects with a readable reason. */
  readResourceContent(
    server: string,
    uri: string,
    signal?: AbortSignal,
  ): Promise<Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam>>;
  /** Every server's name, status and number of resources. */
  servers(): Array<{ name: string; status: string; resourceCount?: number }>;
}

/** True when some connected server offers resources (the tools are offered only then). */
export function hasResources(source: McpResourceSource): boolean {
  return source.servers().some((s) => s.status === 'connected' && (s.resourceCount ?? 0) > 0);
}
