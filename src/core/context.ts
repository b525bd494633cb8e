/**
 * ToolUseContext: everything a tool call may use (Claude Code's "god context"). Built by the agent
 * session per turn; the loop derives a per-call copy with `toolUseId` set.
 */
import type { Sandbox } from '../sandbox/sandbox.ts';
import { DEFAULT_MODEL } from './constants.ts';
import type { MessageParam } from './messages.ts';
import type { PermissionMode } from './permissions/types.ts';
import type { AnyTool } from './tool.ts';

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

/** App-level state tools may read or change (todo list, background jobs...). */
export interface AppState {
  todos: Array<{ content: string; status: 'pending' | 'in_progress' | 'completed'; activeForm?: string }>;
  [key: string]: unknown;
}

export interface ToolUseOptions {
  /** Current directory of the agent (inside the sandbox workspace). */
  cwd: string;
  model: string;
  permissionMode: PermissionMode;
  /** Compile-time and runtime feature flags. */
  flags: Record<string, boolean>;
  /** The tool pool of this request (ToolSearch and Agent-style tools look at it). */
  tools: readonly AnyTool[];
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
  /** The transcript up to the assistant message being executed. */
  messages: readonly MessageParam[];
  agentId: string;
  queryTracking: { chainId: string; depth: number };
  contentReplacementState: ContentReplacementState;
  sandbox: Sandbox;
  /** Set per call by the loop. */
  toolUseId?: string;
  resultStore?: ResultStore;
}

export function createContentReplacementState(): ContentReplacementState {
  return { decisions: new Map() };
}

export function createAppState(): AppState {
  return { todos: [] };
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
    agentId: 'main',
    queryTracking: { chainId: crypto.randomUUID(), depth: 0 },
    contentReplacementState: createContentReplacementState(),
    ...init,
    options: {
      cwd: init.sandbox.root,
      model: DEFAULT_MODEL,
      permissionMode: 'default',
      flags: {},
      tools: [],
      ...init.options,
    },
  };
}
