/**
 * Hooks: user code run at fixed points of a session, with Claude Code's contract. A hook is a shell
 * command run in the sandbox (the event as JSON on stdin; exit code 2 blocks, JSON on stdout decides)
 * or a function an embedding page registers (it returns the same JSON). Types only.
 */

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Why a session (re)started, for SessionStart (its matcher matches this). */
export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact';

/** Fields every hook receives (Claude Code's names). */
export interface HookInputBase {
  session_id: string;
  /** Where the transcript lives: tabcode keeps it in the page, so this names the session, not a file. */
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  hook_event_name: HookEventName;
}

export type HookInput = HookInputBase &
  (
    | { hook_event_name: 'PreToolUse'; tool_name: string; tool_input: unknown; tool_use_id: string }
    | {
        hook_event_name: 'PostToolUse';
        tool_name: string;
        tool_input: unknown;
        tool_response: unknown;
        tool_use_id: string;
      }
    | { hook_event_name: 'UserPromptSubmit'; prompt: string }
    | { hook_event_name: 'Stop'; stop_hook_active: boolean }
    | { hook_event_name: 'SessionStart'; source: SessionStartSource }
  );

/** The event-specific part of a hook's input (the runner adds the common fields). */
export type HookEventInput = HookInput extends infer T
  ? T extends unknown
    ? Omit<T, 'session_id' | 'transcript_path' | 'cwd' | 'permission_mode'>
    : never
  : never;

/** What a hook may answer: JSON on stdout (commands) or the return value (functions). */
export interface HookOutput {
  /** false: stop the turn after this hook (with `stopReason` shown to the user). */
  continue?: boolean;
  stopReason?: string;
  /** Shown to the user. */
  systemMessage?: string;
  /** PostToolUse, Stop, UserPromptSubmit: 'block' with a reason (given to the model, or the user for prompts). */
  decision?: 'approve' | 'block';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName?: string;
    /** PreToolUse: allow (skip the prompt), deny (refuse, reason to the model) or ask (prompt the user). */
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    /** PreToolUse: the input the call runs with instead (checked by the tool's schema and the permissions again). */
    updatedInput?: Record<string, unknown>;
    /** UserPromptSubmit, SessionStart, PostToolUse: context added for the model. */
    additionalContext?: string;
  };
}

/** A hook as a function (an embedding page's). It may return nothing (no opinion). */
export type HookFunction = (
  input: HookInput,
  signal: AbortSignal,
) => HookOutput | undefined | Promise<HookOutput | undefined>;

/** Where a hook was configured. 'workspace' hooks come from the project's files, so they are trusted less. */
export type HookSource = 'workspace' | 'embed';

export interface HookDefinition {
  event: HookEventName;
  /**
   * Which calls it runs for. Tool events: a tool name, names joined by `|`, or a regular expression
   * (`mcp__github__.*`); empty or `*`: every tool. SessionStart: a source. Others ignore it.
   */
  matcher?: string;
  /** A shell command, run in the sandbox with the event JSON on stdin. */
  command?: string;
  /** Or a function (embedding page). */
  fn?: HookFunction;
  /** Stops a hook that runs longer (default DEFAULT_HOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  source: HookSource;
  /** For the UI: the command, or the function's name. */
  label: string;
}

/** How one hook run ended. */
export type HookOutcome = 'success' | 'blocked' | 'error' | 'timeout' | 'invalid-json';

/** One hook run, as the transcript and the Permissions panel show it. */
export interface HookReport {
  event: HookEventName;
  label: string;
  source: HookSource;
  toolName?: string;
  toolUseId?: string;
  outcome: HookOutcome;
  /** What it decided, if anything. */
  decision?: 'allow' | 'deny' | 'ask' | 'block' | 'rewrite' | 'stop';
  /** Its reason, its stderr, the JSON error: what the user should read. */
  message?: string;
  exitCode?: number;
  durationMs: number;
}

/** The merged answer of every hook that ran for one event. */
export interface HookRunResult {
  reports: HookReport[];
  /** A hook blocked (exit code 2, decision 'block', or PreToolUse 'deny'): why. */
  blocked?: string;
  /** PreToolUse: the strongest decision (deny > ask > allow) and its reason. */
  permission?: 'allow' | 'deny' | 'ask';
  permissionReason?: string;
  /** PreToolUse: the rewritten input (the last hook's, in configuration order). */
  updatedInput?: Record<string, unknown>;
  /** Text for the model (stdout of prompt and session hooks, additionalContext fields). */
  context: string[];
  /** A hook said `continue: false`: the turn stops, with this reason for the user. */
  stop?: string;
}

/** Runs the configured hooks of an event. Never throws; a failing hook is a report, the call proceeds. */
export interface HookRunner {
  /** Every hook configured now (for the Permissions panel). */
  list(): HookDefinition[];
  run(
    input: HookEventInput,
    options?: {
      toolName?: string;
      toolUseId?: string;
      signal?: AbortSignal;
      cwd?: string;
      permissionMode?: string;
    },
  ): Promise<HookRunResult>;
}
