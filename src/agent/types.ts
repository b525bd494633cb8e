/**
 * The agent session: what the UI and the embed API drive. It owns the transcript, the sandbox, the
 * tool pool and the model client, runs `query()` for each prompt and re-emits its events.
 */

import type { AppState } from '../core/context.ts';
import type { ToolSearchModeInfo } from '../core/deferred-tools.ts';
import type { QueryEvent } from '../core/events.ts';
import type { MessageParam } from '../core/messages.ts';
import type { ContextWindow } from '../core/model/context-window.ts';
import type { PermissionStore } from '../core/permissions/store.ts';
import type { PermissionMode } from '../core/permissions/types.ts';
import type { McpManager } from '../mcp/manager.ts';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { SessionHooks } from './habits/session-hooks.ts';
import type { SlashCommandInfo } from './slash/types.ts';

export interface AgentSettings {
  /** Anthropic API key; empty when a proxy adds it (dev server) or none is set yet. */
  apiKey: string;
  /** Messages API base URL; default https://api.anthropic.com, or the dev proxy /api/anthropic. */
  baseURL: string;
  model: string;
  maxTokens: number;
  permissionMode: PermissionMode;
  /** Extended thinking: its budget in tokens; 0 or absent: off. */
  thinkingBudget?: number;
  /** False: never compact on its own (only /compact, and once after a "prompt is too long"). Default on. */
  autoCompact?: boolean;
  /** Compact before a request that would pass this share of the context window (default 0.85). */
  autoCompactRatio?: number;
  /** WebFetch's fetch proxy (`https://host/path`, called with `?url=`); empty: the dev server's, else direct. */
  fetchProxy?: string;
  /**
   * False: ToolSearch never loads its sentence encoder (about 28 MB of weights, fetched once when the
   * first deferred MCP tool appears) and ranks by words and word expansions only. Default on.
   */
  toolSearchEncoder?: boolean;
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
  /** `message` is the user message as sent (reminders, mentions and all), saved at once with the turn. */
  | { type: 'run-start'; prompt: string; message?: MessageParam }
  | { type: 'run-end'; transcriptLength: number }
  /** A Messages API request left the page (retries included); sizes are of its JSON body. */
  | { type: 'request-sent'; sizes: RequestSizes }
  /** The project memory was read into this turn (it changed since the transcript last stated it). */
  | { type: 'memory-loaded'; files: string[]; chars: number; cutChars: number; problems: string[] }
  /** Files the prompt mentioned with `@` were attached. */
  | { type: 'mentions-attached'; paths: string[]; problems: string[] }
  /**
   * The API refused the turn's request before any reply (an invalid request: a prompt over the context
   * window, a file it cannot read): the prompt is not kept in the transcript, so the session can go on;
   * the page gives `prompt` back to the prompt box. Comes after the `error`, before `run-end`.
   */
  | { type: 'prompt-returned'; prompt: string; reason: string }
  /** Nothing was sent: an unknown or page-only slash command, or a UserPromptSubmit hook blocked it. */
  | { type: 'prompt-refused'; prompt: string; reason: string }
  /** `!` mode: a line runs in the sandbox shell; its output joins the next prompt's context. */
  | { type: 'shell-start'; id: string; command: string }
  /** Output of a `!` line as it arrives (shell-end's run has all of it). */
  | { type: 'shell-output'; id: string; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'shell-end'; id: string; run: ShellRunResult }
  /** The app state changed (TodoWrite's lists, the mode): what the Todos panel and the prompt box show. */
  | { type: 'app-state'; state: AppState }
  /** A tool changed the permission mode (EnterPlanMode, an approved plan): the page shows and saves it. */
  | { type: 'permission-mode'; mode: PermissionMode }
  /**
   * The project files could not be saved to browser storage (`ok: false`, with why), or are saved again
   * after that (`ok: true`). Not a turn's error: the turn goes on, the files stay in the sandbox.
   */
  | { type: 'project-save'; ok: boolean; message?: string };

/** A `!` line's run. */
export interface ShellRunResult {
  command: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  timedOut?: boolean;
  aborted?: boolean;
}

/** What /compact did. */
export type CompactResult = { ok: true; summarized: number } | { ok: false; message: string };

export interface AgentSession {
  readonly sandbox: Sandbox;
  /** The app state tools keep (todo lists by agent, the mode). */
  appState?(): AppState;
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
   * sandbox (the workspace) stays as it is. `shellRuns`: the `!` lines run since the last prompt (the
   * model gets them with the next one, as if they had just run). Refused (returns false) while a turn
   * runs. Never throws.
   */
  loadTranscript(messages: readonly MessageParam[], shellRuns?: readonly ShellRunResult[]): boolean;
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
   * Takes into the workspace the project files another tab of this origin saved meanwhile (their
   * sessions share one project store): called when this tab takes over a session that tab had open.
   * A no-op without persistence. Never rejects.
   */
  reloadProject?(): Promise<void>;
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
  /**
   * /compact: summarizes the conversation now (after the running turn, if any). A failure or an interrupt
   * leaves the transcript as it was. Never rejects.
   */
  compact?(instructions?: string): Promise<CompactResult>;
  /** `!` mode: runs `command` in the sandbox shell; its output joins the next prompt's context. Never rejects. */
  runShell?(command: string): Promise<ShellRunResult>;
  /** The slash commands of the prompt box: built-ins, project commands, skills, MCP prompts. Never rejects. */
  listCommands?(): Promise<SlashCommandInfo[]>;
  /** How ToolSearch results reach the model now (native or portable) and why, for the Usage panel. */
  toolSearchMode?(): ToolSearchModeInfo;
  /** A model's context window (the Models API's figure, else the table). Never rejects. */
  contextWindow?(model?: string): Promise<ContextWindow>;
  /** The session's hooks: listed in the Permissions panel; an embedding page registers functions. */
  readonly hooks?: SessionHooks;
  /** Project memory an embedding page supplies (null: none), in addition to the workspace's CLAUDE.md. */
  setMemory?(text: string | null): void;
  subscribe(listener: (event: SessionEvent) => void): () => void;
  dispose(): Promise<void>;
}
