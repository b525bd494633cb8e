/**
 * The agent session: what the UI and the embed API drive. It owns the transcript, the sandbox, the
 * tool pool and the model client, runs `query()` for each prompt and re-emits its events.
 */
import type { QueryEvent } from '../core/events.ts';
import type { MessageParam } from '../core/messages.ts';
import type { PermissionStore } from '../core/permissions/store.ts';
import type { PermissionMode } from '../core/permissions/types.ts';
import type { McpManager } from '../mcp/manager.ts';
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

/** Characters of one Messages API request body, by part (what the usage meter splits tokens by). */
export interface RequestSizes {
  toolsChars: number;
  systemChars: number;
  messagesChars: number;
}

/** A model the API lists (GET /v1/models). */
export interface ModelSummary {
  id: string;
  displayName: string;
}

/** Events the session emits: the loop's events plus run boundaries. */
export type SessionEvent =
  | QueryEvent
  | { type: 'run-start'; prompt: string }
  | { type: 'run-end'; transcriptLength: number }
  /** A Messages API request left the page (retries included); sizes are of its JSON body. */
  | { type: 'request-sent'; sizes: RequestSizes };

export interface AgentSession {
  readonly sandbox: Sandbox;
  /** The permission rules in force, by source (embed, settings, session); the mode is in settings(). */
  readonly permissions: PermissionStore;
  /** The session's MCP servers (add/remove at any time; tools join at the next turn). */
  readonly mcp?: McpManager;
  /** The transcript as sent to the API (valid: paired tool_use/tool_result, alternating roles). */
  transcript(): readonly MessageParam[];
  settings(): AgentSettings;
  updateSettings(patch: Partial<AgentSettings>): void;
  /** Runs one user turn to its end (tools included). Never throws: failures arrive as `error` events. */
  send(prompt: string): Promise<void>;
  /**
   * Replaces the transcript (a restored, switched-to or imported session), repaired with
   * ensureToolResultPairing so the next request is valid, and forgets which files were read. The
   * sandbox (the workspace) stays as it is. Refused (returns false) while a turn runs. Never throws.
   */
  loadTranscript(messages: readonly MessageParam[]): boolean;
  /**
   * The models the API lists, newest first, using the current settings with `overrides` on top (e.g. a
   * key typed in Settings and not saved yet). Rejects when the API cannot be reached or refuses.
   */
  listModels(overrides?: Partial<AgentSettings>): Promise<ModelSummary[]>;
  /**
   * Saves the project files' pending changes now (a no-op without persistence, e.g. an embedded page).
   * The page waits for it before showing a tool result, so a reload keeps the files a card shows.
   * Never rejects: a failed save is reported as an `error` event.
   */
  flushProject?(): Promise<void>;
  /**
   * The user changed `path` by hand (the Files panel: an edit, an upload, a rename or a delete). The read
   * record of the file is kept as it was, so Edit/Write's "changed since read" check (content hash)
   * finds the change and asks for a new Read; and the next prompt tells the model which files the user
   * changed. Never throws.
   */
  noteUserEdit?(path: string): void;
  /** Esc: abort running 'abort' tools, let 'finish' tools complete, close the turn validly. */
  interrupt(): void;
  isRunning(): boolean;
  subscribe(listener: (event: SessionEvent) => void): () => void;
  dispose(): Promise<void>;
}
