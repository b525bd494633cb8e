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
  /**
   * A scripted demo: no API key, no network. The page answers every model request with the next turn of
   * the script (streamed as the Messages API would), so the real SDK, loop and tools run on the sandbox.
   */
  demo?: EmbedDemo;
}

/** A scripted answer's text block. */
export interface EmbedDemoText {
  type: 'text';
  text: string;
}

/** A scripted tool call: it really runs (e.g. Write creates the file in the sandbox). */
export interface EmbedDemoToolUse {
  type: 'tool_use';
  /** Default: a fresh `toolu_demo_…` id. */
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

/** One model turn of the script: the assistant message of one request. */
export interface EmbedDemoTurn {
  content: (EmbedDemoText | EmbedDemoToolUse)[];
}

export interface EmbedDemo {
  /** Played in order, one per model request (a turn with tool calls is followed by the next turn). */
  turns: EmbedDemoTurn[];
  /** Delay between streamed events, ms (default DEMO_CHUNK_DELAY_MS). */
  chunkDelayMs?: number;
  /** What the model says once the script has no turn left. */
  endText?: string;
}

/** A config field that was refused (and ignored). */
export interface EmbedWarning {
  /** The field's path, e.g. `maxTokens` or `files["../x"]`. */
  field: string;
  message: string;
}
