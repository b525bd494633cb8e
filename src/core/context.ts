/**
 * ToolUseContext: everything a tool call may use (Claude Code's "god context"). Built by the agent
 * session per turn; the loop derives a per-call copy with `toolUseId` set.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Sandbox } from '../sandbox/sandbox.ts';
import type { SchemaCache } from './api-schema.ts';
import type { HookRunner } from './hooks/types.ts';
import type { MessageParam } from './messages.ts';
import type { PermissionMode } from './permissions/types.ts';
import type { AnyTool } from './tool.ts';
import type { CanUseToolFn } from './tool-execution.ts';
import type { ResultSpiller } from './tool-results.ts';

/** What Read recorded about a file, so Edit/Write can refuse stale or unread files. */
export interface ReadFileRecord {
  /** Hash of the full file content when it was read. */
  contentHash: string;
  mtimeMs: number;
  /** When it was read (ms since epoch). */
  readAt: number;
  /** True when only part of the file was read (offset/limit). */
  partial: boolean;
}

/** Keyed by absolute path. */
export type ReadFileState = Map<string, ReadFileRecord>;

/** Which results were spilled to storage. Decisions never change once made (they are part of the cache prefix). */
export interface ContentReplacementState {
  /** tool_use_id → the replacement text the model saw (spilled), or null (kept inline). */
  decisions: Map<string, string | null>;
}

/** One entry of a todo list (Claude Code's TodoWrite shape). */
export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** The present-continuous form shown while the item is in progress ("Running the tests"). */
  activeForm: string;
}

/**
 * App-level state tools read and change through getAppState/setAppState. The agent session owns it and
 * shows it (the Todos panel, the permission-mode switch); sub-agents share their parent's.
 */
export interface AppState {
  /** Todo lists by agent id (`main` for the session's own agent): TodoWrite's state. */
  todos: Record<string, TodoItem[]>;
  /**
   * The permission mode in force. The session mirrors its setting here and applies a change made here
   * (EnterPlanMode, an approved plan): it is the one way a tool changes the mode.
   */
  permissionMode?: PermissionMode;
}

/** The agent id of the session's own conversation (sub-agents get their own). */
export const MAIN_AGENT_ID = 'main';

/**
 * What a tool needs to send model requests of its own (a sub-agent's conversation, a search through
 * the API's server tools): the loop puts its own parameters here for every request, so a nested
 * conversation talks to the same endpoint with the same permission engine and schema cache.
 */
export interface ModelRuntime {
  client: Anthropic;
  model: string;
  maxTokens: number;
  /** The system prompt of the conversation the tool runs in. */
  systemPrompt: string;
  schemaCache: SchemaCache;
  canUseTool?: CanUseToolFn;
  resultSpiller?: ResultSpiller;
  cacheTtl?: '5m' | '1h';
}

export interface ToolUseOptions {
  /** Current directory of the agent (inside the sandbox workspace). */
  cwd: string;
  /** The mode when the turn began (the permission engine reads the session's mode at each call). */
  permissionMode: PermissionMode;
  /** The tool pool of this request (ToolSearch and Agent-style tools look at it). */
  tools: readonly AnyTool[];
  /** Set by the loop: the model endpoint of this conversation (Agent, forked Skill, WebSearch use it). */
  runtime?: ModelRuntime;
  /**
   * Allow rules for the rest of this turn (a loaded skill's allowed-tools, as `Read`, `Bash(git log:*)`):
   * the permission engine adds them to the session's rules. The session clears them with each prompt.
   */
  allowedTools?: readonly string[];
}

/** Storage for spilled results (IndexedDB in the page, fake-indexeddb in tests). */
export interface ResultStore {
  put(key: string, value: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
}

export interface ToolUseContext {
  options: ToolUseOptions;
  abortController: AbortController;
  readFileState: ReadFileState;
  getAppState(): AppState;
  setAppState(fn: (prev: AppState) => AppState): void;
  /** The transcript up to the assistant message being executed (a forked skill starts from it). */
  messages: readonly MessageParam[];
  /** Which conversation runs the call: MAIN_AGENT_ID, or a sub-agent's id. */
  agentId: string;
  /** The chain of nested conversations: one id for the whole chain, depth 0 for the main one. */
  queryTracking: { chainId: string; depth: number };
  contentReplacementState: ContentReplacementState;
  sandbox: Sandbox;
  /** Set per call by the loop. */
  toolUseId?: string;
  /** The session's hooks (PreToolUse, PostToolUse run on every call, subagents' included). */
  hooks?: HookRunner;
  resultStore?: ResultStore;
}

export function createContentReplacementState(): ContentReplacementState {
  return { decisions: new Map() };
}

export function createAppState(): AppState {
  return { todos: {} };
}

/** A ToolUseContext with fresh state, for a new session or a test. */
export function createToolUseContext(
  init: Pick<ToolUseContext, 'sandbox'> &
    Partial<Omit<ToolUseContext, 'options'>> & { options?: Partial<ToolUseOptions> },
): ToolUseContext {
  let appState = createAppState();
  return {
    abortController: new AbortController(),
    readFileState: new Map(),
    getAppState: () => appState,
    setAppState: (fn) => {
      appState = fn(appState);
    },
    messages: [],
    agentId: MAIN_AGENT_ID,
    queryTracking: { chainId: crypto.randomUUID(), depth: 0 },
    contentReplacementState: createContentReplacementState(),
    ...init,
    options: {
      cwd: init.sandbox.root,
      permissionMode: 'default',
      tools: [],
      ...init.options,
    },
  };
}
