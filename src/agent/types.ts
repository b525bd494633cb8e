/**
 * The agent session: what the UI and the embed API drive. It owns the transcript, the sandbox, the
 * tool pool and the model client, runs `query()` for each prompt and re-emits its events.
 */
import type { QueryEvent } from '../core/events.ts';
import type { MessageParam } from '../core/messages.ts';
import type { PermissionMode } from '../core/permissions/types.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';

export interface AgentSettings {
  /** Anthropic API key; empty when a proxy adds it (dev server) or none is set yet. */
  apiKey: string;
  /** Messages API base URL; default https://api.anthropic.com, or the dev proxy /api/anthropic. */
  baseURL: string;
  model: string;
  maxTokens: number;
  permissionMode: PermissionMode;
}

/** Events the session emits: the loop's events plus run boundaries. */
export type SessionEvent =
  | QueryEvent
  | { type: 'run-start'; prompt: string }
  | { type: 'run-end'; transcriptLength: number };

export interface AgentSession {
  readonly sandbox: Sandbox;
  /** The transcript as sent to the API (valid: paired tool_use/tool_result, alternating roles). */
  transcript(): readonly MessageParam[];
  settings(): AgentSettings;
  updateSettings(patch: Partial<AgentSettings>): void;
  /** Runs one user turn to its end (tools included). Never throws: failures arrive as `error` events. */
  send(prompt: string): Promise<void>;
  /** Esc: abort running 'abort' tools, let 'finish' tools complete, close the turn validly. */
  interrupt(): void;
  isRunning(): boolean;
  subscribe(listener: (event: SessionEvent) => void): () => void;
  dispose(): Promise<void>;
}
