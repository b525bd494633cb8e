/**
 * What a host page (a docs site embedding tabcode) may configure: through `mount(element, config)`, the
 * `<Tabcode>` React component, the `<tabcode-playground>` element, or by posting
 * `{ type: 'tabcode:config', config }` to the tabcode iframe. Every field is optional; a bad field is
 * reported to the host and ignored, never fatal.
 *
 * This file is the package's public vocabulary: it imports nothing (its declarations ship as they are).
 */

/** The permission modes (the same list as src/core/permissions/types.ts; validate-config.ts checks it). */
export type EmbedPermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions' | 'dontAsk';

export interface EmbedMcpServer {
  /** Server name: tools become `mcp__<name>__<tool>`. */
  name: string;
  /** Streamable HTTP (or SSE) endpoint. */
  url: string;
  transport?: 'http' | 'sse';
  headers?: Record<string, string>;
}

/** `light`, `dark`, or `auto` (follow the reader's system setting). */
export type EmbedThemeName = 'light' | 'dark' | 'auto';

/**
 * A theme as CSS custom properties of the workbench (`--bg`, `--fg`, `--accent`, `--radius`, `--font`…:
 * see THEME_VARIABLES), on top of a colour scheme. Values are CSS (`#0a7`, `light-dark(#fff, #111)`).
 */
export interface EmbedThemeObject {
  scheme?: EmbedThemeName;
  [variable: `--${string}`]: string;
}

export type EmbedTheme = EmbedThemeName | EmbedThemeObject;

/** The side panels. */
export type EmbedPanel = 'files' | 'terminal' | 'preview' | 'todos' | 'usage' | 'mcp' | 'rules';

/** What shows, and what opens first. Every part shows unless turned off. */
export interface EmbedLayout {
  /** The header bar (sandbox badge, usage meter, settings). */
  header?: boolean;
  /** The sessions list (default: off in an embed; true shows it). */
  sessions?: boolean;
  /** The side panel (files, terminal…). */
  sidePanel?: boolean;
  /** The terminal tab. */
  terminal?: boolean;
  /** The prompt box (off: a replay-only demo). */
  promptBox?: boolean;
  /** The side panel that opens first (default: files). */
  panel?: EmbedPanel;
  /** A project file opened first in the Files panel. */
  file?: string;
  /** Small embeds: denser type and spacing, no brand in the header. */
  compact?: boolean;
}

/** A CSS length (`480px`, `70vh`), a number of pixels, or `auto` (grow with the conversation). */
export type EmbedHeight = number | string;

/** `load` (or true): start when mounted; `visible`: when scrolled into view; false: wait for the reader. */
export type EmbedAutorun = boolean | 'load' | 'visible';

/** One step of a lesson. */
export interface EmbedLessonStep {
  title: string;
  /** What the step asks of the reader (plain text, shown above the workbench). */
  body?: string;
  /** The project at the start of this step (default: the config's files). */
  files?: Record<string, string>;
  /** The prompt put in the prompt box (or sent by autorun). */
  prompt?: string;
  /** Files written into the project by "Show solution". */
  solution?: Record<string, string>;
  /** This step's recorded demo. */
  replay?: EmbedReplay;
}

/** An ordered list of steps with next / previous and "show solution". */
export interface EmbedLessons {
  steps: EmbedLessonStep[];
  /** The step shown first (0-based, default 0). */
  start?: number;
}

export interface EmbedConfig {
  /** Initial project files (relative paths → content), instead of the demo project. */
  files?: Record<string, string>;
  /** Messages API base URL (a proxy the host runs) and model defaults. Keys are never taken from config. */
  baseURL?: string;
  model?: string;
  maxTokens?: number;
  permissionMode?: EmbedPermissionMode;
  /** Permission rules from the host page (source "embed config"). */
  permissions?: { allow?: string[]; ask?: string[]; deny?: string[] };
  mcpServers?: EmbedMcpServer[];
  /**
   * false: ToolSearch never downloads its sentence encoder (about 30 MB, served from the app's origin
   * when a server first has deferred tools) and ranks MCP tools by words only. Default true.
   */
  toolSearchEncoder?: boolean;
  sandbox?: 'auto' | 'webcontainer' | 'just-bash';
  theme?: EmbedTheme;
  layout?: EmbedLayout;
  height?: EmbedHeight;
  /** Send the first prompt (or play the replay) on load or when scrolled into view. */
  autorun?: EmbedAutorun;
  /** The first prompt: put in the prompt box, or sent by autorun. */
  prompt?: string;
  /**
   * Project memory the host supplies, read into the context at the start of each turn like a CLAUDE.md
   * (beside the project's own CLAUDE.md, if its files have one).
   */
  memory?: string;
  /** Project files nobody may change (gitignore-style patterns, relative to the project). */
  readOnly?: string[];
  /** Shows a button that puts the project and the conversation back as they were, with this label. */
  resetLabel?: string;
  /** npm packages installed with the sandbox's own npm before the first prompt (name → version range). */
  dependencies?: Record<string, string>;
  /** A lesson: steps with their own files, prompt, solution and demo. */
  lessons?: EmbedLessons;
  /**
   * A recorded (or hand-written) session played with no key and no network: the replay itself, or the
   * URL of a replay file (fetched by the page the playground runs in, so CORS applies across origins).
   */
  replay?: EmbedReplay | string;
  /** Replay pace: 1 the recorded pace (default), 2 twice as fast, 0 no waiting at all. */
  replaySpeed?: number;
  /** Record the live session so it can be exported as a replay (a button, or `handle.exportReplay()`). */
  record?: boolean;
  /**
   * A scripted demo (the hand-written form of a replay, kept for existing hosts): each model request is
   * answered with the next turn of the script.
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

/** The replay format this build writes and plays. */
export const REPLAY_FORMAT = 'tabcode-replay';
export const REPLAY_VERSION = 1;

/**
 * A replay file: the model's answers of a session (streamed events with their timing, or hand-written
 * blocks) and what its tools returned. Playing it drives the real tools in the sandbox and checks that
 * they return what was recorded.
 */
export interface EmbedReplay {
  format: typeof REPLAY_FORMAT;
  version: typeof REPLAY_VERSION;
  title?: string;
  /** ISO date of the recording. */
  recordedAt?: string;
  model?: string;
  /** The project the session started with (used when the config has no `files`). */
  files?: Record<string, string>;
  /** The user's turns, in order. */
  turns: EmbedReplayTurn[];
  /** What the model says once the replay has no answer left. */
  endText?: string;
}

export interface EmbedReplayTurn {
  /** The prompt that started the turn (sent by autorun or Play); none: whatever the reader sends. */
  prompt?: string;
  /** Milliseconds between the previous turn's end and this prompt, at the recorded pace. */
  pauseMs?: number;
  /** The model's answers, one per request of the turn (a tool call is followed by the next answer). */
  responses: EmbedReplayResponse[];
}

/** One answer: recorded `events`, or hand-written `content` (streamed as the API streams it). */
export interface EmbedReplayResponse {
  /** Server-sent events of the answer; `at`: milliseconds since its request was sent. */
  events?: EmbedReplayEvent[];
  content?: (EmbedDemoText | EmbedDemoToolUse)[];
  /** Milliseconds between streamed events of hand-written content (default DEMO_CHUNK_DELAY_MS). */
  chunkDelayMs?: number;
  /** What the answer's tool calls returned when recorded: the playback compares the real results. */
  results?: EmbedReplayResult[];
}

export interface EmbedReplayEvent {
  at: number;
  /** The SSE event name (`message_start`, `content_block_delta`…); `data.type` is the same. */
  event: string;
  data: Record<string, unknown>;
}

export interface EmbedReplayResult {
  toolUseId: string;
  name?: string;
  isError: boolean;
  /** The result's text as the model saw it. */
  content: string;
}

/** A config field that was refused (and ignored). */
export interface EmbedWarning {
  /** The field's path, e.g. `maxTokens` or `files["../x"]`. */
  field: string;
  message: string;
}

/** The sandbox a playground runs in. */
export type EmbedSandboxKind = 'just-bash' | 'webcontainer';

/** The outcome of comparing one tool result with the recording. */
export interface ReplayCheck {
  toolUseId: string;
  name: string;
  ok: boolean;
  /** For a mismatch: what differs, in a sentence, and both sides around the first difference. */
  detail?: string;
  expected?: string;
  actual?: string;
}

// ---- the iframe protocol and the events a host sees (protocol.ts maps session events to these) ----

export type HostMessage =
  | { type: 'tabcode:config'; config: unknown }
  | { type: 'tabcode:send'; prompt: string }
  | { type: 'tabcode:interrupt' }
  | { type: 'tabcode:play' }
  | { type: 'tabcode:reset' }
  | { type: 'tabcode:step'; step: number }
  | { type: 'tabcode:export-replay' };

export type EmbedMessage =
  | { type: 'tabcode:loaded' }
  | { type: 'tabcode:warning'; warning: EmbedWarning }
  | { type: 'tabcode:ready'; sandbox: EmbedSandboxKind }
  | { type: 'tabcode:event'; event: EmbedEvent }
  | { type: 'tabcode:error'; message: string }
  /** `height: 'auto'`: the height the playground wants (the host sizes the iframe). */
  | { type: 'tabcode:resize'; height: number }
  /** The answer to `tabcode:export-replay` (null when the config did not ask to record). */
  | { type: 'tabcode:replay'; replay: EmbedReplay | null };

/** A session event as a host sees it (noun-verb type, safe fields only). */
export type EmbedEvent =
  | { type: 'run-start'; prompt: string }
  | { type: 'run-end' }
  | { type: 'request-start'; turn: number }
  | { type: 'text-delta'; text: string }
  | { type: 'tool-use-start'; toolUseId: string; name: string }
  | { type: 'tool-run-start'; toolUseId: string; name: string; input: unknown }
  | {
      type: 'tool-result';
      toolUseId: string;
      name: string;
      isError: boolean;
      status: 'done' | 'error' | 'interrupted';
      durationMs: number;
    }
  | { type: 'permission-request'; toolUseId: string; name: string; message: string }
  | { type: 'message-end'; stopReason: string | null; outputTokens: number }
  | { type: 'turn-end'; reason: string }
  | { type: 'error'; error: { kind: string; message: string; status?: number } }
  /** A replayed tool result compared with its recording (`ok: false`: it differs, `detail` says how). */
  | { type: 'replay-check'; toolUseId: string; name: string; ok: boolean; detail?: string }
  /** The replay has no answer left and its last turn ended. */
  | { type: 'replay-end'; checks: number; mismatches: number }
  /** The config's dependencies were installed (or not). */
  | { type: 'dependencies'; ok: boolean; message?: string }
  | { type: 'lesson-step'; step: number; title: string }
  | { type: 'reset'; step: number };

// ---- mount() ----

export interface EmbedHandle {
  /** Runs one user turn (shown in the transcript). Resolves when the turn ends; never rejects. */
  send(prompt: string): Promise<void>;
  /** Stops the running turn, like Esc. */
  interrupt(): void;
  /** Plays the replay (its recorded prompts, at its pace) to its end. Never rejects. */
  play(): Promise<void>;
  /** Puts the project and the conversation back as they were. */
  reset(): void;
  /** Shows lesson step `index` (0-based); false when there is no such step. */
  goToStep(index: number): boolean;
  /** Writes the current step's solution files into the project. */
  showSolution(): Promise<void>;
  /** The live session as a replay file (with `record: true`), else undefined. */
  exportReplay(): EmbedReplay | undefined;
  /** The replay's tool results compared with the recording so far. */
  replayChecks(): readonly ReplayCheck[];
  /** Session events as a host sees them (see protocol.ts). Returns the unsubscribe function. */
  subscribe(listener: (event: EmbedEvent) => void): () => void;
  /** Removes the playground from the element and stops its sandbox and MCP connections. Never rejects. */
  unmount(): Promise<void>;
  /** The config fields that were refused. */
  readonly warnings: readonly EmbedWarning[];
  /** The sandbox the agent works in. */
  readonly sandbox: EmbedSandboxKind;
}

/** The events a hook may run at (Claude Code's). */
export type EmbedHookEvent = 'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'Stop' | 'SessionStart';

/** What a hook function receives (Claude Code's field names); the event's own fields are set for it. */
export interface EmbedHookInput {
  hook_event_name: EmbedHookEvent;
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  /** PreToolUse, PostToolUse. */
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  /** PostToolUse. */
  tool_response?: unknown;
  /** UserPromptSubmit. */
  prompt?: string;
  /** Stop. */
  stop_hook_active?: boolean;
  /** SessionStart: 'startup', 'resume', 'clear' or 'compact'. */
  source?: string;
}

/** What a hook function may return (nothing: no opinion), as a command hook prints it as JSON. */
export interface EmbedHookOutput {
  /** false: stop the turn after this hook (with `stopReason` shown to the user). */
  continue?: boolean;
  stopReason?: string;
  /** Shown to the user. */
  systemMessage?: string;
  /** PostToolUse, Stop, UserPromptSubmit: 'block' with a reason. */
  decision?: 'approve' | 'block';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName?: string;
    /** PreToolUse: allow (skip the prompt), deny (refuse, the reason goes to the model) or ask (prompt the user). */
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    /** PreToolUse: the input the call runs with instead (checked again). */
    updatedInput?: Record<string, unknown>;
    /** UserPromptSubmit, SessionStart, PostToolUse: context added for the model. */
    additionalContext?: string;
  };
}

/** A hook the host registers as a function. */
export interface EmbedHook {
  event: EmbedHookEvent;
  /** Tool events: a tool name, names joined by `|`, or a regular expression; empty or `*`: every tool. */
  matcher?: string;
  fn: (
    input: EmbedHookInput,
    signal: AbortSignal,
  ) => EmbedHookOutput | undefined | Promise<EmbedHookOutput | undefined>;
  /** Stops a hook that runs longer (default: the session's hook timeout). */
  timeoutMs?: number;
  /** Shown in the Permissions panel (default: the function's name). */
  label?: string;
}

export interface MountOptions {
  /**
   * Hooks the host registers as functions (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart):
   * they run in the host's page with the event and decide as Claude Code's hooks do. Listed in the
   * Permissions panel. (Functions cannot cross into an iframe: only `mount()` takes them.)
   */
  hooks?: EmbedHook[];
  /**
   * `height: 'auto'`: called with the wanted height instead of sizing the playground's own element (the
   * iframe page hands it to the host, which sizes the iframe).
   */
  onAutoHeight?: (height: number) => void;
  /**
   * Put the theme on the document's root element too (the iframe page, a page of its own; a host page's
   * root element is never touched otherwise).
   */
  documentTheme?: boolean;
}
